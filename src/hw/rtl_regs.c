/* SPDX-License-Identifier: MIT */
/*
 * rtl_regs.c - the register table as an array, and the offset lookup.
 */
#include "hw/rtl_regs.h"

#include "hw/rtl_types.h"

const struct rtl_reg_desc rtl_regs[RTL_RI__COUNT] = {
#define RTL_REG(name_, off_, n_, stride_, width_, acc_, reset_, wmask_,	\
		flags_, link_, note_)					\
	[RTL_RI_##name_] = {						\
		.name = #name_,						\
		.offset = (off_),					\
		.n = (n_),						\
		.stride = (stride_),					\
		.width = (width_),					\
		.access = RTL_ACC_##acc_,				\
		.flags = (flags_),					\
		.link = RTL_RI_##link_,					\
		.reset = (reset_),					\
		.wmask = (wmask_),					\
		.note = note_,						\
	},
#include "hw/rtl_regs.def"
#undef RTL_REG
};

const struct rtl_reg_desc *rtl_reg_lookup(uint32_t off)
{
	const struct rtl_reg_desc *d;
	size_t lo = 0, hi = RTL_RI__COUNT;

	/* the last row whose first byte is <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (rtl_regs[mid].offset <= off)
			lo = mid;
		else
			hi = mid;
	}
	d = &rtl_regs[lo];
	if (off < d->offset || off >= rtl_reg_end(d))
		return NULL;
	if (d->stride && (off - d->offset) % d->stride >= d->width)
		return NULL;
	return d;
}
