#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gputop serve --web-config on the fake 8x H100: TLS with a self-signed
# certificate made here by openssl (curl trusts it through --cacert, and
# refuses it without), plain HTTP to the TLS port fails, basic auth with a
# bcrypt hash made here through libcrypt: the right password 200, a wrong
# one, an unknown user and none 401 with WWW-Authenticate; TLS alone and
# auth alone; a bad file, a key that is not the certificate's and an
# unsupported option are refused with the cause.
set -u
. "$(dirname "$0")/export_lib.sh"
need openssl curl python3
export GPUTOP_FAKE_NVML_SCENARIO=$scn_dir/h100x8.scn

# bcrypt HASH of a password (cost 5: quick to check in a test).
bcrypt() {
	python3 - "$1" <<'PY'
import ctypes, sys
c = ctypes.CDLL("libcrypt.so.1")
c.crypt_gensalt.restype = ctypes.c_char_p
c.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int]
c.crypt.restype = ctypes.c_char_p
c.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
print(c.crypt(sys.argv[1].encode(), c.crypt_gensalt(b"$2b$", 5, None, 0)).decode())
PY
}
cert() { # NAME: NAME.crt and NAME.key for 127.0.0.1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
		-nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 \
		-keyout "$tmp/$1.key" -out "$tmp/$1.crt" 2>"$tmp/openssl.log"
}
if ! cert server || ! cert other; then
	fail "openssl could not make a certificate: $(cat "$tmp/openssl.log")"
	finish
fi
hash=$(bcrypt 's3cret pass') || { fail "no bcrypt hash: $hash"; finish; }
code() { curl -s -o "$tmp/body" -D "$tmp/h" -w '%{http_code}' "$@"; }

# TLS and basic auth; paths relative to the config file.
cat >"$tmp/web.yml" <<EOF
# gputop web config
tls_server_config:
  cert_file: server.crt
  key_file: server.key
basic_auth_users:
  prometheus: $hash
EOF
start_serve "$tmp/s.log" --listen 127.0.0.1:0 --web-config "$tmp/web.yml" || finish
https=https://$addr
if grep -q "^gputop: serving https://$addr/metrics$" "$tmp/s.log" &&
	[ "$(code --cacert "$tmp/server.crt" "$https/-/ready")" = 401 ]; then
	pass "serving https://$addr; /-/ready without credentials: 401"
else
	fail "no https: $(cat "$tmp/s.log")"
fi
ok=$(code --cacert "$tmp/server.crt" -u 'prometheus:s3cret pass' "$https/metrics")
if [ "$ok" = 200 ] && grep -q '^gputop_up 1$' "$tmp/body"; then
	pass "https with --cacert and the right password: 200 and the metrics"
else
	fail "right password: $ok $(head -c 300 "$tmp/body")"
fi
for c in "-u prometheus:wrong" "-u nobody:s3cret pass" ""; do
	got=$(code --cacert "$tmp/server.crt" ${c:+"${c%% *}"} ${c:+"${c#* }"} "$https/metrics")
	if [ "$got" = 401 ] && grep -qi '^WWW-Authenticate: Basic realm="gputop"' "$tmp/h" &&
		! grep -q '^gputop_' "$tmp/body"; then
		pass "${c:-no credentials}: 401 with WWW-Authenticate, no metrics"
	else
		fail "${c:-no credentials}: $got $(cat "$tmp/h")"
	fi
done
got=$(code --cacert "$tmp/server.crt" -X POST -u 'prometheus:s3cret pass' "$https/metrics")
[ "$got" = 405 ] && pass "POST with the right password: still 405" ||
	fail "POST: $got"
curl -s -o /dev/null "$https/metrics" -u 'prometheus:s3cret pass'
rc=$?
[ "$rc" = 60 ] && pass "without --cacert curl refuses the self-signed certificate (curl exit 60)" ||
	fail "without --cacert: curl exit $rc"
got=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -u 'prometheus:s3cret pass' "http://$addr/metrics")
rc=$?
[ "$rc" != 0 ] && [ "$got" != 200 ] &&
	pass "plain http to the TLS port fails (curl exit $rc, status $got)" ||
	fail "plain http to the TLS port: exit $rc, status $got"
code --cacert "$tmp/server.crt" -u 'prometheus:s3cret pass' "$https/metrics" >/dev/null
if grep -q '^gputop_http_requests_total{code="401"} [1-9]' "$tmp/body"; then
	pass "401s counted: $(grep 'code="401"' "$tmp/body")"
else
	fail "401 not counted: $(grep http_requests "$tmp/body")"
fi
stop "$srv_pid"
[ "$stop_rc" = 0 ] && pass "SIGTERM: exit 0" || fail "exit status $stop_rc"

# TLS alone: no credentials asked.
printf 'tls_server_config:\n  cert_file: %s\n  key_file: "%s"\n' \
	"$tmp/server.crt" "$tmp/server.key" >"$tmp/tls.yml"
start_serve "$tmp/t.log" --listen 127.0.0.1:0 --web-config "$tmp/tls.yml" || finish
got=$(code --cacert "$tmp/server.crt" "https://$addr/metrics")
[ "$got" = 200 ] && pass "TLS without basic_auth_users: 200 without credentials" ||
	fail "TLS alone: $got"
stop "$srv_pid"

# Basic auth alone, over plain HTTP.
printf 'basic_auth_users:\n  "prometheus": %s\n' "$hash" >"$tmp/auth.yml"
start_serve "$tmp/a.log" --listen 127.0.0.1:0 --web-config "$tmp/auth.yml" || finish
a=$(code -u 'prometheus:s3cret pass' "http://$addr/metrics")
b=$(code "http://$addr/-/healthy")
[ "$a" = 200 ] && [ "$b" = 401 ] &&
	pass "basic auth without TLS: right password 200, none 401" ||
	fail "auth alone: $a $b"
stop "$srv_pid"

# Refused files: the cause in the message, exit 1, nothing listening.
refused() { # FILE WANT
	local out
	out=$("$bin" --nvml-lib "$lib" --sysfs "$nosys" serve \
		--listen 127.0.0.1:0 --web-config "$1" 2>&1)
	local rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$2" <<<"$out"; then
		pass "refused: $out"
	else
		fail "$1: exit $rc: $out (wanted $2)"
	fi
}
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n' >"$tmp/mix.yml"
refused "$tmp/mix.yml" "TLS could not start"
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS13\n' >"$tmp/min.yml"
refused "$tmp/min.yml" "line 4: 'min_version' under tls_server_config is not supported"
printf 'basic_auth_users:\n  prometheus: s3cret\n' >"$tmp/plain.yml"
refused "$tmp/plain.yml" "line 2: the hash of user 'prometheus' is not a bcrypt hash"
refused "$tmp/none.yml" "none.yml: No such file"
out=$("$bin" --web-config "$tmp/web.yml" --json --count 1 2>&1)
[ $? = 2 ] && grep -q -- "--web-config goes with serve or --listen" <<<"$out" &&
	pass "usage: $out" || fail "--web-config with --json: $out"
finish
