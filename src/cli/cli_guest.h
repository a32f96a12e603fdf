/* SPDX-License-Identifier: MIT */
/*
 * cli_guest.h - what the commands that serve a model to a real kernel
 * (rxscale uml, rxscale vfio-user) share: choosing a chip row a real
 * driver knows, addresses, and the model's report after a guest run.
 */
#ifndef RXSCALE_CLI_GUEST_H
#define RXSCALE_CLI_GUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/rtl_chips.h"

struct rtlm_dev;

/* The PCIe chip row named @name (case-insensitive), or NULL. */
const struct rtl_chip_info *cli_chip_named(const char *name);

/* @name is a what-if row (rtl_chips.h): never served to a real kernel. */
bool cli_whatif_named(const char *name);

/* Dotted-quad IPv4 @s into @ip.  0 or -1. */
int cli_parse_ip4(const char *s, uint8_t ip[4]);

/* The options both commands take: --chip, --peer-ip, --seconds, --quiet
 * and --ownbit-erratum[=NS] (getopt letters c, p, t, q, o). */
struct cli_guest_opts {
	const struct rtl_chip_info *chip;
	uint8_t *peer_ip;               /* where --peer-ip goes */
	unsigned long seconds;
	bool quiet;
	long ownbit_ns;                 /* -1: off */
};

/* Take getopt's @opt with @arg if it is one of those: 1 taken, 0 not one
 * of them, -1 a bad value (the error line printed). */
int cli_guest_opt(struct cli_guest_opts *g, int opt, const char *arg);

struct sim_host;
struct plat_mem;

/* NIC @i's model (MAC 00:e0:4c:68:00:0(i+1), the OwnBit erratum on with
 * its write-backs held @ownbit_ns when that is > 0) on @host, DMA into
 * @mem; NULL with the error line printed. */
struct rtlm_dev *cli_guest_model(struct sim_host *host, struct plat_mem *mem,
				 const struct rtl_chip_info *chip, unsigned i,
				 long ownbit_ns);

/* The model's side of a guest run, NIC @i: frames sent (@tx_frames, as
 * the wire counted them) and offered to it, received into the rings, RX
 * drops, the OwnBit erratum, registers it does not know, its last guest
 * error. */
void cli_guest_report_model(struct rtlm_dev *m, unsigned i, uint64_t tx_frames,
			    uint64_t offered);

#endif /* RXSCALE_CLI_GUEST_H */
