#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadiag_exporter --web.config.file (rdmadiag_exporter(8), WEB CONFIGURATION): TLS with a
# throwaway CA made here by openssl, TLS 1.3 only, client certificates, bcrypt basic auth
# (htpasswd), the file's errors, SIGHUP with a good and a broken file, a keep-alive
# connection across a SIGHUP, and a real Prometheus scraping over TLS with basic auth.
load helper
load wait
load agent

PY=/usr/bin/python3
# "... | web_config NAME" sets WC: the last command of a pipeline runs in this shell
shopt -s lastpipe

# the CA, a server certificate for 127.0.0.1, a client certificate from the CA and one from
# another CA, and two bcrypt hashes (cost 5: fast enough for a test)
setup_file() {
	command -v openssl > /dev/null || skip "openssl missing"
	command -v htpasswd > /dev/null || skip "htpasswd (apache2-utils) missing"
	local d=$BATS_FILE_TMPDIR n
	cd "$d"
	for n in ca server client rogue; do
		openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out $n.key 2> /dev/null
	done
	openssl req -x509 -key ca.key -out ca.crt -days 2 -subj /CN=rdmadiag-test-ca
	openssl req -new -key server.key -subj /CN=localhost |
		openssl x509 -req -CA ca.crt -CAkey ca.key -set_serial 2 -days 2 -out server.crt \
			-extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n') 2> /dev/null
	openssl req -new -key client.key -subj /CN=prometheus |
		openssl x509 -req -CA ca.crt -CAkey ca.key -set_serial 3 -days 2 -out client.crt \
			-extfile <(printf 'extendedKeyUsage=clientAuth\n') 2> /dev/null
	# a certificate of the CA for servers only: not for a client
	openssl req -new -key client.key -subj /CN=server-only |
		openssl x509 -req -CA ca.crt -CAkey ca.key -set_serial 4 -days 2 -out srvonly.crt \
			-extfile <(printf 'extendedKeyUsage=serverAuth\n') 2> /dev/null
	openssl req -x509 -key rogue.key -out rogue.crt -days 2 -subj /CN=rogue \
		-addext extendedKeyUsage=clientAuth
	htpasswd -nbB -C 5 alice s3cret | cut -d: -f2 | tr -d '\n' > alice.hash
	htpasswd -nbB -C 5 alice n3w-pass | cut -d: -f2 | tr -d '\n' > alice2.hash
}

teardown() {
	stop_agent
	[ -z "${PROM_PID:-}" ] || { kill "$PROM_PID" 2> /dev/null; wait "$PROM_PID" || :; }
}

# web_config NAME: stdin into BATS_TEST_TMPDIR/NAME.yml, the certificates next to it
web_config() {
	local d=$BATS_TEST_TMPDIR
	cp -n "$BATS_FILE_TMPDIR"/*.crt "$BATS_FILE_TMPDIR"/*.key "$d"/
	cat > "$d/$1.yml"
	WC="$d/$1.yml"
}

# https to the agent with the test CA
sget() { curl -sS --max-time 20 --cacert "$BATS_TEST_TMPDIR/ca.crt" "$@"; }
code() { sget -o /dev/null -w '%{http_code}' "$@"; }

# the agent with the web config file; relative names are found from the file's directory
start_web() {
	start_agent --sysfs-root="$FIX/sysfs/rxe" --no-collector.resources \
		--no-collector.connections --web.config.file="$WC" "$@"
}

# SIGHUP and wait for the log line that answers it (reloaded, or the error)
hup() {
	local n
	n=$(grep -c 'SIGHUP' "$AG_LOG" || :)
	kill -HUP "$AG_PID"
	wait_until 10 "the SIGHUP log line" has_sighup $((n + 1))
}
has_sighup() { [ "$(grep -c 'SIGHUP' "$AG_LOG" || :)" -ge "$1" ]; }

tls_yml() {
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n'
}

# auth_yml HASHFILE: TLS and the user alice with the hash in BATS_FILE_TMPDIR/HASHFILE
auth_yml() {
	tls_yml
	printf 'basic_auth_users:\n  alice: %s\n' "$(cat "$BATS_FILE_TMPDIR/$1")"
}

@test "TLS: https with the CA serves, plain http to the TLS port and an unknown CA fail" {
	tls_yml | web_config tls
	start_web
	grep -q "info: web config '$WC': TLS 1.2 and 1.3, no basic auth" "$AG_LOG"
	run sget -w ' %{http_code}' "https://$AG_ADDR/healthz"
	assert_output "ok
 200"
	run code "https://$AG_ADDR/metrics"
	assert_output 200
	run sget "https://$AG_ADDR/metrics"
	assert_line --partial 'rdma_port_info{device="rxe0"'
	run curl -sS --max-time 10 -o /dev/null "http://$AG_ADDR/metrics"
	[ "$status" -ne 0 ] || fail "plain http to the TLS port answered: $output"
	run curl -sS --max-time 10 -o /dev/null "https://$AG_ADDR/metrics"
	[ "$status" -eq 60 ] || fail "curl without the CA: status $status, $output"
	# TLS 1.2 is still on by default
	run code --tls-max 1.2 "https://$AG_ADDR/healthz"
	assert_output 200
}

@test "basic auth: the password 200, a wrong one or none 401 with WWW-Authenticate, /healthz open" {
	auth_yml alice.hash | web_config auth
	start_web
	grep -q "TLS 1.2 and 1.3, basic auth (1 user)" "$AG_LOG"
	run code -u alice:s3cret "https://$AG_ADDR/metrics"
	assert_output 200
	# the second time from the cache (the same answer)
	run code -u alice:s3cret "https://$AG_ADDR/"
	assert_output 200
	run sget -D - -o /dev/null -u alice:wrong "https://$AG_ADDR/metrics"
	assert_line --partial 'HTTP/1.1 401'
	assert_line --regexp '^WWW-Authenticate: Basic realm="rdmadiag_exporter"'
	run code -u bob:s3cret "https://$AG_ADDR/metrics"
	assert_output 401
	run sget -D - -o /dev/null "https://$AG_ADDR/metrics"
	assert_line --partial 'HTTP/1.1 401'
	assert_line --regexp '^WWW-Authenticate: Basic realm="rdmadiag_exporter"'
	run code "https://$AG_ADDR/"
	assert_output 401
	# probes need no secret
	run code "https://$AG_ADDR/healthz"
	assert_output 200
	# a wrong password after a right one is still wrong (the cache holds the right one)
	run code -u alice:s3cretX "https://$AG_ADDR/metrics"
	assert_output 401
}

@test "basic auth over plain HTTP: the password 200, none 401" {
	printf 'basic_auth_users:\n  alice: "%s"\n' "$(cat "$BATS_FILE_TMPDIR/alice.hash")" |
		web_config plain
	start_web
	run curl -sS -o /dev/null -w '%{http_code}' -u alice:s3cret "$AG_URL/metrics"
	assert_output 200
	run curl -sS -o /dev/null -w '%{http_code}' "$AG_URL/metrics"
	assert_output 401
}

@test "min_version TLS13: curl --tls-max 1.2 refused, TLS 1.3 served" {
	{ tls_yml; printf '  min_version: TLS13\n'; } | web_config tls13
	start_web
	grep -q "TLS 1.3, no basic auth" "$AG_LOG"
	run code --tls-max 1.2 "https://$AG_ADDR/healthz"
	[ "$status" -ne 0 ] || fail "TLS 1.2 accepted: $output"
	run sget -w '%{http_code}' -o /dev/null --tlsv1.3 "https://$AG_ADDR/healthz"
	assert_output 200
}

@test "RequireAndVerifyClientCert: no certificate, another CA's or a server's 403, the CA's 200, /healthz open" {
	{ tls_yml; printf '  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n'; } |
		web_config mtls
	start_web
	grep -q "TLS 1.2 and 1.3 with client certificates, no basic auth" "$AG_LOG"
	local d=$BATS_TEST_TMPDIR
	run code "https://$AG_ADDR/metrics"
	assert_output 403
	run code --cert "$d/rogue.crt" --key "$d/rogue.key" "https://$AG_ADDR/metrics"
	assert_output 403
	run code --cert "$d/srvonly.crt" --key "$d/client.key" "https://$AG_ADDR/metrics"
	assert_output 403
	run code --cert "$d/client.crt" --key "$d/client.key" "https://$AG_ADDR/metrics"
	assert_output 200
	run code --tls-max 1.2 --cert "$d/client.crt" --key "$d/client.key" "https://$AG_ADDR/"
	assert_output 200
	run code "https://$AG_ADDR/healthz"
	assert_output 200
}

# bad_config WANT: the agent with WC exits 2 with the one line WANT (a regex), never listens
bad_config() {
	run --separate-stderr rdmadiag_exporter --web.listen-address=127.0.0.1:0 \
		--sysfs-root="$FIX/sysfs/rxe" --web.config.file="$WC"
	[ "$status" -eq 2 ] || fail "exit $status, stderr: $stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "not one line: $stderr"
	assert_regex "$stderr" "^rdmadiag_exporter: $1\$"
}

@test "config errors: exit 2 and one line naming the key, value or file" {
	local h
	h=$(cat "$BATS_FILE_TMPDIR/alice.hash")
	{ tls_yml; printf '  colour: blue\n'; } | web_config e1
	bad_config "web config '.*/e1.yml': line 4: tls_server_config: unknown key 'colour'"
	{ tls_yml; printf 'tls_config: {}\n'; } | web_config e2
	bad_config "web config '.*/e2.yml': line 4: unknown key 'tls_config'"
	printf 'http_server_config:\n  http2: false\n' | web_config e3
	bad_config "web config '.*': line 1: 'http_server_config' is not supported by rdmadiag_exporter"
	printf 'basic_auth_users:\n  alice: s3cret\n' | web_config e4
	bad_config "web config '.*': line 2: basic_auth_users: user 'alice': the password is not a bcrypt hash .*"
	printf 'basic_auth_users:\n  alice: "%s"\n' "${h%?}" | web_config e5
	bad_config "web config '.*': line 2: basic_auth_users: user 'alice': the password is not a bcrypt hash .*"
	printf 'tls_server_config:\n  cert_file: nothere.crt\n  key_file: server.key\n' | web_config e6
	bad_config "web config '.*': line 2: cannot read cert_file '$BATS_TEST_TMPDIR/nothere.crt': No such file or directory"
	{ tls_yml; printf '  min_version: TLS14\n'; } | web_config e7
	bad_config "web config '.*': line 4: min_version: invalid value 'TLS14': want TLS12 or TLS13"
	{ tls_yml; printf '  client_auth_type: RequireAnyClientCert\n'; } | web_config e8
	bad_config "web config '.*': line 4: client_auth_type: 'RequireAnyClientCert' is not supported by rdmadiag_exporter: want NoClientCert or RequireAndVerifyClientCert"
	{ tls_yml; printf '  client_auth_type: RequireAndVerifyClientCert\n'; } | web_config e9
	bad_config "web config '.*': line 4: client_auth_type: RequireAndVerifyClientCert needs client_ca_file"
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: client.key\n' | web_config e10
	bad_config "web config '.*': cert_file '.*/server.crt' and key_file '.*/client.key': .*"
	printf 'tls_server_config:\n  cert_file: server.crt\n' | web_config e11
	bad_config "web config '.*': line 2: tls_server_config: key_file missing"
	printf 'basic_auth_users: [alice]\n' | web_config e12
	bad_config "web config '.*': line 1: basic_auth_users: want a mapping of user: bcrypt hash"
	printf 'basic_auth_users:\n  alice: "%s"\n  alice: "%s"\n' "$h" "$h" | web_config e13
	bad_config "web config '.*': line 3: basic_auth_users: 'alice' given twice"
	printf 'tls_server_config:\n  cert_file: [server.crt\n' | web_config e14
	bad_config "web config '.*': line [0-9]+: .*"
	WC=$BATS_TEST_TMPDIR/none.yml
	bad_config "cannot read web config '.*/none.yml': No such file or directory"
	# a value with a line break (a blank line folds to one in a plain scalar; "\n" in
	# quotes) or a control byte: still one line, escaped (fuzz_webconfig found it)
	printf 'tls_server_config:\n  cert_file: server\n\n    .crt\n  key_file: server.key\n' |
		web_config e15
	bad_config "web config '.*': line 2: cannot read cert_file '.*/server\\\\n\\.crt': No such file or directory"
	printf 'basic_auth_users:\n  "al\\nice\\e[2J": x\n' | web_config e16
	bad_config "web config '.*': line 2: basic_auth_users: user 'al\\\\nice\\\\033\\[2J': the password is not a bcrypt hash .*"
}

@test "a key file readable by others: one warning line, and it serves" {
	tls_yml | web_config perm
	chmod 0644 "$BATS_TEST_TMPDIR/server.key"
	start_web
	run grep -c 'readable by others' "$AG_LOG"
	assert_output 1
	assert_regex "$(grep 'readable by others' "$AG_LOG")" \
		"^rdmadiag_exporter: warn: web config '.*': key_file '.*/server.key' is readable by others \(mode 0644\)$"
	run code "https://$AG_ADDR/healthz"
	assert_output 200
}

@test "SIGHUP with a changed password: the old one 401, the new one 200" {
	auth_yml alice.hash | web_config hup
	start_web
	run code -u alice:s3cret "https://$AG_ADDR/metrics"
	assert_output 200
	auth_yml alice2.hash | web_config hup
	hup
	grep -q "info: SIGHUP: web config '$WC' reloaded: TLS 1.2 and 1.3, basic auth (1 user)" "$AG_LOG"
	run code -u alice:s3cret "https://$AG_ADDR/metrics"
	assert_output 401
	run code -u alice:n3w-pass "https://$AG_ADDR/metrics"
	assert_output 200
}

@test "SIGHUP with a broken file: one error line, the old settings still serve" {
	auth_yml alice.hash | web_config hup
	start_web
	{ tls_yml; printf 'basic_auth_users:\n  alice: plain\n'; } | web_config hup
	hup
	run grep 'SIGHUP' "$AG_LOG"
	assert_output --regexp "^rdmadiag_exporter: error: SIGHUP: web config '.*/hup.yml': line 5: basic_auth_users: user 'alice': the password is not a bcrypt hash .*; the previous web config stays$"
	run code -u alice:s3cret "https://$AG_ADDR/metrics"
	assert_output 200
	run code -u alice:plain "https://$AG_ADDR/metrics"
	assert_output 401
	rm "$WC"
	hup
	run grep -c 'error: SIGHUP: cannot read web config' "$AG_LOG"
	assert_output 1
	run code -u alice:s3cret "https://$AG_ADDR/metrics"
	assert_output 200
}

@test "SIGHUP: a keep-alive connection opened before it is answered, then closed; no cut" {
	tls_yml | web_config ka
	start_web --log.level=debug
	# one connection: a request, SIGHUP (the log line awaited), a second request on it
	run $PY - "$AG_ADDR" "$BATS_TEST_TMPDIR/ca.crt" "$AG_PID" "$AG_LOG" <<'PYEOF'
import http.client, os, signal, ssl, sys, time
host, port = sys.argv[1].rsplit(":", 1)
ctx = ssl.create_default_context(cafile=sys.argv[2])
c = http.client.HTTPSConnection(host, int(port), context=ctx, timeout=20)
c.request("GET", "/metrics"); r = c.getresponse(); body = r.read()
print("first", r.status, r.getheader("Connection"))
os.kill(int(sys.argv[3]), signal.SIGHUP)
for _ in range(200):
    if "reloaded" in open(sys.argv[4]).read(): break
    time.sleep(0.05)
c.request("GET", "/metrics"); r = c.getresponse(); body = r.read()
print("second", r.status, r.getheader("Connection"), b"rdma_port_info" in body)
PYEOF
	assert_line 'first 200 None'
	assert_line 'second 200 close True'
	# the replaced server stops once that connection is gone
	wait_until 15 "the previous server to stop" \
		grep -q 'debug: the previous HTTP server stopped (0 connections)' "$AG_LOG"
	# and the new server answers new connections
	run code "https://$AG_ADDR/healthz"
	assert_output 200
}

@test "a real Prometheus scrapes it over TLS 1.3 with a client certificate and basic auth" {
	command -v prometheus > /dev/null || skip "prometheus missing"
	{ tls_yml; printf '  min_version: TLS13\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n';
	  printf 'basic_auth_users:\n  alice: %s\n' "$(cat "$BATS_FILE_TMPDIR/alice.hash")"; } |
		web_config prom
	start_web
	local d=$BATS_TEST_TMPDIR/prom t=$BATS_TEST_TMPDIR
	mkdir -p "$d"
	cat > "$d/prometheus.yml" <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: rdma
    scheme: https
    tls_config: { ca_file: $t/ca.crt, cert_file: $t/client.crt, key_file: $t/client.key }
    basic_auth: { username: alice, password: s3cret }
    static_configs: [ { targets: ['$AG_ADDR'] } ]
  - job_name: nopass
    scheme: https
    tls_config: { ca_file: $t/ca.crt, cert_file: $t/client.crt, key_file: $t/client.key }
    static_configs: [ { targets: ['$AG_ADDR'] } ]
YML
	start_prometheus "$d"
	wait_until 60 "Prometheus to scrape the agent (up == 1)" prom_up rdma
	run prom_query 'rdma_port_info{job="rdma",device="rxe0"}'
	assert_output --partial '"driver":"rxe"'
	# the job without the password is down
	nopass_down() { prom_query 'up{job="nopass"}' | grep -q '"value":\[[0-9.]*,"0"\]'; }
	wait_until 30 "Prometheus to scrape the job without a password (up == 0)" nopass_down
}
