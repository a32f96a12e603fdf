// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "sim/sim_cost.h"
#include "sim/sim_idle.h"

static const char *const cost_keys[SIM_COST_NR] = {
#define SIM_COST(key, what) #key,
#include "sim/sim_cost.def"
#undef SIM_COST
};

static const char *const cost_what[SIM_COST_NR] = {
#define SIM_COST(key, what) what,
#include "sim/sim_cost.def"
#undef SIM_COST
};

const char *sim_cost_key(enum sim_cost_id id)
{
	return (unsigned)id < SIM_COST_NR ? cost_keys[id] : "?";
}

const char *sim_cost_what(enum sim_cost_id id)
{
	return (unsigned)id < SIM_COST_NR ? cost_what[id] : "?";
}

int sim_cost_parse_ns(const char *s, uint64_t *ps)
{
	uint64_t whole = 0, frac = 0;
	int nd = 0, nf = 0;

	for (; *s >= '0' && *s <= '9'; s++, nd++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		if (whole > 1000000000u)
			return -EINVAL;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, nf++) {
			if (nf == 3)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (!nf)
			return -EINVAL;
	}
	if (*s || !nd)
		return -EINVAL;
	while (nf++ < 3)
		frac *= 10;
	*ps = whole * 1000 + frac;
	return 0;
}

struct load_ctx {
	struct sim_cost c;
	bool seen[SIM_COST_NR];
	bool seen_name, seen_dram, seen_idle;
	char msg[256];
};

static int find_key(const char *name)
{
	for (int i = 0; i < SIM_COST_NR; i++)
		if (!strcmp(cost_keys[i], name))
			return i;
	return -1;
}

static int copy_field(char *dst, size_t n, const char *v, struct load_ctx *lc,
		      const char *name)
{
	if (strlen(v) >= n) {
		snprintf(lc->msg, sizeof(lc->msg), "[preset] %s is longer than %zu characters",
			 name, n - 1);
		return 0;
	}
	strcpy(dst, v);
	return 1;
}

/* A [platform] key; 0 (error at this line) with lc->msg set. */
static int platform_key(struct load_ctx *lc, const char *name, const char *value)
{
	bool *seen = !strcmp(name, "dram_latency_ns") ? &lc->seen_dram :
		     !strcmp(name, "cpuidle") ? &lc->seen_idle : NULL;

	if (!seen) {
		snprintf(lc->msg, sizeof(lc->msg), "unknown key '%.64s' in [platform] "
			 "(dram_latency_ns, cpuidle)", name);
		return 0;
	}
	if (*seen) {
		snprintf(lc->msg, sizeof(lc->msg), "[platform] %s given twice", name);
		return 0;
	}
	*seen = true;
	if (seen == &lc->seen_idle) {
		if (!sim_idle_table_find(value)) {
			snprintf(lc->msg, sizeof(lc->msg), "[platform] cpuidle: no table '%.32s' "
				 "(%s)", value, sim_idle_table_names());
			return 0;
		}
		snprintf(lc->c.cpuidle, sizeof(lc->c.cpuidle), "%s", value);
		return 1;
	}
	if (sim_cost_parse_ns(value, &lc->c.dram_latency_ps)) {
		snprintf(lc->msg, sizeof(lc->msg),
			 "[platform] dram_latency_ns: bad value '%.32s' (want ns, e.g. 66)", value);
		return 0;
	}
	return 1;
}

/* inih handler: returns 0 (error at this line) with lc->msg set. */
static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct load_ctx *lc = user;

	if (!strcmp(section, "preset")) {
		if (!strcmp(name, "name")) {
			lc->seen_name = true;
			return copy_field(lc->c.name, sizeof(lc->c.name), value, lc, name);
		}
		if (!strcmp(name, "description"))
			return copy_field(lc->c.description, sizeof(lc->c.description),
					  value, lc, name);
		if (!strcmp(name, "calibration"))
			return copy_field(lc->c.calibration, sizeof(lc->c.calibration),
					  value, lc, name);
		snprintf(lc->msg, sizeof(lc->msg), "unknown key '%.64s' in [preset]", name);
		return 0;
	}
	if (!strcmp(section, "cost")) {
		int k = find_key(name);

		if (k < 0) {
			snprintf(lc->msg, sizeof(lc->msg), "unknown cost '%.64s' in [cost]", name);
			return 0;
		}
		if (lc->seen[k]) {
			snprintf(lc->msg, sizeof(lc->msg), "cost '%s' given twice", name);
			return 0;
		}
		if (sim_cost_parse_ns(value, &lc->c.ps[k])) {
			snprintf(lc->msg, sizeof(lc->msg),
				 "cost '%s': bad value '%.32s' (want ns, e.g. 120 or 0.085)",
				 name, value);
			return 0;
		}
		lc->seen[k] = true;
		return 1;
	}
	if (!strcmp(section, "platform"))
		return platform_key(lc, name, value);
	snprintf(lc->msg, sizeof(lc->msg), "unknown section [%.64s]", section);
	return 0;
}

static int finish(struct sim_cost *c, struct load_ctx *lc, int rc,
		  const char *label, char *err, size_t errlen)
{
	if (rc > 0) {
		snprintf(err, errlen, "%s:%d: %s", label, rc,
			 lc->msg[0] ? lc->msg : "syntax error");
		return -EINVAL;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", label,
			 rc == -1 ? strerror(errno) : "out of memory");
		return rc == -1 ? -errno : -ENOMEM;
	}
	if (!lc->seen_name) {
		snprintf(err, errlen, "%s: [preset] name is missing", label);
		return -EINVAL;
	}
	for (int i = 0; i < SIM_COST_NR; i++) {
		if (!lc->seen[i]) {
			snprintf(err, errlen, "%s: cost '%s' is missing (%s)", label,
				 cost_keys[i], cost_what[i]);
			return -EINVAL;
		}
	}
	*c = lc->c;
	return 0;
}

int sim_cost_load_file(struct sim_cost *c, const char *path, char *err,
		       size_t errlen)
{
	struct load_ctx lc;
	int rc;

	memset(&lc, 0, sizeof(lc));
	errno = 0;
	rc = ini_parse(path, handler, &lc);
	if (rc == -1 && !errno)
		errno = ENOENT;
	return finish(c, &lc, rc, path, err, errlen);
}

int sim_cost_load_string(struct sim_cost *c, const char *text,
			 const char *label, char *err, size_t errlen)
{
	struct load_ctx lc;

	memset(&lc, 0, sizeof(lc));
	return finish(c, &lc, ini_parse_string(text, handler, &lc), label, err,
		      errlen);
}

void sim_cost_load_default(struct sim_cost *c)
{
	char err[256];

	/* The embedded preset is checked by the unit tests; failing here is a
	 * build defect, not a user error. */
	if (sim_cost_load_string(c, sim_cost_default_ini, "presets/default.ini",
				 err, sizeof(err))) {
		fprintf(stderr, "rxscale: built-in preset: %s\n", err);
		abort();
	}
}
