# Build stage: Node and npm install Bun from the `bun` package (as on any fresh machine), then compile
# featureboard into one self-contained executable.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# Final image: the binary only, run by an unprivileged user, with the database on a volume.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /home/featureboard --create-home featureboard \
 && mkdir -p /data && chown featureboard:featureboard /data
COPY --from=build /src/dist/featureboard /usr/local/bin/featureboard
USER featureboard
ENV HOST=0.0.0.0 \
    PORT=3000 \
    FEATUREBOARD_DB=/data/featureboard.db \
    FEATUREBOARD_CACHE_DIR=/home/featureboard/.cache/featureboard
VOLUME ["/data"]
EXPOSE 3000
STOPSIGNAL SIGTERM
ENTRYPOINT ["featureboard"]
CMD ["serve"]
