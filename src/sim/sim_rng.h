/* SPDX-License-Identifier: MIT */
/*
 * sim_rng.h - seeded pseudo-random streams owned by the simulation.
 *
 * Each component or flow draws from its own stream, derived from the run's
 * seed and a stream id, so adding a flow never shifts another flow's
 * numbers.  The generator is xoshiro256** (Blackman & Vigna, public
 * domain algorithm), seeded through splitmix64.  Never libc randomness,
 * never the wall clock.
 */
#ifndef RXSCALE_SIM_RNG_H
#define RXSCALE_SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

/* Stream @stream of run seed @seed.  Distinct (seed, stream) pairs give
 * independent-looking streams; the same pair always the same one. */
void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream);

/* Stream id from a name ("ksoftirqd", "flow3"), FNV-1a 64. */
uint64_t sim_rng_stream_id(const char *name);

/* Next 64 random bits. */
static inline uint64_t sim_rng_u64(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t res = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return res;
}

/* Uniform integer in [0, n), n >= 1, without modulo bias (Lemire). */
uint64_t sim_rng_below(struct sim_rng *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits. */
static inline double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_u64(r) >> 11) * 0x1.0p-53;
}

/* A Poisson-distributed count with mean @mean (>= 0): Knuth's product of
 * uniforms, in steps of mean 16 so that exp() never underflows; about
 * mean + 1 draws. */
uint64_t sim_rng_poisson(struct sim_rng *r, double mean);

/* Fill @len bytes at @buf. */
void sim_rng_bytes(struct sim_rng *r, void *buf, unsigned long len);

#endif /* RXSCALE_SIM_RNG_H */
