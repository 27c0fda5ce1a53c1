# Build: compile TypeScript to dist/ and bundle the dashboard (src/ui/) into dist/ui/, with the
# full dependency set (esbuild, through tsx, bundles it; the runtime stage only serves the files).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-ui.ts ./scripts/
COPY src ./src
RUN npm run build

# Run: production dependencies and compiled code only (dist/, the dashboard's dist/ui/ with it), as
# the unprivileged node user. The image's own Node 24 runs the service, so no install scripts: they
# would only fetch a second Node binary (the `node` package) and check esbuild's (used by tsx,
# which the image does not run).
FROM node:24-slim
# State (the local backend's database) lives in a volume, never in the image's own layers.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 CACHEGATE_DATA_DIR=/var/lib/cachegate
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schema ./schema
COPY openapi ./openapi
RUN mkdir -p /var/lib/cachegate && chown node:node /var/lib/cachegate
VOLUME /var/lib/cachegate
USER node
EXPOSE 8080
# glibc's malloc: allocations of 64 KiB and more are mapped on their own and returned when freed,
# and freed memory at the top of the heap is returned at once; see "Runtime and dependency
# versions" in the README (npm start sets the same).
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=0
# --max-semi-space-size: see "Runtime and dependency versions" in the README (npm start passes the same flag).
ENTRYPOINT ["node", "--max-semi-space-size=16", "dist/main.js"]
