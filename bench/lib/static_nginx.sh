# Sourced by benchmark scripts: starts Debian's nginx (no root, temp prefix, loopback) serving a
# directory, as the "static file server" peer. After `static_nginx_start DIR`, STATIC_URL is its
# base URL; it is stopped when the calling script exits.
static_nginx_start() {
  local root=$1
  chmod 755 "$root" # nginx workers run unprivileged: mktemp -d is 0700
  STATIC_PREFIX=$(mktemp -d)
  mkdir -p "$STATIC_PREFIX/logs"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  cat > "$STATIC_PREFIX/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $STATIC_PREFIX/nginx.pid;
error_log $STATIC_PREFIX/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  client_body_temp_path $STATIC_PREFIX;
  proxy_temp_path $STATIC_PREFIX;
  fastcgi_temp_path $STATIC_PREFIX;
  uwsgi_temp_path $STATIC_PREFIX;
  scgi_temp_path $STATIC_PREFIX;
  types { application/json json; }
  server { listen 127.0.0.1:$port; root $root; }
}
CONF
  nginx -p "$STATIC_PREFIX" -c "$STATIC_PREFIX/nginx.conf" &
  STATIC_PID=$!
  trap 'kill $STATIC_PID 2>/dev/null; wait $STATIC_PID 2>/dev/null; rm -rf "$STATIC_PREFIX"' EXIT
  STATIC_URL=http://127.0.0.1:$port
  for _ in $(seq 1 100); do curl -s -o /dev/null "$STATIC_URL/" && return 0; sleep 0.05; done
  echo "static nginx did not start" >&2
  return 1
}
