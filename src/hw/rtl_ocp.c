/* SPDX-License-Identifier: MIT */
/*
 * rtl_ocp.c - the OCP rows as an array, and the address lookup.
 */
#include "hw/rtl_ocp.h"

#include "hw/rtl_types.h"

const struct rtl_ocp_desc rtl_ocp_regs[RTL_OI__COUNT] = {
#define RTL_OCP(space_, name_, first_, last_, note_)			\
	[RTL_OI_##name_] = {						\
		.name = #name_,						\
		.space = RTL_OCP_##space_,				\
		.first = (first_),					\
		.last = (last_),					\
		.note = note_,						\
	},
#include "hw/rtl_ocp.def"
#undef RTL_OCP
};

const struct rtl_ocp_desc *rtl_ocp_lookup(enum rtl_ocp_space space,
					  uint16_t addr)
{
	for (unsigned i = 0; i < RTL_OI__COUNT; i++) {
		const struct rtl_ocp_desc *d = &rtl_ocp_regs[i];

		if (d->space == space && addr >= d->first && addr <= d->last)
			return d;
	}
	return NULL;
}
