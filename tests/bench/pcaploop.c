/* The floor for `make bench`: read every record of a capture through libpcap and touch its
 * bytes (sum caplen, xor the first byte), nothing else.  Prints "<packets> <bytes>".
 *   pcaploop FILE */
#include <stdio.h>
#include <stdint.h>
#include <pcap/pcap.h>

struct acc {
	uint64_t packets, bytes;
	unsigned int x;
};

static void one(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct acc *a = (struct acc *)user;

	a->packets++;
	a->bytes += h->caplen;
	if (h->caplen)
		a->x ^= data[0];
}

int main(int argc, char **argv)
{
	char err[PCAP_ERRBUF_SIZE];
	struct acc a = { 0, 0, 0 };
	pcap_t *p;

	if (argc != 2) {
		fprintf(stderr, "usage: pcaploop FILE\n");
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
