/* SPDX-License-Identifier: MIT */
/*
 * rtl_whatif.h - what-if rows: chips that do not exist, for questions
 * the real ones cannot answer (how the host scales with many RX queues).
 * An XID of their own, matched only by rtl_chip_lookup_whatif(); the
 * driver sees them only when the simulator hands that lookup to
 * rtl_chip_lookup_extra (rtl_chips.h).  Absent from a kernel-module build
 * (never bound to real hardware).
 */
#ifndef RXSCALE_HW_RTL_WHATIF_H
#define RXSCALE_HW_RTL_WHATIF_H

#include "hw/rtl_chips.h"

extern const struct rtl_chip_info rtl_whatif_chips[];
extern const unsigned rtl_whatif_chips_count;

/**
 * rtl_chip_lookup_whatif() - the what-if row of PCI device @pci_device
 * with @txconfig's XID, or NULL.
 */
const struct rtl_chip_info *rtl_chip_lookup_whatif(uint16_t pci_device,
						   uint32_t txconfig);

#endif /* RXSCALE_HW_RTL_WHATIF_H */
