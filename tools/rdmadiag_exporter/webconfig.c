/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* --web.config.file: the web configuration file Prometheus exporters share
 * (prometheus/exporter-toolkit's docs/web-configuration.md), read with libyaml.  The subset
 * the agent serves: tls_server_config's cert_file, key_file, client_auth_type (NoClientCert,
 * RequireAndVerifyClientCert), client_ca_file, min_version and max_version (TLS12, TLS13),
 * and basic_auth_users (user: bcrypt hash).  Any other key, and any other value, is refused
 * with one line naming it and its line in the file: a setting silently ignored would leave
 * an operator believing in a protection that is not there.  Relative file names are taken
 * from the configuration file's directory, as exporter-toolkit does.
 *
 * The passwords: bcrypt ($2a$, $2b$, $2y$) through libxcrypt's crypt_rn, compared in
 * constant time.  bcrypt is slow on purpose (cost 10: some 70 ms), so the last password that
 * matched is remembered per user as SHA-256(password, hash), never the password itself. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <crypt.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <yaml.h>

#include "common/esc.h"
#include "agent.h"

#define FILE_MAX (1 << 20)	/* bytes: a PEM file or the configuration itself */
#define DIGEST_LEN 32		/* bytes of SHA-256 */

struct agent_user {
	char *name;
	char *hash;
	pthread_mutex_t lock;
	bool cached;
	unsigned char digest[DIGEST_LEN];	/* SHA-256(password, hash) that last matched */
};

/* the error of a load: "web config 'FILE': [line N: ]what" */
struct ld {
	const char *path;
	char *err;
	size_t errlen;
	char dir[PATH_MAX];
};

__attribute__((format(printf, 3, 4)))
static int fail(struct ld *ld, const yaml_node_t *n, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (n)
		snprintf(ld->err, ld->errlen, "web config '%s': line %zu: %s", ld->path,
			 (size_t)n->start_mark.line + 1, what);
	else
		snprintf(ld->err, ld->errlen, "web config '%s': %s", ld->path, what);
	return -1;
}

/* a whole file, NUL-terminated, into a malloc'ed buffer; NULL and errno */
static char *slurp(const char *path, size_t *lenp)
{
	struct stat st;
	char *buf;
	ssize_t r;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return NULL;
	errno = 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
		e = errno;
		if (!e)
			e = S_ISDIR(st.st_mode) ? EISDIR : S_ISREG(st.st_mode) ? EFBIG : EINVAL;
		close(fd);
		errno = e;
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	while (len < (size_t)st.st_size) {
		r = read(fd, buf + len, (size_t)st.st_size - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

static bool is_null(const yaml_node_t *v)
{
	const char *s = (const char *)v->data.scalar.value;

	if (v->type != YAML_SCALAR_NODE || v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* the scalar value of key (named for the errors) or NULL after an error */
static const char *scalar(struct ld *ld, const yaml_node_t *v, const char *key)
{
	if (v->type != YAML_SCALAR_NODE) {
		fail(ld, v, "%s: want a single value, not a list or a mapping", key);
		return NULL;
	}
	if (!v->data.scalar.length || is_null(v)) {
		fail(ld, v, "%s: empty value", key);
		return NULL;
	}
	if (strlen((const char *)v->data.scalar.value) != v->data.scalar.length) {
		fail(ld, v, "%s: a NUL byte in the value", key);
		return NULL;
	}
	return (const char *)v->data.scalar.value;
}

/* a file the configuration names, relative to the configuration's directory */
static char *read_named(struct ld *ld, const yaml_node_t *v, const char *key, char **pathp)
{
	const char *name = scalar(ld, v, key);
	char path[PATH_MAX];
	char *buf;
	int n;

	if (!name)
		return NULL;
	if (name[0] == '/')
		n = snprintf(path, sizeof(path), "%s", name);
	else
		n = snprintf(path, sizeof(path), "%s/%s", ld->dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		fail(ld, v, "%s: the file name is too long", key);
		return NULL;
	}
	buf = slurp(path, NULL);
	if (!buf) {
		fail(ld, v, "cannot read %s '%s': %s", key, path, strerror(errno));
		return NULL;
	}
	*pathp = strdup(path);
	if (!*pathp) {
		free(buf);
		fail(ld, v, "out of memory");
		return NULL;
	}
	return buf;
}

/* "TLS12" -> 12, "TLS13" -> 13; -1 after an error */
static int tls_version(struct ld *ld, const yaml_node_t *v, const char *key)
{
	const char *s = scalar(ld, v, key);

	if (!s)
		return -1;
	if (!strcmp(s, "TLS12"))
		return 12;
	if (!strcmp(s, "TLS13"))
		return 13;
	if (!strcmp(s, "TLS10") || !strcmp(s, "TLS11"))
		return fail(ld, v, "%s: '%s' is not supported (the agent speaks TLS 1.2 and 1.3)",
			    key, s);
	return fail(ld, v, "%s: invalid value '%s': want TLS12 or TLS13", key, s);
}

/* a mapping's keys once each: the duplicate's name, or NULL */
static bool dup_key(struct ld *ld, yaml_document_t *doc, const yaml_node_t *map,
		    const yaml_node_pair_t *upto, const char *key, const char *where)
{
	const yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < upto; p++) {
		const yaml_node_t *k = yaml_document_get_node(doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key)) {
			fail(ld, yaml_document_get_node(doc, upto->key), "%s'%s' given twice",
			     where, key);
			return true;
		}
	}
	return false;
}

/* the key of pair p of a mapping, checked: NULL after an error */
static const char *map_key(struct ld *ld, yaml_document_t *doc, const yaml_node_t *map,
			   const yaml_node_pair_t *p, const char *where)
{
	const yaml_node_t *k = yaml_document_get_node(doc, p->key);
	const char *key;

	if (!k || k->type != YAML_SCALAR_NODE) {
		fail(ld, k ? k : map, "%sa key that is not a string", where);
		return NULL;
	}
	key = (const char *)k->data.scalar.value;
	if (dup_key(ld, doc, map, p, key, where))
		return NULL;
	return key;
}

/* keys of the format that the agent does not implement: refused, said as such */
static bool known_elsewhere(const char *key)
{
	static const char *const keys[] = {
		"cert", "key", "client_ca", "client_allowed_sans", "cipher_suites",
		"prefer_server_cipher_suites", "curve_preferences", "http_server_config",
		"rate_limit",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

static int refuse_key(struct ld *ld, const yaml_node_t *k, const char *key, const char *where)
{
	if (known_elsewhere(key))
		return fail(ld, k, "%s'%s' is not supported by rdmadiag_exporter", where, key);
	return fail(ld, k, "%sunknown key '%s'", where, key);
}

static int parse_tls(struct ld *ld, yaml_document_t *doc, const yaml_node_t *map,
		     struct agent_webcfg *wc)
{
	static const char where[] = "tls_server_config: ";
	const yaml_node_pair_t *p;
	const yaml_node_t *cert_n = NULL, *key_n = NULL, *ca_n = NULL, *auth_n = NULL;
	const char *key, *s;

	if (is_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return fail(ld, map, "tls_server_config: want a mapping");
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const yaml_node_t *v = yaml_document_get_node(doc, p->value);

		key = map_key(ld, doc, map, p, where);
		if (!key)
			return -1;
		if (!strcmp(key, "cert_file")) {
			cert_n = v;
		} else if (!strcmp(key, "key_file")) {
			key_n = v;
		} else if (!strcmp(key, "client_ca_file")) {
			ca_n = v;
		} else if (!strcmp(key, "client_auth_type")) {
			auth_n = v;
		} else if (!strcmp(key, "min_version")) {
			wc->min_version = tls_version(ld, v, "min_version");
			if (wc->min_version < 0)
				return -1;
		} else if (!strcmp(key, "max_version")) {
			wc->max_version = tls_version(ld, v, "max_version");
			if (wc->max_version < 0)
				return -1;
		} else {
			return refuse_key(ld, yaml_document_get_node(doc, p->key), key, where);
		}
	}
	if (map->data.mapping.pairs.top == map->data.mapping.pairs.start)
		return 0;	/* tls_server_config: {} */
	wc->tls = true;
	if (!cert_n)
		return fail(ld, map, "tls_server_config: cert_file missing");
	if (!key_n)
		return fail(ld, map, "tls_server_config: key_file missing");
	if (auth_n) {
		s = scalar(ld, auth_n, "client_auth_type");
		if (!s)
			return -1;
		if (!strcmp(s, "RequireAndVerifyClientCert"))
			wc->verify_client = true;
		else if (!strcmp(s, "RequestClientCert") || !strcmp(s, "RequireAnyClientCert") ||
			 !strcmp(s, "RequireClientCert") || !strcmp(s, "VerifyClientCertIfGiven"))
			return fail(ld, auth_n, "client_auth_type: '%s' is not supported by "
				    "rdmadiag_exporter: want NoClientCert or "
				    "RequireAndVerifyClientCert", s);
		else if (strcmp(s, "NoClientCert"))
			return fail(ld, auth_n, "client_auth_type: invalid value '%s': want "
				    "NoClientCert or RequireAndVerifyClientCert", s);
	}
	if (ca_n && !wc->verify_client)
		return fail(ld, ca_n, "client_ca_file without client_auth_type: "
			    "RequireAndVerifyClientCert");
	if (wc->verify_client && !ca_n)
		return fail(ld, auth_n, "client_auth_type: RequireAndVerifyClientCert needs "
			    "client_ca_file");
	if (wc->min_version && wc->max_version && wc->min_version > wc->max_version)
		return fail(ld, map, "tls_server_config: min_version is above max_version");
	wc->cert_pem = read_named(ld, cert_n, "cert_file", &wc->cert_path);
	if (!wc->cert_pem)
		return -1;
	wc->key_pem = read_named(ld, key_n, "key_file", &wc->key_path);
	if (!wc->key_pem)
		return -1;
	if (ca_n) {
		wc->ca_pem = read_named(ld, ca_n, "client_ca_file", &wc->ca_path);
		if (!wc->ca_pem)
			return -1;
	}
	return 0;
}

/* "$2b$10$" + 53 characters of bcrypt's base64 */
static bool is_bcrypt(const char *h)
{
	size_t i;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) ||
	    h[3] != '$' || h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' ||
	    h[6] != '$')
		return false;
	if ((h[4] - '0') * 10 + (h[5] - '0') < 4 || (h[4] - '0') * 10 + (h[5] - '0') > 31)
		return false;
	for (i = 7; i < 60; i++)
		if (!strchr("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
			    h[i]))
			return false;
	return true;
}

static int parse_users(struct ld *ld, yaml_document_t *doc, const yaml_node_t *map,
		       struct agent_webcfg *wc)
{
	static const char where[] = "basic_auth_users: ";
	const yaml_node_pair_t *p;
	size_t n;

	if (is_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return fail(ld, map, "basic_auth_users: want a mapping of user: bcrypt hash");
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	wc->users = calloc(n ? n : 1, sizeof(*wc->users));
	if (!wc->users)
		return fail(ld, NULL, "out of memory");
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const yaml_node_t *v = yaml_document_get_node(doc, p->value);
		struct agent_user *u = &wc->users[wc->nusers];
		const char *name = map_key(ld, doc, map, p, where), *h;
		char what[300];

		if (!name)
			return -1;
		if (!*name || strchr(name, ':'))
			return fail(ld, yaml_document_get_node(doc, p->key),
				    "basic_auth_users: invalid user name '%s'", name);
		snprintf(what, sizeof(what), "basic_auth_users: user '%s'", name);
		h = scalar(ld, v, what);
		if (!h)
			return -1;
		if (!is_bcrypt(h))
			return fail(ld, v, "basic_auth_users: user '%s': the password is not a "
				    "bcrypt hash ($2a$, $2b$ or $2y$, 60 characters)", name);
		u->name = strdup(name);
		u->hash = strdup(h);
		pthread_mutex_init(&u->lock, NULL);
		wc->nusers++;
		if (!u->name || !u->hash)
			return fail(ld, NULL, "out of memory");
	}
	return 0;
}

static int parse_doc(struct ld *ld, yaml_document_t *doc, struct agent_webcfg *wc)
{
	const yaml_node_t *root = yaml_document_get_root_node(doc);
	const yaml_node_pair_t *p;
	const char *key;
	int r;

	if (!root || is_null(root))
		return 0;	/* an empty file: plain HTTP, no passwords */
	if (root->type != YAML_MAPPING_NODE)
		return fail(ld, root, "want a mapping (tls_server_config:, basic_auth_users:)");
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const yaml_node_t *v = yaml_document_get_node(doc, p->value);

		key = map_key(ld, doc, root, p, "");
		if (!key)
			return -1;
		if (!strcmp(key, "tls_server_config"))
			r = parse_tls(ld, doc, v, wc);
		else if (!strcmp(key, "basic_auth_users"))
			r = parse_users(ld, doc, v, wc);
		else
			r = refuse_key(ld, yaml_document_get_node(doc, p->key), key, "");
		if (r < 0)
			return -1;
	}
	return 0;
}

/* GnuTLS checks what libmicrohttpd would only refuse without a reason: the key pair, the
 * CA, the priority string */
static int check_tls(struct ld *ld, struct agent_webcfg *wc)
{
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t prio;
	gnutls_datum_t cert = { (unsigned char *)wc->cert_pem, (unsigned int)strlen(wc->cert_pem) };
	gnutls_datum_t key = { (unsigned char *)wc->key_pem, (unsigned int)strlen(wc->key_pem) };
	const char *errpos = NULL;
	struct stat st;
	int r;

	snprintf(wc->priorities, sizeof(wc->priorities), "NORMAL:-VERS-ALL%s%s",
		 wc->max_version != 12 ? ":+VERS-TLS1.3" : "",
		 wc->min_version != 13 ? ":+VERS-TLS1.2" : "");
	r = gnutls_priority_init(&prio, wc->priorities, &errpos);
	if (r < 0)
		return fail(ld, NULL, "GnuTLS refuses priorities '%s': %s", wc->priorities,
			    gnutls_strerror(r));
	gnutls_priority_deinit(prio);
	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return fail(ld, NULL, "out of memory");
	r = gnutls_certificate_set_x509_key_mem2(cred, &cert, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
	if (r < 0) {
		gnutls_certificate_free_credentials(cred);
		return fail(ld, NULL, "cert_file '%s' and key_file '%s': %s", wc->cert_path,
			    wc->key_path, gnutls_strerror(r));
	}
	if (wc->ca_pem) {
		gnutls_datum_t ca = { (unsigned char *)wc->ca_pem, (unsigned int)strlen(wc->ca_pem) };

		r = gnutls_certificate_set_x509_trust_mem(cred, &ca, GNUTLS_X509_FMT_PEM);
		if (r <= 0) {
			gnutls_certificate_free_credentials(cred);
			return fail(ld, NULL, "client_ca_file '%s': %s", wc->ca_path,
				    r < 0 ? gnutls_strerror(r) : "no certificate in it");
		}
	}
	gnutls_certificate_free_credentials(cred);
	if (stat(wc->key_path, &st) == 0 && (st.st_mode & S_IROTH))
		agent_log(LOG_WARN, "web config '%s': key_file '%s' is readable by others "
			  "(mode %04o)", tool_esc_tmp(ld->path), tool_esc_tmp(wc->key_path),
			  (unsigned int)(st.st_mode & 07777));
	return 0;
}

static int load(const char *path, struct agent_webcfg **out, char *err, size_t errlen)
{
	struct ld ld = { .path = path, .err = err, .errlen = errlen };
	struct agent_webcfg *wc;
	yaml_parser_t parser;
	yaml_document_t doc;
	char *text, *slash;
	size_t len;
	int r;

	*out = NULL;
	text = slurp(path, &len);
	if (!text) {
		snprintf(err, errlen, "cannot read web config '%s': %s", path, strerror(errno));
		return -1;
	}
	snprintf(ld.dir, sizeof(ld.dir), "%s", path);
	slash = strrchr(ld.dir, '/');
	if (slash == ld.dir)
		ld.dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(ld.dir, sizeof(ld.dir), ".");
	wc = calloc(1, sizeof(*wc));
	if (!wc || !yaml_parser_initialize(&parser)) {
		free(text);
		free(wc);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	wc->path = strdup(path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "web config '%s': line %zu: %s%s%s", path,
			 parser.problem_mark.line + 1, parser.problem ? parser.problem : "invalid YAML",
			 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		free(text);
		agent_webcfg_free(wc);
		return -1;
	}
	r = parse_doc(&ld, &doc, wc);
	yaml_document_delete(&doc);
	/* a second document ("---") would be ignored: refuse it */
	if (!r && yaml_parser_load(&parser, &doc)) {
		if (yaml_document_get_root_node(&doc))
			r = fail(&ld, yaml_document_get_root_node(&doc),
				 "a second YAML document: want one");
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	free(text);
	if (!r && wc->tls)
		r = check_tls(&ld, wc);
	if (r < 0 || !wc->path) {
		if (!wc->path)
			snprintf(err, errlen, "out of memory");
		agent_webcfg_free(wc);
		return -1;
	}
	*out = wc;
	return 0;
}

/* the error is one line whatever the file holds: a value with a line break (a YAML scalar
 * folds blank lines into newlines, "\n" in quotes), a control byte, in a file name or a key
 * that the message quotes, is escaped (tools/common/esc.c), not written out */
int agent_webcfg_load(const char *path, struct agent_webcfg **out, char *err, size_t errlen)
{
	char raw[1024];
	int r = load(path, out, err, errlen);

	if (r < 0 && errlen && tool_needs_esc(err)) {
		snprintf(raw, sizeof(raw), "%s", err);
		tool_esc(raw, err, errlen);
	}
	return r;
}

void agent_webcfg_free(struct agent_webcfg *wc)
{
	size_t i;

	if (!wc)
		return;
	for (i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
		pthread_mutex_destroy(&wc->users[i].lock);
	}
	free(wc->users);
	free(wc->path);
	free(wc->cert_path);
	free(wc->key_path);
	free(wc->ca_path);
	free(wc->cert_pem);
	if (wc->key_pem) {
		gnutls_memset(wc->key_pem, 0, strlen(wc->key_pem));
		free(wc->key_pem);
	}
	free(wc->ca_pem);
	free(wc);
}

void agent_webcfg_describe(const struct agent_webcfg *wc, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s, %s", wc->tls ? "TLS" : "plain HTTP",
		 !wc->tls ? "" : wc->min_version == 13 ? " 1.3" :
		 wc->max_version == 12 ? " 1.2" : " 1.2 and 1.3",
		 wc->verify_client ? " with client certificates" : "",
		 wc->nusers ? "basic auth" : "no basic auth");
	if (wc->nusers) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (%zu user%s)", wc->nusers, wc->nusers == 1 ? "" : "s");
	}
}

/* SHA-256 of the password and the hash: what the cache keeps */
static void digest(const char *pass, const char *hash, unsigned char *out)
{
	gnutls_hash_hd_t h;

	if (gnutls_hash_init(&h, GNUTLS_DIG_SHA256) < 0) {
		memset(out, 0, DIGEST_LEN);
		return;
	}
	gnutls_hash(h, pass, strlen(pass) + 1);	/* the NUL separates the two */
	gnutls_hash(h, hash, strlen(hash));
	gnutls_hash_deinit(h, out);
}

static bool bcrypt_ok(const char *pass, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *r;
	bool ok = false;

	if (!cd)
		return false;
	r = crypt_rn(pass, hash, cd, sizeof(*cd));
	if (r && r[0] != '*' && strlen(r) == strlen(hash))
		ok = gnutls_memcmp(r, hash, strlen(hash)) == 0;
	gnutls_memset(cd, 0, sizeof(*cd));
	free(cd);
	return ok;
}

bool agent_webcfg_auth(struct agent_webcfg *wc, const char *user, const char *pass)
{
	unsigned char d[DIGEST_LEN];
	struct agent_user *u = NULL;
	size_t i;
	bool ok;

	for (i = 0; i < wc->nusers; i++)
		if (!strcmp(wc->users[i].name, user))
			u = &wc->users[i];
	if (!u) {
		/* a user not in the file costs a bcrypt of the first user's cost: the time
		 * does not tell which users exist */
		char dummy[32];

		snprintf(dummy, sizeof(dummy), "%.7s%s", wc->nusers ? wc->users[0].hash : "$2b$10$",
			 "rdmadiagrdmadiagrdmadu");
		bcrypt_ok(pass, dummy);
		return false;
	}
	digest(pass, u->hash, d);
	pthread_mutex_lock(&u->lock);
	ok = u->cached && gnutls_memcmp(d, u->digest, DIGEST_LEN) == 0;
	pthread_mutex_unlock(&u->lock);
	if (ok)
		return true;
	if (!bcrypt_ok(pass, u->hash))
		return false;
	pthread_mutex_lock(&u->lock);
	memcpy(u->digest, d, DIGEST_LEN);
	u->cached = true;
	pthread_mutex_unlock(&u->lock);
	return true;
}
