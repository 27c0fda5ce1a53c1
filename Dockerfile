# Build: compile TypeScript to dist/ with the full dependency set.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Run: production dependencies and compiled code only, as the unprivileged node user.
FROM node:20-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schema ./schema
COPY openapi ./openapi
USER node
EXPOSE 8080
ENTRYPOINT ["node", "dist/main.js"]
