/* SPDX-License-Identifier: MIT */
/*
 * rtl_ocp.h - the OCP registers behind the MAC OCP (0xB0) and PHY OCP
 * (0xB8) windows that the model knows, as rows of address ranges
 * (rtl_ocp.def).  Data only.  An access to an OCP address no row covers
 * is what a driver touches that the model does not know: the model still
 * stores it and reads it back, and reports it (rtlm_unknown_ocp()).
 *
 * The PHY OCP space is the internal PHY's: IEEE 802.3 clause 22 page 0
 * at 0xA400 + 2 * reg (K OCP_STD_PHY_BASE), vendor page p register r at
 * p * 16 + (r - 16) * 2 (K r8168g_mdio_read), and the MDIO_MMD_VEND2
 * registers mainline's realtek PHY driver reads with their OCP address as
 * the register number (K r8169_mdio_read_reg_c45).
 */
#ifndef RXSCALE_HW_RTL_OCP_H
#define RXSCALE_HW_RTL_OCP_H

#include "hw/rtl_types.h"

enum rtl_ocp_space {
	RTL_OCP_MAC,
	RTL_OCP_PHY,
	RTL_OCP__SPACES
};

struct rtl_ocp_desc {
	const char *name;
	uint8_t space;		/* enum rtl_ocp_space */
	uint16_t first, last;	/* even OCP addresses, inclusive */
	const char *note;	/* meaning and source, one line */
};

enum rtl_ocp_index {
#define RTL_OCP(space, name, first, last, note) RTL_OI_##name,
#include "hw/rtl_ocp.def"
#undef RTL_OCP
	RTL_OI__COUNT
};

/* Addresses: RTL_OCPA_<name> = first address of the row. */
enum rtl_ocp_addrs {
#define RTL_OCP(space, name, first, last, note) RTL_OCPA_##name = (first),
#include "hw/rtl_ocp.def"
#undef RTL_OCP
};

extern const struct rtl_ocp_desc rtl_ocp_regs[RTL_OI__COUNT];

/** rtl_ocp_lookup() - the row of @space covering OCP address @addr, or
 * NULL. */
const struct rtl_ocp_desc *rtl_ocp_lookup(enum rtl_ocp_space space,
					  uint16_t addr);

#endif /* RXSCALE_HW_RTL_OCP_H */
