// SPDX-License-Identifier: MIT
/*
 * sim_clock.c - drawing a device oscillator's offset (sim_clock.h).
 *
 * The bounds, from the specifications the parts are built to:
 *  - SIM_CLOCK_PCIE_PPM: the PCI Express reference clock is 100 MHz
 *    +-300 ppm (PCI Express Card Electromechanical Specification, REFCLK);
 *    an xHCI controller's interval timers (IMOD counts 250 ns units, xHCI
 *    1.2 s5.5.2.2) run from the controller's clock, which a PCIe host
 *    controller derives from it;
 *  - SIM_CLOCK_USB3_PPM: a SuperSpeed link's bit clock is +-300 ppm of
 *    its nominal rate (USB 3.2 specification, chapter 6, physical layer);
 *    spread-spectrum clocking (down-spread of up to 5000 ppm) is not
 *    modelled: whether a port enables it is the platform's choice;
 *  - SIM_CLOCK_ETH_PPM: a 10GBASE-T transmitter's symbol rate is 800
 *    Mbaud +-100 ppm (IEEE 802.3 clause 55), and 2.5G/5GBASE-T's are
 *    bounded the same (clause 126); the MAC's timers run from the same
 *    crystal as its PHY [I: one crystal per NIC, as on the RTL8125/8127
 *    reference boards].
 */
#include "sim/sim_clock.h"
#include "sim/sim_rng.h"

#include <stdio.h>

struct sim_clock sim_clock_draw(uint64_t seed, const char *name,
				unsigned bound_ppm, int on)
{
	struct sim_clock c = { 0 };
	struct sim_rng r;
	char stream[64];
	uint64_t span = 2ull * bound_ppm * 1000u + 1u;

	if (!on || !bound_ppm)
		return c;
	snprintf(stream, sizeof(stream), "clock.%s", name);
	sim_rng_init(&r, seed, sim_rng_stream_id(stream));
	c.ppb = (int32_t)((int64_t)sim_rng_below(&r, span) - (int64_t)bound_ppm * 1000);
	return c;
}
