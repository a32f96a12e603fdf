/* SPDX-License-Identifier: MIT */
/*
 * sim_clock.h - a device's own oscillator.  Simulated time is the host's
 * clock (the one its tick and jiffies count); a device's timers and its
 * link run from a crystal of its own whose frequency is off by a few parts
 * per million, so a device interval of D ns of its own time takes
 * D x 10^9 / (10^9 + ppb) ns of host time and drifts against the tick.
 *
 * The bounds are the parts' specifications (sim_clock.c); the offset of
 * each device is drawn per run from the seed, uniformly within its bound
 * [I: the specifications bound the offset, they give no distribution].
 * An offset of 0 is the host's own clock: every conversion is then the
 * identity, so a model without drift is exactly the old one.
 */
#ifndef RXSCALE_SIM_CLOCK_H
#define RXSCALE_SIM_CLOCK_H

#include <stdint.h>

/* The oscillators' specified tolerances, ppm (sim_clock.c for sources). */
#define SIM_CLOCK_PCIE_PPM 300u         /* PCIe REFCLK: an xHC's timers */
#define SIM_CLOCK_USB3_PPM 300u         /* USB 3.x SuperSpeed bit clock */
#define SIM_CLOCK_ETH_PPM 100u          /* 10GBASE-T/NBASE-T symbol clock */

struct sim_clock {
	int32_t ppb;    /* frequency offset against the host, 10^-9 */
};

/* Host picoseconds that @dev_ps of the device's own time take, rounded
 * to the nearest picosecond. */
static inline uint64_t sim_clock_ps(const struct sim_clock *c, uint64_t dev_ps)
{
	unsigned __int128 num;
	uint64_t den;

	if (!c || !c->ppb)
		return dev_ps;
	den = (uint64_t)(1000000000 + (int64_t)c->ppb);
	num = (unsigned __int128)dev_ps * 1000000000u + den / 2;
	return (uint64_t)(num / den);
}

/* The same for nanoseconds. */
static inline uint64_t sim_clock_ns(const struct sim_clock *c, uint64_t dev_ns)
{
	return (sim_clock_ps(c, dev_ns * 1000u) + 500u) / 1000u;
}

/*
 * Draw the offset of the device named @name for run seed @seed: uniform
 * in [-bound_ppm, +bound_ppm], in ppb, from the seed's stream
 * "clock.NAME".  @on false: 0 (the host's clock).
 */
struct sim_clock sim_clock_draw(uint64_t seed, const char *name,
				unsigned bound_ppm, int on);

#endif /* RXSCALE_SIM_CLOCK_H */
