# syntax=docker/dockerfile:1
# Signet's image: `docker build -t signet .` (docs/operations.md, "Container").
#
# The build stage installs every dependency (better-sqlite3 compiles here when no prebuilt
# binary is reachable: node:20-bookworm has python3, make and g++), runs `npm run build`, then
# prunes the dev dependencies. The runtime stage is the slim image with the built tree (dist/,
# bin/, package files) and the production dependencies only, run by an unprivileged user.

# The base images, replaceable where Docker Hub is not reachable (.ci/container-image makes both
# from Debian's packages and the official Node.js binary, and passes them here).
ARG NODE_IMAGE=node:20-bookworm
ARG NODE_SLIM_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` runs the postinstall script, patch-package: it applies patches/ to node_modules.
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
# The font packages ship nine weights each (190 MB); the seal embeds the regular one only
# (server/src/modules/sealing/seal-fonts.ts) and the pages' fonts are bundled into dist/.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules/@expo-google-fonts -mindepth 2 -maxdepth 2 -type d ! -name 400Regular -exec rm -rf {} +

FROM ${NODE_SLIM_IMAGE}
ENV DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
RUN groupadd --system --gid 10001 signet \
 && useradd --system --uid 10001 --gid signet --home-dir /app --shell /usr/sbin/nologin signet \
 && mkdir -p /data \
 && chown signet:signet /data
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
USER signet
# The embedded database, stored files and the generated sandbox secrets (unused parts stay empty
# with DATABASE_URL and STORAGE_URL set).
VOLUME ["/data"]
EXPOSE 3000
# /readyz: 200 while the database answers. node, not curl: the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same node flag as the `signet` command's #! line (docs/operations.md, "Node flags"); node
# is PID 1 and stops cleanly on SIGTERM.
CMD ["node", "--max-semi-space-size=64", "bin/signet.mjs", "serve"]
