# syntax=docker/dockerfile:1
# One image for the whole repo: every service and the gateway (which serves the built SPA).
# `SERVICE` picks the process at run time:
#   docker build -t lockdrop .
#   docker run -e SERVICE=catalog -e HOST=0.0.0.0 -e DATABASE_URL=… lockdrop
# Ports: gateway 8080, identity 3001, catalog 3002, payments 3003, delivery 3004,
# analytics 3005, worker 3006 (override with PORT).

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
WORKDIR /app

# Only the package manifests, so the `npm ci` layers below are rebuilt when dependencies
# change and not on every source edit (BuildKit keys COPY --from on content).
FROM base AS manifests
COPY . /src
RUN mkdir /manifests && cd /src \
 && cp package.json package-lock.json .npmrc /manifests/ \
 && find libs services web -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# Build: needs the dev dependencies (nx, esbuild, vite, typescript).
FROM base AS build
COPY --from=manifests /manifests ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && mkdir -p /out/web \
 && cp package.json /out/ \
 && cp -r web/dist /out/web/dist \
 && cp -r web/.ssr /out/web/.ssr \
 && for dir in services/*/; do \
      test -f "$dir/dist/main.js" || { echo "missing $dir/dist/main.js" >&2; exit 1; }; \
      mkdir -p "/out/$dir" && cp -r "$dir/dist" "$dir/package.json" "/out/$dir"; \
    done

# The services' production dependencies only (the SPA is static files, and web's server entry in
# web/.ssr, which the gateway runs to render product pages, carries its own: none of web's). Our
# own @lockdrop/* libs are bundled into each dist by esbuild, so their workspace links go;
# every third-party package stays external and is loaded from here.
FROM base AS prod-deps
COPY --from=manifests /manifests ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --no-audit --no-fund \
      $(for dir in services/*/; do printf -- '--workspace=%s ' "${dir%/}"; done) \
 && rm -rf node_modules/@lockdrop

# The edge for stores' custom domains (issue 28): Debian's caddy with deploy/edge/Caddyfile,
# on-demand certificates kept in /data (a volume). `docker build --target edge -t lockdrop-edge .`
FROM debian:bookworm-slim AS edge
RUN apt-get update \
 && apt-get install -y --no-install-recommends caddy ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY deploy/edge/Caddyfile /etc/caddy/Caddyfile
# Caddy keeps certificates and ACME accounts under XDG_DATA_HOME; HOME for anything else it writes.
ENV XDG_DATA_HOME=/data XDG_CONFIG_HOME=/config HOME=/data \
    EDGE_HTTP_PORT=8080 EDGE_HTTPS_PORT=8443
RUN mkdir -p /data /config && chown 1000:1000 /data /config
USER 1000:1000
EXPOSE 8080 8443
ENTRYPOINT ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE=gateway
# HOST: services default to 127.0.0.1 for a laptop; in a container they must listen on all
# interfaces or nothing outside reaches them.
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    SERVICE=${SERVICE}
WORKDIR /app
# Debian's maintained ffmpeg renders video previews (delivery); prlimit (util-linux) caps each
# render process. One image serves every service, so every image carries it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /out ./
# Code stays root-owned and read-only to the app; the only writable place in /app is the data
# directory (delivery's uploads), created here so a fresh named volume inherits its owner.
RUN mkdir -p /app/.data && chown 1000:1000 /app/.data
# uid 1000 is the image's `node` user; numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 3001 3002 3003 3004 3005 3006
# Liveness only (the process answers); readiness of Postgres/NATS/Redis is /readyz's job.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const port = process.env.PORT || { gateway: 8080, identity: 3001, catalog: 3002, payments: 3003, delivery: 3004, analytics: 3005, worker: 3006 }[process.env.SERVICE]; fetch('http://127.0.0.1:' + port + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `exec` makes node PID 1, so SIGTERM reaches its graceful shutdown (drains within 15 s).
ENTRYPOINT ["/bin/sh", "-c", "main=\"services/$SERVICE/dist/main.js\"; if [ ! -f \"$main\" ]; then echo \"SERVICE must be one of: $(ls services | tr '\\n' ' ')(got '$SERVICE')\" >&2; exit 64; fi; exec node \"$main\" \"$@\"", "lockdrop"]

