// SPDX-License-Identifier: MIT
/*
 * rtlm_err.c - what a chip tells of its guest: guest errors (what the
 * driver did wrong, kept as the last message, counted, and passed to the
 * log hook) and notes of accesses to unknown registers.  Every part of the
 * model reports through it; it calls nothing of theirs.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_err.h"
#include "model/rtlm_priv.h"

void rtlm_guest_error(struct rtlm_dev *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	model_err_format(dev->last_error, sizeof(dev->last_error), dev->pci.name,
			 fmt, ap);
	va_end(ap);
	dev->st.guest_errors++;
	if (dev->log)
		dev->log(dev->log_arg, dev->last_error);
}

const char *rtlm_last_error(const struct rtlm_dev *dev)
{
	return dev->last_error;
}

void rtlm_set_log(struct rtlm_dev *dev,
		  void (*fn)(void *arg, const char *msg), void *arg)
{
	dev->log = fn;
	dev->log_arg = arg;
}

/* Count an access to unknown offset @off of space @sp (for the BAR: the
 * first byte of it, or a write to a read-only row at @off).  Every offset
 * is kept; the list grows as needed (only an out-of-memory host loses a
 * note). */
void rtlm_unknown_note(struct rtlm_dev *dev, enum rtlm_unknown_space sp,
		       uint32_t off, bool write, uint32_t val)
{
	struct rtlm_unknown_list *l = &dev->unknown[sp];
	struct rtlm_unknown_reg *u = NULL;

	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i].off == off) {
			u = &l->v[i];
			break;
		}
	if (!u) {
		if (l->n == l->cap) {
			unsigned cap = l->cap ? 2 * l->cap : 16;
			struct rtlm_unknown_reg *v = realloc(l->v, cap * sizeof(*v));

			if (!v)
				return;
			l->v = v;
			l->cap = cap;
		}
		u = &l->v[l->n++];
		memset(u, 0, sizeof(*u));
		u->off = off;
	}
	if (write) {
		u->writes++;
		u->last_write = val;
	} else {
		u->reads++;
	}
}

void rtlm_unknown_fini(struct rtlm_dev *dev)
{
	for (unsigned sp = 0; sp < RTLM_UNKNOWN__SPACES; sp++)
		free(dev->unknown[sp].v);
}

const struct rtlm_unknown_reg *rtlm_unknown_in(const struct rtlm_dev *dev,
					       enum rtlm_unknown_space sp,
					       unsigned *n)
{
	if ((unsigned)sp >= RTLM_UNKNOWN__SPACES) {
		*n = 0;
		return NULL;
	}
	*n = dev->unknown[sp].n;
	return dev->unknown[sp].v;
}

const struct rtlm_unknown_reg *rtlm_unknown_regs(const struct rtlm_dev *dev,
						  unsigned *n)
{
	return rtlm_unknown_in(dev, RTLM_UNKNOWN_BAR, n);
}
