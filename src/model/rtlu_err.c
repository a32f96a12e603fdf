/* SPDX-License-Identifier: MIT */
/*
 * rtlu_err.c - what the adapter tells of its guest: guest errors (what
 * the driver did wrong, kept as the last message and counted).  Every part
 * of the adapter model reports through it; it calls nothing of theirs.
 */
#include <stdarg.h>

#include "model/model_err.h"
#include "model/rtlu_priv.h"

void rtlu_guest_error(struct rtlu_dev *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	model_err_format(dev->last_error, sizeof(dev->last_error), dev->usb.name,
			 fmt, ap);
	va_end(ap);
	dev->st.guest_errors++;
}

const char *rtlu_last_error(const struct rtlu_dev *dev)
{
	return dev->last_error;
}
