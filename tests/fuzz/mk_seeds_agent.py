#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Writes the seed corpora of the agent's fuzz targets (tests/fuzz/corpus-<target>/):
webconfig (--web.config.file: the configurations of tests/bats/rdmadiag_exporter_web.bats,
good and refused, naming the files fuzz_webconfig.c makes next to web.yml) and httpreq
("METHOD\\nURL\\nACCEPT": Prometheus's Accept headers of its scrape_protocols, curl's, q
weights, malformed ones).  Run from the top of the tree; rewrites the seeds it owns (seed-*),
keeps any other file (a crash reproducer kept as a fixture)."""
import glob
import os

# a bcrypt hash of "s3cret" (htpasswd -nbB -C 4): a seed only, no password of anything
HASH = "$2y$04$8LtLHcXPE/w/A3ESsauNyuegAVUiQoHndp.C9.zHe/nRWXG5eQpHK"
TLS = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"

WEBCONFIG = [
    "",
    "# nothing: plain HTTP\n",
    TLS,
    "basic_auth_users:\n  alice: %s\n" % HASH,
    'basic_auth_users:\n  alice: "%s"\n  bob: \'%s\'\n' % (HASH, HASH.replace("$2y", "$2b")),
    TLS + "  min_version: TLS13\n",
    TLS + "  min_version: TLS12\n  max_version: TLS12\n",
    TLS + "  min_version: TLS13\n  max_version: TLS12\n",
    TLS + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n",
    TLS + "  client_auth_type: NoClientCert\n",
    TLS + "  min_version: TLS13\n  client_auth_type: RequireAndVerifyClientCert\n"
    "  client_ca_file: ca.crt\nbasic_auth_users:\n  alice: %s\n" % HASH,
    TLS + "  colour: blue\n",
    TLS + "tls_config: {}\n",
    "http_server_config:\n  http2: false\n",
    "basic_auth_users:\n  alice: s3cret\n",
    'basic_auth_users:\n  alice: "%s"\n' % HASH[:-1],
    "tls_server_config:\n  cert_file: nothere.crt\n  key_file: server.key\n",
    TLS + "  min_version: TLS14\n",
    TLS + "  client_auth_type: RequireAnyClientCert\n",
    TLS + "  client_auth_type: RequireAndVerifyClientCert\n",
    "tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n",
    "tls_server_config:\n  cert_file: server.crt\n",
    "basic_auth_users: [alice]\n",
    'basic_auth_users:\n  alice: "%s"\n  alice: "%s"\n' % (HASH, HASH),
    "tls_server_config:\n  cert_file: [server.crt\n",
    "tls_server_config: {}\nbasic_auth_users: ~\n",
    "tls_server_config:\n  cert_file: /dev/null\n  key_file: server.key\n",
    "tls_server_config:\n  cert_file: .\n  key_file: server.key\n",
    "--- {}\n--- {}\n",
    "- a\n- b\n",
    "? [a, b]\n: c\n",
    "&a tls_server_config: *a\n",
    "basic_auth_users:\n  'al:ice': %s\n  '': %s\n" % (HASH, HASH),
    "basic_auth_users:\n  alice: \"a\\0b\"\n",
    "tls_server_config:\n  cert_file: !!binary c2VydmVyLmNydA==\n  key_file: server.key\n",
]

PROM_ACCEPT = [
    # Prometheus 2.x default (OpenMetrics 1.0.0, 0.0.1, then text 0.0.4)
    "application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;"
    "version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2",
    # Prometheus 3 with UTF-8 escaping
    "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,"
    "application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;"
    "escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1",
    # scrape_protocols: [PrometheusText0.0.4, OpenMetricsText1.0.0]
    "text/plain;version=0.0.4;q=0.5,application/openmetrics-text;version=1.0.0;q=0.4,*/*;q=0.3",
    "application/openmetrics-text; version=1.0.0",
    "*/*",
    "text/plain",
    "application/openmetrics-text;q=0",
    "application/openmetrics-text;q=0.000, text/plain",
    "APPLICATION/OpenMetrics-Text ; Q=1.000",
    "application/openmetrics-text;q=1.5",
    "application/openmetrics-text;q=0.1234",
    "application/openmetrics-text;q=",
    "application/openmetrics-text;q=.5,text/*;q=0.5",
    ",,;;q=1,application/openmetrics-text;;",
    "text/plain;q=0.5, application/openmetrics-text;q=0.5",
    "application/json",
    "",
]

REQUESTS = [("GET", "/metrics"), ("HEAD", "/metrics"), ("GET", "/healthz"), ("GET", "/"),
            ("POST", "/metrics"), ("OPTIONS", "*"), ("get", "/metrics"), ("GET", "/metrics/"),
            ("GET", "//metrics"), ("GET", "/favicon.ico"), ("GET", ""), ("BREW", "/healthz")]


def write(corpus, items):
    d = "tests/fuzz/corpus-%s" % corpus
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(d + "/seed-*"):
        os.unlink(f)
    for i, data in enumerate(items):
        with open("%s/seed-%02d" % (d, i), "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)


write("webconfig", WEBCONFIG + [b"basic_auth_users:\n  \xff\xfe: x\n", b"\x00\x01\x02"])
req = ["%s\n%s\n%s" % (m, u, PROM_ACCEPT[i % len(PROM_ACCEPT)]) for i, (m, u) in enumerate(REQUESTS)]
req += ["GET\n/metrics\n%s" % a for a in PROM_ACCEPT]
req += [b"GET\n/metrics\x00x\napplication/openmetrics-text\x00;q=0", b"GET", b"\n\n"]
write("httpreq", req)
