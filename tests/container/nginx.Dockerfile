# The proxy of docker/compose.yaml for the compose test, where no image registry is reachable (so the
# compose file's nginx:1.28 cannot be pulled): Debian's nginx-light on the same bookworm base, run the
# way the official nginx image runs it. tests/container/test_compose.sh builds it.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
