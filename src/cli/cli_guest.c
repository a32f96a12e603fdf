// SPDX-License-Identifier: MIT
/*
 * cli_guest.c - helpers of the commands that serve a model to a real
 * kernel (see cli_guest.h).
 */
#include "cli/cli_guest.h"

#include <stdio.h>
#include <strings.h>

#include "bed/bed_util.h"
#include "cli/cli.h"
#include "hw/rtl_whatif.h"
#include "model/rtlm.h"

int cli_parse_ip4(const char *s, uint8_t ip[4])
{
	unsigned a, b, c, d;
	char end;

	if (sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) != 4 ||
	    a > 255 || b > 255 || c > 255 || d > 255)
		return -1;
	ip[0] = (uint8_t)a;
	ip[1] = (uint8_t)b;
	ip[2] = (uint8_t)c;
	ip[3] = (uint8_t)d;
	return 0;
}

const struct rtl_chip_info *cli_chip_named(const char *name)
{
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcasecmp(rtl_chips[i].name, name))
			return &rtl_chips[i];
	return NULL;
}

bool cli_whatif_named(const char *name)
{
	for (unsigned i = 0; i < rtl_whatif_chips_count; i++)
		if (!strcasecmp(rtl_whatif_chips[i].name, name))
			return true;
	return false;
}

int cli_guest_opt(struct cli_guest_opts *g, int opt, const char *arg)
{
	unsigned long ns = 2000;

	switch (opt) {
	case 'c':
		g->chip = cli_chip_named(arg);
		if (g->chip)
			return 1;
		if (cli_whatif_named(arg))
			cli_err("--chip: %s is a what-if chip, not real hardware: "
				"a real kernel's driver has no row for it", arg);
		else
			cli_err("--chip: unknown chip '%s' (a PCIe row of the chip table, "
				"e.g. RTL8127A)", arg);
		return -1;
	case 'p':
		if (!cli_parse_ip4(arg, g->peer_ip))
			return 1;
		cli_err("--peer-ip: '%s' is not an IPv4 address", arg);
		return -1;
	case 't':
		if (!bed_parse_uint(arg, 1, 86400, &g->seconds))
			return 1;
		cli_err("--seconds: '%s' is not a whole number 1..86400", arg);
		return -1;
	case 'q':
		g->quiet = true;
		return 1;
	case 'o':
		if (arg && bed_parse_uint(arg, 1, 1000000000ul, &ns)) {
			cli_err("--ownbit-erratum: '%s' is not a delay in ns (1..1e9)", arg);
			return -1;
		}
		g->ownbit_ns = (long)ns;
		return 1;
	default:
		return 0;
	}
}

struct rtlm_dev *cli_guest_model(struct sim_host *host, struct plat_mem *mem,
				 const struct rtl_chip_info *chip, unsigned i,
				 long ownbit_ns)
{
	struct rtlm_params p;
	struct rtlm_dev *m;

	rtlm_params_default(&p);
	p.mac[5] = (uint8_t)(i + 1);
	if (ownbit_ns > 0) {            /* the RTL8127 descriptor-OwnBit erratum */
		p.faults.ownbit_erratum = true;
		p.faults.ownbit_delay_ns = (sim_time_t)ownbit_ns;
	}
	m = rtlm_create(host, mem, chip, &p);
	if (!m)
		cli_err("cannot create the %s model", chip->name);
	return m;
}

void cli_guest_report_model(struct rtlm_dev *m, unsigned i, uint64_t tx_frames,
			    uint64_t offered)
{
	const struct rtlm_stats *st = rtlm_stats(m);
	uint64_t rx_ok = 0;

	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		rx_ok += st->rx_ok[q];
	printf("nic%u: %llu frames sent, %llu offered to it, %llu received into the rings, "
	       "%llu RX drops\n", i, (unsigned long long)tx_frames,
	       (unsigned long long)offered, (unsigned long long)rx_ok,
	       (unsigned long long)rtlm_rx_dropped(m));
	if (rtlm_rx_dropped(m)) {
		uint64_t missed = 0, dma = 0, small = 0;

		for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++) {
			missed += st->rx_missed[q];
			dma += st->rx_dma_err[q];
			small += st->rx_buf_small[q];
		}
		printf("nic%u RX drops by reason: %llu no free descriptor, %llu DMA errors, "
		       "%llu buffer too small, %llu link down, %llu RX disabled, %llu address "
		       "filter, %llu too long, %llu FIFO overflow, %llu at a chip reset\n", i,
		       (unsigned long long)missed, (unsigned long long)dma,
		       (unsigned long long)small, (unsigned long long)st->rx_link_down,
		       (unsigned long long)st->rx_disabled, (unsigned long long)st->rx_filtered,
		       (unsigned long long)st->rx_too_long, (unsigned long long)st->rx_fifo_over,
		       (unsigned long long)st->rx_reset);
	}
	{
		unsigned nq = rtlm_chip(m)->caps->rx_queues;

		printf("nic%u frames into ring:", i);
		for (unsigned q = 0; q < nq && q < RTL_MAX_RX_QUEUES; q++)
			printf(" rx%u %llu", q, (unsigned long long)st->rx_ok[q]);
		printf("\n");
	}
	if (st->ownbit_held)
		printf("nic%u OwnBit erratum: %llu write-backs held, %llu landed at an MMIO read, "
		       "%llu after the delay\n", i, (unsigned long long)st->ownbit_held,
		       (unsigned long long)st->ownbit_flush_mmio,
		       (unsigned long long)st->ownbit_flush_timer);
	{
		static const char *const what[RTLM_UNKNOWN__SPACES] = {
			[RTLM_UNKNOWN_BAR] = "registers",
			[RTLM_UNKNOWN_MAC_OCP] = "MAC OCP registers",
			[RTLM_UNKNOWN_PHY_OCP] = "PHY OCP registers",
		};

		for (unsigned sp = 0; sp < RTLM_UNKNOWN__SPACES; sp++) {
			unsigned nu;
			const struct rtlm_unknown_reg *u =
				rtlm_unknown_in(m, (enum rtlm_unknown_space)sp, &nu);

			if (!nu)
				continue;
			printf("nic%u %u %s the model does not know (offset reads/writes, "
			       "last value written):", i, nu, what[sp]);
			for (unsigned k = 0; k < nu; k++) {
				printf(" 0x%02x %u/%u", u[k].off, u[k].reads, u[k].writes);
				if (u[k].writes)
					printf("=0x%x", u[k].last_write);
			}
			printf("\n");
		}
	}
	if (rtlm_last_error(m)[0])
		printf("nic%u model: %llu guest errors, the last: %s\n", i,
		       (unsigned long long)st->guest_errors, rtlm_last_error(m));
}
