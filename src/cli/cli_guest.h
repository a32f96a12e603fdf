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

/* The model's side of a guest run, NIC @i: frames sent (@tx_frames, as
 * the wire counted them) and offered to it, received into the rings, RX
 * drops, the OwnBit erratum, registers it does not know, its last guest
 * error. */
void cli_guest_report_model(struct rtlm_dev *m, unsigned i, uint64_t tx_frames,
			    uint64_t offered);

#endif /* RXSCALE_CLI_GUEST_H */
