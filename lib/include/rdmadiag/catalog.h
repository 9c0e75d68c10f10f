/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/catalog.h: what a counter means.
 *
 * The catalogue is a data table (lib/counters/catalog_data.c) covering the IB PMA and CM
 * counters and the hw_counters of rxe, mlx5, bnxt_re, irdma, efa, mana, erdma and hfi1.  Each
 * entry maps a raw kernel name to a vendor-neutral concept ("rnr_nak_received", "cnp_sent",
 * "icrc_error" ...), its unit, width and wrap behaviour, scale, severity, direction, aliases
 * across kernel versions, a one-line meaning and what to check.  Unknown names are not an error:
 * lookups return NULL and callers show the raw name.
 */
#ifndef RDMADIAG_CATALOG_H
#define RDMADIAG_CATALOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rdiag_unit {
	RDIAG_UNIT_EVENTS = 0,
	RDIAG_UNIT_PACKETS,
	RDIAG_UNIT_BYTES,
	RDIAG_UNIT_WORDS4,	/* 4-octet words (PMA data): scale 4 gives bytes */
	RDIAG_UNIT_MESSAGES,	/* MADs, commands, work requests */
	RDIAG_UNIT_OBJECTS,	/* a gauge of live objects (active_qps): not a counter */
	RDIAG_UNIT_TICKS,	/* port_xmit_wait */
};

enum rdiag_behaviour {
	RDIAG_CNT_WRAP = 0,	/* wraps at 2^width (64-bit software, 32-bit mlx5 Q counters) */
	RDIAG_CNT_SATURATE,	/* stops at 2^width - 1 (IB PMA PortCounters): reset me */
	RDIAG_CNT_GAUGE,	/* goes up and down; no rate */
};

enum rdiag_severity {
	RDIAG_SEV_INFO = 0,
	RDIAG_SEV_WARNING,
	RDIAG_SEV_ERROR,
};

enum rdiag_direction {
	RDIAG_DIR_NONE = 0,
	RDIAG_DIR_REQUESTER,
	RDIAG_DIR_RESPONDER,
	RDIAG_DIR_TX,
	RDIAG_DIR_RX,
};

struct rdiag_catalog_entry {
	const char *name;		/* kernel name */
	const char *driver;		/* "pma", "cm", "rxe", "mlx5", "bnxt_re", "irdma", "efa",
					 * "mana", "erdma", "hfi1" */
	const char *concept;		/* shared vocabulary; NULL when vendor-specific */
	enum rdiag_unit unit;
	uint8_t width;			/* bits: 64, 32, 16, 8, 4 */
	enum rdiag_behaviour behaviour;
	uint8_t scale;			/* multiply raw values by this to get unit-ful values
					 * (4 for PMA data, else 1) */
	enum rdiag_severity severity;	/* how worrying an increase is */
	enum rdiag_direction direction;
	const char *aliases[3];		/* other spellings across kernel versions (NULL-ended) */
	const char *meaning;		/* one line */
	const char *hint;		/* what to check when it rises (may be NULL) */
	bool overlaps;			/* counts events another counter of its concept on the
					 * same port counts too (an optional flow counter, a
					 * subset such as irdma's RoCEv2 UDP packets of its IP
					 * packets): left out of the concept's total */
};

/* Look a counter up.  driver narrows ambiguous names ("link_downed" is 8-bit saturating in
 * the PMA and 64-bit in rxe); it may be NULL.  origin PMA/CM restricts to those tables.
 * Aliases and the iw* prefix of older irdma/i40iw kernels resolve to the same entry. */
const struct rdiag_catalog_entry *rdiag_catalog_lookup(const char *name, const char *driver,
							enum rdiag_origin origin);
/* the whole table, for `explain` and completion */
size_t rdiag_catalog_count(void);
const struct rdiag_catalog_entry *rdiag_catalog_at(size_t i);
/* true when the name or a concept of that name is in the table */
bool rdiag_catalog_is_concept(const char *concept);

/* What a concept means and how the drivers' counters of it differ.  A concept groups only
 * counters that count the same event; "differences" says where they still differ in scope
 * or granularity (NULL: alike). */
struct rdiag_catalog_concept {
	const char *name;
	const char *meaning;
	const char *differences;
};
/* the description of a concept, or NULL (not a concept, or a one-counter concept without
 * one: its counter's meaning says it all) */
const struct rdiag_catalog_concept *rdiag_catalog_concept_find(const char *name);

/* Counter selection, one rule for every caller (rdmastat's names and -c, threshold files,
 * rdmatop's filter).  A pattern selects a counter when it is the counter's name, its
 * catalogue entry's name or an alias, or the entry's concept; a pattern with '*', '?' or '['
 * is a shell glob (fnmatch(3)) tried against the same strings.  cat may be NULL (a counter
 * the catalogue does not know: only its name is tried). */
enum rdiag_pattern_kind {
	RDIAG_PATTERN_NAME = 0,	/* a plain word that is no concept: a counter name */
	RDIAG_PATTERN_GLOB,	/* has '*', '?' or '[' */
	RDIAG_PATTERN_CONCEPT,	/* a plain word that is a catalogue concept */
};
enum rdiag_pattern_kind rdiag_pattern_kind(const char *pattern);
#define RDIAG_MATCH_CASEFOLD 1u	/* compare without regard to case (rdmatop's filter) */
bool rdiag_counter_match(const char *pattern, const char *name,
			 const struct rdiag_catalog_entry *cat, unsigned int flags);

const char *rdiag_unit_name(enum rdiag_unit u);		/* "packets", "4-octet words" ... */
const char *rdiag_behaviour_name(enum rdiag_behaviour b);	/* "wrapping", "saturating" ... */
const char *rdiag_severity_name(enum rdiag_severity s);	/* "info" "warning" "error" */
const char *rdiag_direction_name(enum rdiag_direction d);	/* "requester" ... or "" */

#ifdef __cplusplus
}
#endif
#endif
