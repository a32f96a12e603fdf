// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "sim/sim_rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;    /* the all-zero state is a fixed point */
}

uint64_t sim_rng_stream_id(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return h;
}

uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)sim_rng_u64(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)sim_rng_u64(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* One Poisson count of mean @mean <= 16 with @limit = exp(-mean). */
static uint64_t poisson_small(struct sim_rng *r, double limit)
{
	double prod = sim_rng_unit(r);
	uint64_t n = 0;

	while (prod > limit) {
		prod *= sim_rng_unit(r);
		n++;
	}
	return n;
}

uint64_t sim_rng_poisson(struct sim_rng *r, double mean)
{
	static const double step = 16.0;
	uint64_t n = 0;

	if (!(mean > 0))
		return 0;
	/* a sum of independent Poisson counts is Poisson of the summed mean */
	for (; mean > step; mean -= step)
		n += poisson_small(r, 1.1253517471925912e-07);  /* exp(-16) */
	return n + poisson_small(r, exp(-mean));
}

void sim_rng_bytes(struct sim_rng *r, void *buf, unsigned long len)
{
	unsigned char *p = buf;

	while (len) {
		uint64_t v = sim_rng_u64(r);
		unsigned long k = len < 8 ? len : 8;

		memcpy(p, &v, k);
		p += k;
		len -= k;
	}
}
