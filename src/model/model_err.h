/* SPDX-License-Identifier: MIT */
/*
 * model_err.h - the device models' guest-error text: "<device>: <what>",
 * kept as the model's last error (rtlm_last_error(), rtlu_last_error()).
 */
#ifndef RXSCALE_MODEL_MODEL_ERR_H
#define RXSCALE_MODEL_MODEL_ERR_H

#include <stdarg.h>
#include <stdio.h>

/* Format @fmt/@ap after "@name: " into @buf (@n bytes, truncated). */
static inline void model_err_format(char *buf, size_t n, const char *name,
				    const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static inline void model_err_format(char *buf, size_t n, const char *name,
				    const char *fmt, va_list ap)
{
	int k = snprintf(buf, n, "%s: ", name);

	if (k < 0 || (size_t)k >= n)
		k = 0;
	vsnprintf(buf + k, n - (size_t)k, fmt, ap);
}

#endif /* RXSCALE_MODEL_MODEL_ERR_H */
