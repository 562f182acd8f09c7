# Fawn's server (`npm run server`: the agent and Gateway on Node, LangGraph's API and DeerFlow's REST routes under
# /api) as an image. Run several containers over one Postgres for replicas (compose.yaml). Without DATABASE_URL it
# keeps an embedded Postgres (PGlite) in /data: mount a volume there.
# The server runs its TypeScript with tsx and bundles the Python sandbox's child with esbuild at start, both
# development dependencies, so the image installs them too.

FROM node:20-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json tsconfig.base.json tsconfig.node.json ./
COPY server ./server
# The outbound policy (server/outbound.ts) shares the proxy's target rules (proxy/target-policy.ts).
COPY proxy ./proxy
COPY src ./src
COPY skills ./skills
RUN mkdir -p /data && chown node:node /data
ENV HOST=0.0.0.0 \
    PORT=2024 \
    FAWN_SERVER_DATA=/data \
    LANGSMITH_TRACING=false
USER node
VOLUME ["/data"]
EXPOSE 2024
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 2024) + '/ok').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["npm", "run", "server"]
