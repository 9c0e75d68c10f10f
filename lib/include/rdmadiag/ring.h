/* rdmadiag/ring.h: the flight recorder's ring, a file of fixed size on disk.
 *
 * The file is a 64-byte header (magic "RDIAGRNG", version, size, CRC-32) and a data area that
 * records are written into with pwrite() at a wrapping offset; the file is made at its full
 * size once and never grows.  Each record carries a 32-byte header (magic, payload length,
 * type, sequence number, time in ns) and a CRC-32 (libdeflate, the polynomial of the ICRC)
 * over header and payload.  A record that would cross the end of the data area starts again
 * at its beginning instead.
 *
 * Reading scans the whole data area for records whose magic, length and CRC hold and
 * delivers them by sequence number, oldest first: a record partly overwritten by a later
 * lap, or torn by a writer killed mid-write, fails its CRC and is skipped; every record whose
 * write completed and that no later record overwrote is read back.
 *
 * Functions return 0 or -errno and never print.  Errors of rdiag_ring_read /
 * rdiag_ring_open: -ENOENT no such file, -EBADMSG not a ring (bad magic, version or header
 * CRC), -ENODATA the file is shorter than its header says (truncated), -EISDIR a directory.
 */
#ifndef RDMADIAG_RING_H
#define RDMADIAG_RING_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDIAG_RING_HDR_LEN 64
#define RDIAG_RING_REC_HDR_LEN 32
#define RDIAG_RING_MIN_SIZE 4096ULL
#define RDIAG_RING_MAX_SIZE (1ULL << 32)

/* record types of the flight recorder (rdmatrace record) */
enum rdiag_ring_type {
	RDIAG_REC_START = 1,		/* the recorder started: text "host ... interval ..." */
	RDIAG_REC_MARKER = 2,		/* a trigger: text, why */
	RDIAG_REC_EVENT = 3,		/* one CM tracepoint event */
	RDIAG_REC_CONN = 4,		/* a connection that ended */
	RDIAG_REC_COUNTERS = 5,		/* a counter snapshot of one port */
	RDIAG_REC_PORT = 6,		/* a port state change */
	RDIAG_REC_NETLINK = 7,		/* an rtnetlink link/addr/neigh/route change */
	RDIAG_REC_STOP = 8,		/* the recorder ended cleanly */
	RDIAG_REC_QP = 9,		/* a QP appeared, changed state or went away */
	RDIAG_REC_GID = 10,		/* a GID table entry added, removed or changed */
};

struct rdiag_ring;

/* create path as a ring of size bytes (RDIAG_RING_MIN_SIZE .. RDIAG_RING_MAX_SIZE), or, when
 * path is already a ring of that size, continue after its newest record.  An existing file
 * that is not a ring, or a ring of another size, is not touched: -EEXIST. */
int rdiag_ring_open(struct rdiag_ring **r, const char *path, uint64_t size);
/* the largest payload rdiag_ring_append takes for this ring */
size_t rdiag_ring_max_payload(const struct rdiag_ring *r);
/* write one record; -EMSGSIZE when len is over rdiag_ring_max_payload */
int rdiag_ring_append(struct rdiag_ring *r, unsigned int type, uint64_t time_ns,
		      const void *data, size_t len);
/* copy the ring as it is now to path (a new file, mode 0644; an existing one is replaced) */
int rdiag_ring_copy(const struct rdiag_ring *r, const char *path);
/* records written through this handle, laps of the data area (wraps) */
uint64_t rdiag_ring_written(const struct rdiag_ring *r);
uint64_t rdiag_ring_wraps(const struct rdiag_ring *r);
void rdiag_ring_close(struct rdiag_ring *r);

struct rdiag_ring_record {
	uint64_t seq;
	uint64_t time_ns;
	unsigned int type;
	const void *data;
	size_t len;
};
struct rdiag_ring_info {
	uint64_t size;			/* the header's size */
	uint64_t records;		/* valid records delivered */
	uint64_t skipped_bytes;		/* data-area bytes in no valid record (unused, torn,
					 * overwritten) */
};
typedef int (*rdiag_ring_cb)(const struct rdiag_ring_record *rec, void *arg);
/* every valid record of the ring at path, oldest first; a non-zero return of cb stops the
 * walk and is returned.  info may be NULL. */
int rdiag_ring_read(const char *path, rdiag_ring_cb cb, void *arg, struct rdiag_ring_info *info);

#ifdef __cplusplus
}
#endif
#endif
