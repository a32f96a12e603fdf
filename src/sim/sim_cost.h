/* SPDX-License-Identifier: MIT */
/*
 * sim_cost.h - the cost model: named per-operation CPU costs loaded from a
 * preset INI file (inih).
 *
 * A preset looks like:
 *
 *   [preset]
 *   name = default
 *   description = one line
 *   calibration = how the numbers were obtained
 *   [cost]
 *   hardirq_entry = 450        ; ns per event
 *   copy_user_byte = 0.085     ; ns per byte (up to 3 decimals)
 *
 *   [platform]                 ; optional: facts about the platform
 *   dram_latency_ns = 66       ; one load that misses every cache
 *   cpuidle = adl              ; the CPU idle states (sim_idle.h)
 *
 * Every key of sim_cost.def must be present; an unknown section or key, a
 * duplicate, or a bad number is an error naming the file and line.
 * Values are stored in picoseconds so that per-byte costs stay exact.
 */
#ifndef RXSCALE_SIM_COST_H
#define RXSCALE_SIM_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sim_cost_id {
#define SIM_COST(key, what) SIM_COST_##key,
#include "sim/sim_cost.def"
#undef SIM_COST
	SIM_COST_NR
};

struct sim_cost {
	char name[64];
	char description[256];
	char calibration[512];
	uint64_t ps[SIM_COST_NR];       /* picoseconds per event or byte */
	/* [platform]: 0 / "" when not given */
	uint64_t dram_latency_ps;
	char cpuidle[32];               /* a table name of sim_idle.h */
};

/* Key string of @id ("hardirq_entry"). */
const char *sim_cost_key(enum sim_cost_id id);

/* One-line meaning of @id, from sim_cost.def. */
const char *sim_cost_what(enum sim_cost_id id);

/*
 * Load the preset file @path into @c.  On error returns -EINVAL (or
 * -errno of fopen) and writes a message "PATH:LINE: ..." (at most @errlen
 * bytes, NUL-terminated) to @err; @c is then unchanged.
 */
int sim_cost_load_file(struct sim_cost *c, const char *path, char *err,
		       size_t errlen);

/* As sim_cost_load_file() for preset text @text; @label names it in
 * messages (e.g. "presets/default.ini"). */
int sim_cost_load_string(struct sim_cost *c, const char *text,
			 const char *label, char *err, size_t errlen);

/* The built-in default preset (presets/default.ini compiled in). */
void sim_cost_load_default(struct sim_cost *c);

/* Text of the built-in default preset. */
extern const char sim_cost_default_ini[];

/* Parse "12", "0.085", "1.5" (ns, ≤ 3 decimals, ≤ 10^9) to picoseconds.
 * Returns 0 or -EINVAL. */
int sim_cost_parse_ns(const char *s, uint64_t *ps);

#endif /* RXSCALE_SIM_COST_H */
