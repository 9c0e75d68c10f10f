/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The floor for `make bench`: read every record of a capture through libpcap and touch its
 * bytes (sum caplen, xor the first byte), nothing else.  Prints "<packets> <bytes> <x>".
 *   pcaploop FILE
 *   pcaploop --crc FILE   the same plus the CRC-32 rdmadump's ICRC uses (libdeflate_crc32)
 *                         over every packet's bytes: the cost that ICRC verification alone
 *                         adds, the floor under rdmadump -S -q */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <pcap/pcap.h>
#include <libdeflate.h>

struct acc {
	uint64_t packets, bytes;
	unsigned int x;
	int crc;
};

static void one(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct acc *a = (struct acc *)user;

	a->packets++;
	a->bytes += h->caplen;
	if (h->caplen)
		a->x ^= data[0];
	if (a->crc)
		a->x ^= (unsigned int)libdeflate_crc32(0, data, h->caplen);
}

int main(int argc, char **argv)
{
	char err[PCAP_ERRBUF_SIZE];
	struct acc a = { 0, 0, 0, 0 };
	pcap_t *p;

	if (argc == 3 && !strcmp(argv[1], "--crc")) {
		a.crc = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: pcaploop [--crc] FILE\n");
		return 2;
	}
	p = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, err);
	if (!p) {
		fprintf(stderr, "pcaploop: %s\n", err);
		return 2;
	}
	if (pcap_loop(p, -1, one, (u_char *)&a) == -1) {
		fprintf(stderr, "pcaploop: %s\n", pcap_geterr(p));
		return 2;
	}
	pcap_close(p);
	printf("%llu %llu %u\n", (unsigned long long)a.packets, (unsigned long long)a.bytes, a.x);
	return 0;
}
