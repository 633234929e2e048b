# syntax=docker/dockerfile:1
# USDT Stake: one image serving the API and the built web app.
#   docker build -t usdt-stake .
#   docker run -p 3000:3000 -v usdt-data:/app/data usdt-stake        (PGlite in the volume)
# compose.yaml runs two replicas on PostgreSQL and Redis behind nginx.

# Every workspace's package.json first, so the dependency layers are cached until the lockfile changes.
FROM node:24-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/

# The web app is built with the dev toolchain (Vite, Tailwind, TypeScript).
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/core packages/core
COPY apps/web apps/web
RUN npm run build

# Runtime dependencies only: the server and core workspaces. The server runs its TypeScript
# through tsx (a production dependency of @app/server), so no compile step is needed.
FROM manifests AS prod-deps
RUN npm ci --omit=dev --workspace=@app/server --workspace=@app/core --no-audit --no-fund \
  && npm cache clean --force

FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    WEB_DIST=/app/apps/web/dist
WORKDIR /app
# The manifests and node_modules (the root's and any workspace's nested ones) of the runtime install.
COPY --from=prod-deps /app ./
COPY tsconfig.base.json ./
COPY packages/core packages/core
COPY apps/server apps/server
COPY --from=build /app/apps/web/dist apps/web/dist
# The image's own `node` user (uid 1000) owns only the data directory.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec form: node is PID 1 and gets SIGTERM directly, so it drains requests and jobs before exiting.
CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]
