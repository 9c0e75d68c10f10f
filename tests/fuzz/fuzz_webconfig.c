/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the agent's --web.config.file reader (tools/rdmadiag_exporter/webconfig.c,
 * libyaml), which an operator writes and SIGHUP reads again while the agent serves.
 *
 * Input: the file's bytes, written to web.yml in a directory made once per process, next to a
 * key pair and a self-signed certificate made there by GnuTLS (server.key, server.crt, and
 * ca.crt the same certificate; other.key a key of another pair), so that a configuration
 * naming them reaches the TLS checks.  Invariants: 0 with a configuration, or -1 with one
 * line that names the file; TLS has its certificate, key and their paths, and a priority
 * string; client certificates only with TLS and a CA, a CA only with them; versions 12 or 13
 * (or 0), the lower not above the higher; each user named (no ':') with a 60-character bcrypt
 * hash; the description fits its buffer. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

/* the reader's source itself: its users' fields and is_bcrypt are static */
#include "rdmadiag_exporter/webconfig.c"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char wdir[64], cfg[96];

static void put(const char *name, const void *buf, size_t len)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", wdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0 && write(fd, buf, len) == (ssize_t)len);
	close(fd);
}

static void put_key(const char *name, gnutls_x509_privkey_t k)
{
	char buf[4096];
	size_t len = sizeof(buf);

	CHECK(gnutls_x509_privkey_export(k, GNUTLS_X509_FMT_PEM, buf, &len) == 0);
	put(name, buf, len);
}

static void cleanup(void)
{
	static const char *const names[] = { "web.yml", "server.key", "other.key", "server.crt",
					      "ca.crt" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", wdir, names[i]);
		unlink(path);
	}
	rmdir(wdir);
}

/* the directory and its key pairs and certificate (ECDSA P-256, valid for a day) */
static void setup(void)
{
	gnutls_x509_privkey_t k, other;
	gnutls_x509_crt_t c;
	unsigned char serial = 1;
	char buf[4096];
	size_t len = sizeof(buf);
	time_t now = time(NULL);

	snprintf(wdir, sizeof(wdir), "/tmp/rdiag-fuzz-webcfg-XXXXXX");
	CHECK(mkdtemp(wdir));
	snprintf(cfg, sizeof(cfg), "%s/web.yml", wdir);
	atexit(cleanup);
	agent_log_level = LOG_ERROR;	/* no warning per input */
	CHECK(gnutls_x509_privkey_init(&k) == 0 && gnutls_x509_privkey_init(&other) == 0);
	CHECK(gnutls_x509_privkey_generate(k, GNUTLS_PK_ECDSA,
					   GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0) == 0);
	CHECK(gnutls_x509_privkey_generate(other, GNUTLS_PK_ECDSA,
					   GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0) == 0);
	CHECK(gnutls_x509_crt_init(&c) == 0);
	CHECK(gnutls_x509_crt_set_version(c, 3) == 0);
	CHECK(gnutls_x509_crt_set_serial(c, &serial, 1) == 0);
	CHECK(gnutls_x509_crt_set_activation_time(c, now - 60) == 0);
	CHECK(gnutls_x509_crt_set_expiration_time(c, now + 86400) == 0);
	CHECK(gnutls_x509_crt_set_dn(c, "CN=rdmadiag-fuzz", NULL) == 0);
	CHECK(gnutls_x509_crt_set_key(c, k) == 0);
	CHECK(gnutls_x509_crt_set_ca_status(c, 1) == 0);
	CHECK(gnutls_x509_crt_sign2(c, c, k, GNUTLS_DIG_SHA256, 0) == 0);
	CHECK(gnutls_x509_crt_export(c, GNUTLS_X509_FMT_PEM, buf, &len) == 0);
	put("server.crt", buf, len);
	put("ca.crt", buf, len);
	put_key("server.key", k);
	put_key("other.key", other);
	gnutls_x509_crt_deinit(c);
	gnutls_x509_privkey_deinit(k);
	gnutls_x509_privkey_deinit(other);
}

static bool one_line_about(const char *err)
{
	return err[0] && !strchr(err, '\n') &&
	       (!strncmp(err, "web config '", 12) || !strncmp(err, "cannot read web config '", 24) ||
		!strcmp(err, "out of memory"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agent_webcfg *wc = (void *)1;
	char err[512], desc[128];
	size_t i;
	int r;

	if (size > 65536)
		return 0;
	if (!wdir[0])
		setup();
	put("web.yml", data, size);
	err[0] = '\0';
	r = agent_webcfg_load(cfg, &wc, err, sizeof(err));
	CHECK(r == 0 || r == -1);
	if (r < 0) {
		CHECK(wc == NULL && one_line_about(err));
		return 0;
	}
	CHECK(wc && wc->path && !strcmp(wc->path, cfg));
	if (wc->tls) {
		CHECK(wc->cert_pem && wc->key_pem && wc->cert_path && wc->key_path);
		CHECK(wc->priorities[0] && strlen(wc->priorities) < sizeof(wc->priorities));
	} else {
		CHECK(!wc->cert_pem && !wc->key_pem && !wc->verify_client);
	}
	CHECK(wc->verify_client == (wc->ca_pem != NULL));
	CHECK(!wc->verify_client || wc->ca_path);
	CHECK(wc->min_version == 0 || wc->min_version == 12 || wc->min_version == 13);
	CHECK(wc->max_version == 0 || wc->max_version == 12 || wc->max_version == 13);
	CHECK(!wc->min_version || !wc->max_version || wc->min_version <= wc->max_version);
	for (i = 0; i < wc->nusers; i++) {
		const struct agent_user *u = &wc->users[i];

		CHECK(u->name && u->name[0] && !strchr(u->name, ':') && !u->cached);
		CHECK(u->hash && strlen(u->hash) == 60 && is_bcrypt(u->hash));
	}
	agent_webcfg_describe(wc, desc, sizeof(desc));
	CHECK(desc[0] && strlen(desc) < sizeof(desc));
	agent_webcfg_free(wc);
	return 0;
}
