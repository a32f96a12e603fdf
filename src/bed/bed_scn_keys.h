/* SPDX-License-Identifier: MIT */
/*
 * bed_scn_keys.h - the scenario key table (bed_scn_keys.c): the parser
 * of one "section.key = value" and each key's documentation, which
 * `rxscale run --help-keys` and the man page print.
 */
#ifndef RXSCALE_BED_SCN_KEYS_H
#define RXSCALE_BED_SCN_KEYS_H

#include <stdbool.h>
#include <stdio.h>

#include "bed/bed_scenario.h"

/* Apply key @sec.@key = @v to @s.  0, or -1 with @msg set. */
int bed_scn_apply(struct bed_scenario *s, const char *sec, const char *key,
		  const char *v, char *msg, size_t ml);

/* One key as the documentation lists it. */
struct bed_scn_key_doc {
	const char *name;       /* "section.key" */
	char def[96];           /* the default: a value (def_is_value), or a
				   "(note)" of what no value means */
	bool def_is_value;
	const char *unit;       /* "s", "bytes", ... or "" */
	char range[512];        /* the values it takes */
	const char *help;       /* what it does */
};

/* The unit of key @name ("us", "s", ...), or "" (none, or no such key). */
const char *bed_scn_key_unit(const char *name);

/* The number of keys; key @i (0 ..) of the table. */
unsigned bed_scn_nkeys(void);
void bed_scn_key_doc(unsigned i, struct bed_scn_key_doc *d);

/*
 * Every key, in the table's order: "KEY = DEFAULT [UNIT; VALUES]", then
 * what it does, indented; wrapped at 78 columns.  @man: as scdoc source
 * for the man page instead (one paragraph per key, not wrapped).
 */
void bed_scn_keys_print(FILE *f, bool man);

#endif /* RXSCALE_BED_SCN_KEYS_H */
