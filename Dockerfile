# syntax=docker/dockerfile:1
# Every LWS image, built from the repository root. A service image:
#   docker build --build-arg SERVICE=shifts -t lws/shifts .
# (SERVICE: gateway, identity, locations, shifts, escalation, notifications or audit), and a
# frontend remote's image, which the chart copies into the gateway's pod when a team ships that
# remote on its own tag (charts/lws/README.md, "Images"):
#   docker build --target remote --build-arg REMOTE=admin -t lws/remote-admin .
#
# The install and build stages do not depend on SERVICE, so one build fills the cache for all
# seven images and every image is built from the same compiled code.

FROM node:24-bookworm AS manifests
WORKDIR /src
COPY . .
# Only the package manifests and the lockfile reach the install layer, so it is
# rebuilt when dependencies change, not on every source edit.
RUN mkdir /manifests \
 && cp package.json package-lock.json .npmrc /manifests/ \
 && find . -name package.json -not -path '*/node_modules/*' -not -path './package.json' \
      -exec cp --parents {} /manifests/ \;

FROM node:24-bookworm AS build
WORKDIR /src
COPY --from=manifests /manifests/ ./
# The lockfile lists every platform's optional packages, so npm ci installs exactly it.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM build AS bundle
ARG SERVICE
# scripts/image.mjs: `npm ci --omit=dev --omit=optional --workspace services/$SERVICE` (that
# service's production dependencies only: no React, PGlite, build or test tools), the built output
# of the service and of the libraries it uses, its migrations, for the gateway the built
# frontends, and the image's main.js and health.js. tests/integration/deploy/images.test.ts runs
# the same script for every service and starts the result.
RUN test -n "$SERVICE" || { echo 'build with --build-arg SERVICE=<service>' >&2; exit 1; }; \
    node scripts/image.mjs "$SERVICE" /out

FROM busybox:1.37 AS remote
ARG REMOTE
COPY --from=build /src/frontends/${REMOTE}/dist/ /remote/
USER 1000:1000
# Run as an init container of the gateway's pod, with an emptyDir mounted at /target that the
# gateway then serves as frontends/$REMOTE/dist.
CMD ["cp", "-R", "/remote/.", "/target/"]

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=bundle /out/ ./
USER node
# The gateway serves on 8080 (PORT, its probes on HEALTH_PORT 8079); each other service answers
# probes and /metrics on its HEALTH_PORT, 8081 to 8086 (the chart's services.<name>.port).
EXPOSE 8079-8086
# Docker's health status gates the docker compose start order, so it asks for readiness.
# Kubernetes ignores it and probes /healthz and /readyz itself.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "health.js"]
CMD ["node", "main.js"]
