/* SPDX-License-Identifier: MIT */
/*
 * pcap2corpus.c - turn captures into a libFuzzer seed corpus for
 * fuzz_dissect: one file per frame, a link-type byte then the frame.
 * usage: pcap2corpus OUTDIR FILE...
 */
#include <pcap/pcap.h>
#include <stdio.h>

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

int main(int argc, char **argv)
{
	unsigned long n = 0;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: pcap2corpus OUTDIR FILE...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		char err[PCAP_ERRBUF_SIZE], path[4096];
		struct pcap_pkthdr *h;
		const u_char *d;
		pcap_t *p = pcap_open_offline(argv[i], err);
		int dlt;
		unsigned char link;

		if (!p) {
			fprintf(stderr, "pcap2corpus: %s: %s\n", argv[i], err);
			return 2;
		}
		dlt = pcap_datalink(p);
		/* same order as enum net_link: ETH, SLL, SLL2, RAW */
		link = dlt == DLT_EN10MB ? 0 : dlt == DLT_LINUX_SLL ? 1 :
		       dlt == DLT_LINUX_SLL2 ? 2 : 3;
		while (pcap_next_ex(p, &h, &d) == 1) {
			FILE *f;

			snprintf(path, sizeof(path), "%s/seed-%06lu", argv[1], n++);
			f = fopen(path, "wb");
			if (!f || fwrite(&link, 1, 1, f) != 1 ||
			    fwrite(d, 1, h->caplen, f) != h->caplen || fclose(f)) {
				fprintf(stderr, "pcap2corpus: cannot write %s\n", path);
				return 2;
			}
		}
		pcap_close(p);
	}
	printf("pcap2corpus: %lu seeds\n", n);
	return 0;
}
