# docs-gateway in a container: `docker build -t docs-gateway .` then
# `docker run -p 4000:4000 -v docs-data:/data docs-gateway` (see docs/operations.md#container;
# `test/container/check.sh` builds and checks it).

# Build: install from the lockfile (generates the Prisma clients), bundle, keep production dependencies only.
FROM node:24-bookworm-slim AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
# bin/build.js holds the bundle's build; the install's own build waits for the sources.
COPY bin ./bin
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# The bundle (dist/cli/: the command and the two halves it loads) loads none of the tools
# that run the sources (tsx), bundle them (esbuild) or generate the client (the prisma CLI): 796 MB → 573 MB.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
 && npm uninstall --ignore-scripts --omit=dev --no-audit --no-fund prisma tsx esbuild

# Run: the bundle, its dependencies and the migrations, as the unprivileged `node` user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATABASE_URL=file:/data/docs-gateway.db \
    FILES_DIR=/data/files \
    DOCS_GATEWAY_COMMAND="docker run --rm … docs-gateway"
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The image is the command: `docker run … docs-gateway bootstrap --help`, `… serve --demo`.
ENTRYPOINT ["node", "dist/cli/docs-gateway.mjs"]
CMD ["serve"]
