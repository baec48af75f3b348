#!/usr/bin/env bash
# Serving the public directly: HTTPS through libmicrohttpd's GnuTLS support and the admin port.
# Makes a throwaway CA and a certificate for localhost with openssl, then checks: curl --cacert gets
# /healthz over HTTPS, and so does `puzzled --health-check` given the same flags; a TLS 1.1 handshake is refused; the
# TLS profile is Mozilla's "intermediate": of every TLS 1.2 suite openssl knows, tried one at a time,
# exactly the ECDHE + AES-GCM or ChaCha20-Poly1305 ones are accepted (a CBC-only client is refused, so
# is RSA key exchange), and each TLS 1.3 suite is; --tls-priorities changes the profile, and a string
# GnuTLS refuses stops the start; on the TLS 1.3-only profile testssl.sh -R (3.0.8) finds secure and
# client-initiated renegotiation "not vulnerable" (docs/security.md); a key that does not match the certificate, or a missing file, stops
# the start with a clear message; with --admin-port, /metrics answers there (promtool accepts the scrape) and the public port says
# 404 for it; every answer carries nosniff.
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
# The suite a handshake with port $1 settles on when the client offers only $2 (TLS 1.2 cipher names)
# or, with $3 = 1.3, only the TLS 1.3 suite $2; empty when the handshake fails.
negotiated() { # port, suite, [1.3]
  local offer=(-tls1_2 -cipher "$2:@SECLEVEL=0")
  [ "${3:-}" = 1.3 ] && offer=(-tls1_3 -ciphersuites "$2")
  openssl s_client -connect "127.0.0.1:$1" "${offer[@]}" < /dev/null 2> /dev/null |
    sed -nE 's/^New, [^,]+, Cipher is ([^ ]+)$/\1/p' | grep -vx '(NONE)'
}
intermediate="ECDHE-RSA-AES128-GCM-SHA256 ECDHE-RSA-AES256-GCM-SHA384 ECDHE-RSA-CHACHA20-POLY1305"
accepted=$(for suite in $(openssl ciphers -tls1_2 'ALL:COMPLEMENTOFALL:@SECLEVEL=0' | tr ':' '\n' | grep -v '^TLS_'); do
  [ "$(negotiated "$port" "$suite")" = "$suite" ] && echo "$suite"
done | sort | xargs)
tried=$(openssl ciphers -tls1_2 'ALL:COMPLEMENTOFALL:@SECLEVEL=0' | tr ':' '\n' | grep -vc '^TLS_')
check "of the $tried TLS 1.2 suites openssl knows, exactly Mozilla intermediate's for an RSA certificate are accepted: $accepted" \
  test "$accepted" = "$(tr ' ' '\n' <<< "$intermediate" | sort | xargs)"
check "a CBC-only TLS 1.2 client (ECDHE-RSA-AES128-SHA) is refused" test -z "$(negotiated "$port" ECDHE-RSA-AES128-SHA)"
check "an RSA key exchange TLS 1.2 client (AES128-GCM-SHA256) is refused" test -z "$(negotiated "$port" AES128-GCM-SHA256)"
check "a TLS 1.2 client with ECDHE-RSA-AES128-GCM-SHA256 is accepted" \
  test "$(negotiated "$port" ECDHE-RSA-AES128-GCM-SHA256)" = ECDHE-RSA-AES128-GCM-SHA256
for suite in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256; do
  check "a TLS 1.3 client with $suite is accepted" test "$(negotiated "$port" "$suite" 1.3)" = "$suite"
done
check "--health-check speaks HTTPS to an HTTPS port and says healthy" \
  bash -c "'$bin' --health-check --host 127.0.0.1 --port $port --tls-cert '$tmp/server.pem' --tls-key '$tmp/server.key' | grep -qx healthy"
check "... and plain HTTP to it is not taken for health" \
  bash -c "! '$bin' --health-check --host 127.0.0.1 --port $port > /dev/null"
check "a client without the CA refuses the certificate (it is not a public one)" bash -c "! curl -s '$https/healthz'"
check "every answer carries X-Content-Type-Options: nosniff" \
  bash -c "curl -s -D - -o /dev/null --cacert '$tmp/ca.pem' '$https/queens?n=4' | grep -qi '^x-content-type-options: nosniff'"

check "with --admin-port, /metrics answers on the admin port" \
  bash -c "curl -sf 'http://127.0.0.1:$admin_port/metrics' | grep -q '^puzzled_build_info'"
check "... and Prometheus's own parser (promtool check metrics) accepts the scrape" \
  bash -c "curl -sf 'http://127.0.0.1:$admin_port/metrics' | promtool check metrics"
check "... and the public port answers 404 for it" \
  bash -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' --cacert '$tmp/ca.pem' '$https/metrics')\" = 404"
check "... and the admin port serves nothing else" \
  bash -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' 'http://127.0.0.1:$admin_port/healthz')\" = 404"
kill "$server"
wait "$server"
check "it stops cleanly on SIGTERM (status $?)" test "$?" = 0
server=""

# Another profile through --tls-priorities: GnuTLS's NORMAL on TLS 1.2 offers CBC suites again.
"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key" \
  --tls-priorities 'NORMAL:-VERS-ALL:+VERS-TLS1.2' > "$tmp/normal.out" 2> "$tmp/normal.err" &
server=$!
for _ in $(seq 1 100); do grep -q '^listening on ' "$tmp/normal.out" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$tmp/normal.out")
check "--tls-priorities NORMAL:-VERS-ALL:+VERS-TLS1.2 accepts the CBC client the default refuses" \
  test -n "$url" -a "$(negotiated "${url##*:}" ECDHE-RSA-AES128-SHA)" = ECDHE-RSA-AES128-SHA
check "... and no TLS 1.3 client" test -n "$url" -a -z "$(negotiated "${url##*:}" TLS_AES_128_GCM_SHA256 1.3)"
kill "$server"
wait "$server"
server=""

# The TLS 1.3-only profile (docs/security.md): TLS 1.3 has no renegotiation, so testssl.sh's
# renegotiation checks find nothing to exploit, whatever the timing.
"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key" \
  --tls-priorities 'NORMAL:-VERS-ALL:+VERS-TLS1.3' > "$tmp/tls13.out" 2> "$tmp/tls13.err" &
server=$!
for _ in $(seq 1 100); do grep -q '^listening on ' "$tmp/tls13.out" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$tmp/tls13.out")
testssl --quiet --color 0 --warnings off -R "127.0.0.1:${url##*:}" > "$tmp/testssl" 2>&1
check "testssl -R on the TLS 1.3-only profile: secure renegotiation not vulnerable" \
  grep -Eq 'Secure Renegotiation \(RFC 5746\) +not vulnerable \(OK\)' "$tmp/testssl"
check "... and client-initiated renegotiation not vulnerable" \
  grep -Eq 'Secure Client-Initiated Renegotiation +not vulnerable \(OK\)' "$tmp/testssl"
kill "$server"
wait "$server"
server=""
"$bin" --host 127.0.0.1 --port 0 --tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key" \
  --tls-priorities 'NORMAL:+NO-SUCH-THING' > /dev/null 2> "$tmp/priorities"
status=$?
check "a priority string GnuTLS refuses stops the start (status $status) and says so" \
  bash -c "test $status -ne 0 && grep -q -- '--tls-priorities' '$tmp/priorities'"

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
