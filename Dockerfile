# syntax=docker/dockerfile:1
# The puzzled container: a build stage that installs and builds with the README's own scripts, and a
# runtime stage that holds only the runtime libraries, the word list, the executable and openapi.yaml.
# tests/container/run.sh builds it and runs the image for real (podman, or Docker where its daemon runs);
# tests/container/test_dockerfile_mirror.sh checks that this file keeps mirroring scripts/run.sh.
#   docker build -t puzzled .                        # podman: podman build --format docker -t puzzled .
#   docker run --rm -p 8080:8080 puzzled            # flags after the image name go to puzzled

FROM debian:bookworm-slim AS build
WORKDIR /src
# The package layer first, so editing the sources does not reinstall the toolchain.
COPY scripts/setup.sh scripts/setup.sh
RUN scripts/setup.sh build
COPY . .
RUN scripts/build.sh build -DPUZZLED_TESTS=OFF

FROM debian:bookworm-slim AS runtime
# setup.sh is mounted for this one step, not copied: the image keeps only what it installed.
RUN --mount=type=bind,source=scripts/setup.sh,target=/tmp/setup.sh \
    /tmp/setup.sh runtime \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 puzzled \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin puzzled
COPY --from=build /src/build/puzzled /usr/local/bin/puzzled
COPY openapi.yaml /usr/share/puzzled/openapi.yaml
USER 10001:10001
ENV PUZZLED_HOST=0.0.0.0 PUZZLED_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 CMD ["puzzled", "--health-check"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["puzzled"]
