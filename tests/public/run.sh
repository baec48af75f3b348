#!/usr/bin/env bash
# Serving the public directly: HTTPS through libmicrohttpd's GnuTLS support and the admin port.
# Makes a throwaway CA and a certificate for localhost with openssl, then checks: curl --cacert gets
# /healthz over HTTPS, and so does `puzzled --health-check` given the same flags; a TLS 1.1 handshake is refused; a key that does not match the certificate,
# or a missing file, stops the start with a clear message; with --admin-port, /metrics answers there
# and the public port says 404 for it; every answer carries nosniff.
#   tests/public/run.sh PUZZLED_BIN
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=$(realpath "${1:?usage: tests/public/run.sh PUZZLED_BIN}")
tmp=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; wait 2> /dev/null; rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/ca.key" -out "$tmp/ca.pem" -days 1 -subj /CN=puzzled-test-ca 2> /dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$tmp/server.key" -out "$tmp/server.csr" -subj /CN=localhost 2> /dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$tmp/ext"
openssl x509 -req -in "$tmp/server.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" -CAcreateserial -out "$tmp/server.pem" \
  -days 1 -extfile "$tmp/ext" 2> /dev/null
check "a throwaway CA and a localhost certificate" test -s "$tmp/server.pem"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
admin_port=$(free_port)
"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key" --admin-port "$admin_port" \
  > "$tmp/out" 2> "$tmp/err" &
server=$!
for _ in $(seq 1 100); do grep -q '^listening on ' "$tmp/out" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$tmp/out")
check "it says it listens on https ($url)" grep -q '^listening on https://127.0.0.1:' "$tmp/out"
port=${url##*:}
https=https://localhost:$port

check "curl --cacert gets /healthz over HTTPS" \
  bash -c "curl -sf --cacert '$tmp/ca.pem' '$https/healthz' | grep -q '\"status\":\"ok\"'"
for version in 1.2 1.3; do
  check "a TLS $version handshake succeeds" bash -c "openssl s_client -connect 127.0.0.1:$port -tls${version/./_} \
    -CAfile '$tmp/ca.pem' < /dev/null 2> /dev/null | grep -q 'New, TLSv$version,'"
done
check "a TLS 1.1 handshake is refused" bash -c "! curl -s --cacert '$tmp/ca.pem' --tlsv1.1 --tls-max 1.1 '$https/healthz'"
check "--health-check speaks HTTPS to an HTTPS port and says healthy" \
  bash -c "'$bin' --health-check --host 127.0.0.1 --port $port --tls-cert '$tmp/server.pem' --tls-key '$tmp/server.key' | grep -qx healthy"
check "... and plain HTTP to it is not taken for health" \
  bash -c "! '$bin' --health-check --host 127.0.0.1 --port $port > /dev/null"
check "a client without the CA refuses the certificate (it is not a public one)" bash -c "! curl -s '$https/healthz'"
check "every answer carries X-Content-Type-Options: nosniff" \
  bash -c "curl -s -D - -o /dev/null --cacert '$tmp/ca.pem' '$https/queens?n=4' | grep -qi '^x-content-type-options: nosniff'"

check "with --admin-port, /metrics answers on the admin port" \
  bash -c "curl -sf 'http://127.0.0.1:$admin_port/metrics' | grep -q '^puzzled_build_info'"
check "... and the public port answers 404 for it" \
  bash -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' --cacert '$tmp/ca.pem' '$https/metrics')\" = 404"
check "... and the admin port serves nothing else" \
  bash -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' 'http://127.0.0.1:$admin_port/healthz')\" = 404"
kill "$server"
wait "$server"
check "it stops cleanly on SIGTERM (status $?)" test "$?" = 0
server=""

"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/server.pem" --tls-key "$tmp/ca.key" > /dev/null 2> "$tmp/mismatch"
status=$?
check "a key that does not match the certificate stops the start (status $status) and says so" \
  bash -c "test $status -ne 0 && grep -qi 'do not match' '$tmp/mismatch'"
"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/missing.pem" --tls-key "$tmp/server.key" > /dev/null 2> "$tmp/missing"
status=$?
check "a missing certificate file stops the start (status $status) and names it" \
  bash -c "test $status -ne 0 && grep -q 'missing.pem' '$tmp/missing'"

checks_summary
[ "$failed" -eq 0 ]
