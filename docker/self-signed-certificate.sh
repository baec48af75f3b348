#!/bin/sh
# Writes a self-signed certificate for localhost (and 127.0.0.1) into $TLS_DIR (default
# /etc/nginx/tls, where docker/nginx.conf reads it) unless one is there already: enough for
# https://localhost:8443 in development, where the browser is told once to trust it. In production,
# mount the real certificate and key there as server.crt and server.key; this then does nothing.
# The nginx image runs it at start from /docker-entrypoint.d/ (docker/compose.yaml mounts it there);
# tests/scaleout/run.sh runs it with TLS_DIR set to the test's own directory.
set -eu
dir=${TLS_DIR:-/etc/nginx/tls}
if [ -s "$dir/server.crt" ] && [ -s "$dir/server.key" ]; then exit 0; fi
mkdir -p "$dir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 825 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$dir/server.key" -out "$dir/server.crt" 2> /dev/null
chmod 644 "$dir/server.crt"
echo "self-signed-certificate.sh: wrote a self-signed certificate for localhost into $dir"
