// SPDX-License-Identifier: MIT
/* sim_cpuset.c - sets of CPU ids: fill, count, iterate, parse a cpulist. */
#include <errno.h>

#include "sim/sim_host.h"

void sim_cpuset_first_n(struct sim_cpuset *s, unsigned n)
{
	sim_cpuset_zero(s);
	for (unsigned i = 0; i < n && i < SIM_CPUS_MAX; i++)
		sim_cpuset_set(s, i);
}

unsigned sim_cpuset_weight(const struct sim_cpuset *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < SIM_CPUS_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

unsigned sim_cpuset_next(const struct sim_cpuset *s, unsigned from)
{
	for (unsigned c = from; c < SIM_CPUS_MAX; c++)
		if (sim_cpuset_test(s, c))
			return c;
	return SIM_CPUS_MAX;
}

static int parse_uint(const char **p, unsigned *v)
{
	unsigned long x = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		x = x * 10 + (unsigned long)(*s - '0');
		if (x >= SIM_CPUS_MAX)
			return -EINVAL;
	}
	*v = (unsigned)x;
	*p = s;
	return 0;
}

int sim_cpuset_parse(struct sim_cpuset *s, const char *list, unsigned ncpus)
{
	struct sim_cpuset r;
	const char *p = list;

	sim_cpuset_zero(&r);
	for (;;) {
		unsigned a, b;

		if (parse_uint(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &b) || b < a)
				return -EINVAL;
		}
		if (b >= ncpus)
			return -EINVAL;
		for (unsigned c = a; c <= b; c++)
			sim_cpuset_set(&r, c);
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*s = r;
	return 0;
}
