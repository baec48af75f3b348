# Sourced by benchmark scripts: starts Debian's nginx (no root, temp prefix, loopback) serving a
# directory, as the "static file server" peer. After `static_nginx_start DIR [ACCESS_LOG]`, STATIC_URL
# is its base URL; it logs each request to the file ACCESS_LOG if one is named, and to nothing otherwise;
# it is stopped when the calling script exits. paired_medians (below) times ours against it.
static_nginx_start() {
  local root=$1 access_log=${2:-off}
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
  access_log $access_log;
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

# Times one transfer of ours and one of the peer's, PAIRED_ROUNDS times in turn (so that whatever
# else the machine does in a moment weighs on both sides alike), and sets PAIRED_OURS and PAIRED_PEER
# to the medians of curl's time_total in seconds. Arguments: the names of two arrays of curl arguments.
PAIRED_ROUNDS=11
paired_medians() {
  local -n ours_args=$1 peer_args=$2
  local ours_times="" peer_times=""
  for _ in $(seq "$PAIRED_ROUNDS"); do
    ours_times+="$(curl -sSf -o /dev/null -w '%{time_total}' "${ours_args[@]}")"$'\n'
    peer_times+="$(curl -sSf -o /dev/null -w '%{time_total}' "${peer_args[@]}")"$'\n'
  done
  local middle=$(((PAIRED_ROUNDS + 1) / 2))
  PAIRED_OURS=$(printf '%s' "$ours_times" | sort -g | sed -n "${middle}p")
  PAIRED_PEER=$(printf '%s' "$peer_times" | sort -g | sed -n "${middle}p")
}
