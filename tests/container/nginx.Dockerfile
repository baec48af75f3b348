# The proxy of docker/compose.yaml for the compose test, where no image registry is reachable (so the
# compose file's nginx:1.28 cannot be pulled): Debian's nginx-light on the same bookworm base, run the
# way the official nginx image runs it: openssl there (the official image has it through
# ca-certificates), and each executable /docker-entrypoint.d/*.sh run before nginx starts.
# tests/container/test_compose.sh builds it.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light openssl \
    && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGQUIT
CMD ["/bin/sh", "-c", "for step in /docker-entrypoint.d/*.sh; do if [ -x \"$step\" ]; then \"$step\" || exit 1; fi; done; exec nginx -g 'daemon off;'"]
