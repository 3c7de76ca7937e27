#!/usr/bin/env bash
# Builds docs-gateway's image from this checkout and checks it as an operator
# runs it (docs/operations.md#container): readiness, health, the reference page, the
# unprivileged user, the image's health check, a token from `bootstrap` that
# answers, data kept in the volume by a new container, and a clean stop.
# Uses docker, or podman where there is no docker. Not part of .ci/run (it needs
# a container engine and minutes); run it when the Dockerfile or start-up changes.
#
#   test/container/check.sh                 # the engine pulls node:24-bookworm-slim
#   test/container/check.sh --offline-base  # no registry: a stand-in base (offline-base.sh, podman)
set -euo pipefail
cd "$(dirname "$0")/../.."
ENGINE=$(command -v docker || command -v podman || true)
BUILD=(build -t docs-gateway-check .)
if [ "${1:-}" = --offline-base ]; then
  export CONTAINERS_CONF=$PWD/test/container/containers.conf
  test/container/offline-base.sh
  ENGINE=$(command -v podman)
  # npm in the build trusts what the host trusts (an intercepting proxy's CA), through build-time mounts only.
  NPMRC=$(mktemp) && echo 'cafile=/run/host-ca/ca-certificates.crt' > "$NPMRC"
  BUILD=(build --pull=never -v /etc/ssl/certs/ca-certificates.crt:/run/host-ca/ca-certificates.crt:ro -v "$NPMRC:/usr/local/etc/npmrc:ro" -t docs-gateway-check .)
fi
[ -n "$ENGINE" ] || { echo "check.sh needs docker or podman" >&2; exit 2; }
# podman keeps HEALTHCHECK only in docker-format images.
[[ $ENGINE == */podman ]] && BUILD=("${BUILD[0]}" --format docker "${BUILD[@]:1}")

NAME=docs-gateway-check-$$
VOLUME=$NAME-data
PORT=${CHECK_PORT:-4471}
BASE=http://127.0.0.1:$PORT
cleanup() {
  "$ENGINE" rm -f "$NAME" "$NAME-again" >/dev/null 2>&1 || true
  "$ENGINE" volume rm -f "$VOLUME" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; "$ENGINE" logs --tail 20 "$NAME" >&2 2>/dev/null || true; exit 1; }
# podman without systemd says, on every run and stop, that it cannot time health checks: noise here.
quiet() { "$@" 2> >(grep -v 'systemd connection' >&2); }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
now() { date +%s%N; }
since() { local tenths=$((($(now) - $1) / 100000000)); echo "$((tenths / 10)).$((tenths % 10))"; }

start=$(now)
"$ENGINE" "${BUILD[@]}" >/tmp/docs-gateway-check-build.log 2>&1 || { tail -30 /tmp/docs-gateway-check-build.log; fail "the image does not build"; }
echo "built in $(since "$start") s: $("$ENGINE" image inspect docs-gateway-check --format '{{.Size}}' | awk '{printf "%d MB", $1/1e6}')"

run() { # name: serve the volume's database on PORT
  quiet "$ENGINE" run -d --name "$1" -p "$PORT:4000" -e PUBLIC_URL="$BASE" -v "$VOLUME:/data" docs-gateway-check >/dev/null
  local begun=$(now)
  for _ in $(seq 100); do [ "$(status "$BASE/readyz")" = 200 ] && break; sleep 0.2; done
  [ "$(status "$BASE/readyz")" = 200 ] || fail "$1: /readyz is not 200"
  echo "$1 ready in $(since "$begun") s"
}

run "$NAME"
[ "$(status "$BASE/healthz")" = 200 ] || fail "/healthz is not 200"
[ "$(status -H 'accept: text/html' "$BASE/docs")" = 200 ] || fail "/docs is not 200"
[ "$(status -H 'accept: text/html' "$BASE/graphql")" = 200 ] || fail "GraphiQL is not 200"
[ "$("$ENGINE" exec "$NAME" id -un)" = node ] || fail "the server does not run as node"
if [[ $ENGINE == */podman ]]; then
  "$ENGINE" healthcheck run "$NAME" >/dev/null || fail "the health check fails"
else
  for _ in $(seq 40); do [ "$("$ENGINE" inspect -f '{{.State.Health.Status}}' "$NAME")" = healthy ] && break; sleep 1; done
  [ "$("$ENGINE" inspect -f '{{.State.Health.Status}}' "$NAME")" = healthy ] || fail "the health check does not pass"
fi
echo "health check passes; the server runs as node"

# The image is the command: a one-off container makes a token in the same volume.
TOKEN=$(quiet "$ENGINE" run --rm -v "$VOLUME:/data" docs-gateway-check bootstrap --org 'Container check' --email check@example.test --json | tail -1 | jq -r .token)
[ -n "$TOKEN" ] && [ "$TOKEN" != null ] || fail "bootstrap printed no token"
orgs() { curl -sf -H "authorization: Bearer $TOKEN" "$BASE/v1/orgs" | jq -r '.items[].title'; }
[ "$(orgs)" = 'Container check' ] || fail "the token does not list its organization"
graphql=$(curl -sf -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"query":"{ __typename }"}' "$BASE/graphql")
[ "$graphql" = '{"data":{"__typename":"Query"}}' ] || fail "GraphQL answered $graphql"

begun=$(now)
quiet "$ENGINE" stop "$NAME" >/dev/null
[ "$("$ENGINE" inspect -f '{{.State.ExitCode}}' "$NAME")" = 0 ] || fail "the server did not exit 0 on stop"
echo "stopped with exit code 0 in $(since "$begun") s"
quiet "$ENGINE" rm "$NAME" >/dev/null

run "$NAME-again"
[ "$(orgs)" = 'Container check' ] || fail "a new container on the volume lost the data"
echo "a new container on the same volume has the data and the token"
echo "container check passed ($(basename "$ENGINE"))"
