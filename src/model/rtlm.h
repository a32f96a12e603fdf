/* SPDX-License-Identifier: MIT */
/*
 * rtlm.h - register-level model of the RTL8125/8126/8127 family: the
 * device half of the seam (DESIGN.md s2).
 *
 * The model owns one platform PCI function (plat_pci.h) with a 64 KiB
 * memory BAR 0 decoded through the register table of src/hw
 * (rtl_regs.def).  It sees the host only as the platform lets it: MMIO
 * accesses arrive through the BAR handlers, it reads and writes host
 * memory by bus address (plat_pci_dma_*), and it signals interrupts with
 * plat_pci_msix_notify() / plat_pci_intx_set().  It never calls a driver.
 * Chip differences come only from the struct rtl_chip_info row.
 *
 * Units: times are sim_time_t nanoseconds, sizes bytes.  Errors are
 * -errno.  Every hardware fact cites ../shared/research/rtl8127-hw.md
 * ("s4.3" = its section 4.3) or the src/hw row that carries it; choices
 * where the research says [I] or gap are listed in docs/model.md.
 *
 * A misprogramming driver is forgiven: an unknown register, a write to a
 * read-only one, a bad access size, a ring or buffer address that is not
 * DMA-visible are "guest errors" -- counted in rtlm_stats.guest_errors,
 * the last message kept (rtlm_last_error()) and passed to the log hook,
 * and the access ignored.  Nothing the host does makes the model abort.
 *
 * Accounting: every frame handed to rtlm_eth_rx() is, at any instant,
 * either in the RX pipeline (rtlm_stats.rx_inflight), delivered to a ring
 * (rx_ok[q]) or counted in exactly one drop counter (rtlm_rx_dropped()).
 */
#ifndef RXSCALE_MODEL_RTLM_H
#define RXSCALE_MODEL_RTLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/rtl_chips.h"
#include "net/net_build.h"
#include "plat/plat_mem.h"
#include "plat/plat_pci.h"
#include "sim/sim_clock.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

struct rtlm_dev;

/*
 * Fault injection knobs (netdevsim style): read and changed at any time
 * through rtlm_faults(); each takes effect from the next event it
 * concerns.  All zero = a well-behaved chip.
 */
struct rtlm_faults {
	/*
	 * RTL8127 OwnBit erratum (s6, RTL_QUIRK_OWNBIT_ERRATUM): the RX
	 * interrupt is raised before the descriptor's opts1 write-back
	 * (the one that clears OWN) reaches host memory.  The held write
	 * lands on the next MMIO read of the BAR by the host (a read
	 * completion pushes earlier posted writes) or @ownbit_delay_ns
	 * after the interrupt, whichever comes first.  Later write-backs
	 * queue behind a held one (PCIe posted writes stay ordered).
	 * Works on any chip; rtlm_params_default() turns it on for chips
	 * with the quirk only if asked (see rtlm_params.ownbit_auto).
	 */
	bool ownbit_erratum;
	unsigned ownbit_every;		/* hold every Nth write-back; 0 = 1 */
	sim_time_t ownbit_delay_ns;	/* default 2000 */
	/* Extra latency on every device-to-host write (RX data and
	 * write-back, tally dump). */
	sim_time_t dma_write_delay_ns;
	/* Lost MSI/MSI-X messages: drop the next @msix_drop_next, and
	 * every @msix_drop_every-th one (0 = off).  A lost message is not
	 * re-sent: the vector stays silent until its status falls and
	 * rises again, as on real hardware. */
	unsigned msix_drop_next;
	unsigned msix_drop_every;
	/* Ring exhaustion: bit q set = RX queue q finds no free descriptor
	 * (every frame steered there is dropped as rx_missed with RDU). */
	uint32_t rx_ring_full;
	/* A hung TX engine: doorbells are ignored and nothing more is
	 * fetched or sent until ChipCmd RST, which clears this (the TX hangs
	 * that mainline r8169 answers with a chip reset from its TX
	 * timeout, rtl8169_tx_timeout). */
	bool tx_hang;
};

/* Device parameters; start from rtlm_params_default(). */
struct rtlm_params {
	uint8_t mac[6];			/* EEPROM station address -> MAC0/MAC4 */
	bool link_up;			/* link state at power-on */
	uint32_t link_mbps;		/* 0 = the chip's line rate */
	/* Autonegotiation time: a restart (BMCR restart, PHY reset, power
	 * up) with the wire up takes the link down and brings it back this
	 * long after (docs/model.md; default 2 s). */
	sim_time_t an_ns;
	/*
	 * Timing (src/hw has none; see docs/model.md for the reasoning).
	 * RX: a frame fully received at the MAC at t is in host memory,
	 * with its descriptor written back and its status raised, at
	 * t + rx_proc_ns + dma_write_ns (+ faults.dma_write_delay_ns).
	 * TX: a doorbell at t puts the first frame on the wire at
	 * t + tx_proc_ns + 2 * dma_read_ns (descriptor fetch, then data);
	 * following frames leave back to back at the link rate.
	 */
	sim_time_t rx_proc_ns;		/* MAC -> DMA engine: parse, RSS, FIFO */
	sim_time_t dma_write_ns;	/* posted write until visible in memory */
	sim_time_t dma_read_ns;		/* non-posted read round trip */
	sim_time_t tx_proc_ns;		/* doorbell -> first descriptor fetch */
	/* The NIC's crystal (sim_clock.h): its moderation timers and its
	 * transmitter's bit time are in its own time. */
	struct sim_clock clock;
	unsigned rx_fifo_frames;	/* frames the RX pipeline holds */
	/* Write each frame's real CRC-32 FCS after it in host memory (the
	 * descriptor length includes it, as on the chip).  false writes four
	 * zero bytes instead: drivers strip the FCS unread, and computing it
	 * is a third of a 10 Gbit/s simulation's time. */
	bool rx_fcs;
	/* A speed shortcut like rx_fcs: true when every frame offered is
	 * known to carry correct IPv4/TCP/UDP checksums (rxscale run's own
	 * peer builds them with net_build, whose sums the tests check), so
	 * RX checksum offload marks them good without summing.  Never for
	 * captures or tests of the checksum path.  Default false. */
	bool rx_csum_trusted;
	struct rtlm_faults faults;
};

/* Counters kept by the model (the host sees the tally block instead). */
struct rtlm_stats {
	uint64_t guest_errors;
	/* RX: offered = sum(rx_ok) + rtlm_rx_dropped() + rx_inflight */
	uint64_t rx_offered;
	uint64_t rx_inflight;		/* in the pipeline right now */
	uint64_t rx_ok[RTL_MAX_RX_QUEUES];
	uint64_t rx_bytes[RTL_MAX_RX_QUEUES];	/* incl. FCS, after VLAN strip */
	/* drops, each frame in exactly one */
	uint64_t rx_missed[RTL_MAX_RX_QUEUES];	/* no free descriptor (RDU) */
	uint64_t rx_dma_err[RTL_MAX_RX_QUEUES];	/* ring/buffer not DMA-visible */
	uint64_t rx_buf_small[RTL_MAX_RX_QUEUES];	/* frame > buffer size */
	uint64_t rx_link_down;		/* arrived with the link down */
	uint64_t rx_disabled;		/* ChipCmd RE clear */
	uint64_t rx_filtered;		/* RxConfig address filter */
	uint64_t rx_too_long;		/* > RxMaxSize or > 16383 - FCS */
	uint64_t rx_fifo_over;		/* pipeline full (RxFIFOOver) */
	uint64_t rx_reset;		/* in the pipeline at a chip reset */
	/* not a drop: frames whose indirection entry named a ring that is
	 * not enabled, delivered to queue 0 (a guest error each) */
	uint64_t rx_bad_indir;
	/* TX */
	uint64_t tx_ok[RTL_MAX_TX_QUEUES];
	uint64_t tx_bytes[RTL_MAX_TX_QUEUES];
	uint64_t tx_err[RTL_MAX_TX_QUEUES];	/* bad chain, DMA fault, too long */
	uint64_t tx_link_down;		/* sent while the link was down */
	/* interrupts */
	uint64_t msix_sent[RTL_MSIX_MAX_IDS];	/* messages signalled */
	uint64_t msix_dropped;		/* lost by faults.msix_drop_* */
	uint64_t moder_deferred;	/* messages delayed by INT_MITI timers */
	uint64_t moder_frames_early;	/* RX hold-offs ended by the frame
					   threshold, INT_MITI byte 1 [I] */
	/* OwnBit erratum */
	uint64_t ownbit_held;		/* write-backs held back */
	uint64_t ownbit_flush_mmio;	/* landed because of an MMIO read */
	uint64_t ownbit_flush_timer;	/* landed after ownbit_delay_ns */
	uint64_t resets;		/* ChipCmd RST */
};

/* Defaults: MAC 00:e0:4c:68:00:01, link up at the chip rate,
 * rx_proc_ns 300, dma_write_ns 400, dma_read_ns 800, tx_proc_ns 200,
 * rx_fifo_frames 512, rx_fcs on, faults off (ownbit_delay_ns 2000). */
void rtlm_params_default(struct rtlm_params *p);

/**
 * rtlm_create() - power on a chip.
 * @host: the simulated host (its engine schedules the model's events)
 * @mem:  host memory the device DMAs into
 * @chip: the chip row (rtl_chips[]); TxConfig reads back its XID
 * @p:    parameters, copied; NULL = rtlm_params_default()
 *
 * Registers a PCI function 10ec:<chip->caps->pci_device> with chip->caps->msix_max
 * MSI-X entries, an I/O BAR 0 and the registers in memory BAR 2
 * (RTL_BAR_MMIO, RTL_BAR_SIZE bytes), in the reset state.
 * Return: the device, or NULL (bad arguments, out of memory).
 */
struct rtlm_dev *rtlm_create(struct sim_host *host, struct plat_mem *mem,
			     const struct rtl_chip_info *chip,
			     const struct rtlm_params *p);

/** rtlm_destroy() - cancel every pending event, unregister, free. */
void rtlm_destroy(struct rtlm_dev *dev);

/** rtlm_pci() - the device's PCI function (BAR 0, MSI-X table). */
struct plat_pci_dev *rtlm_pci(struct rtlm_dev *dev);

/** rtlm_chip() - the chip row it was created with. */
const struct rtl_chip_info *rtlm_chip(const struct rtlm_dev *dev);

/**
 * rtlm_eth_rx() - a frame arrives from the wire now (fully received).
 * @frame: Ethernet frame from the destination MAC, without FCS; a frame
 *         shorter than 60 bytes is zero-padded (the sender's job)
 * @len:   bytes, 1..RTL_RX_LEN_MASK - 4
 *
 * The frame is classified (address filter, RSS) now and lands in its
 * queue's ring rx_proc_ns + dma_write_ns later.
 * Return: 0 accepted into the RX pipeline; -ENETDOWN (link down),
 * -EAGAIN (receiver disabled), -EMSGSIZE (too long), -EPERM (filtered),
 * -ENOBUFS (pipeline full) -- each such frame counted in its drop
 * counter; -EINVAL for no frame at all (len 0, NULL; not counted).
 * Drops at the ring (no descriptor...) happen later and are only counted.
 */
int rtlm_eth_rx(struct rtlm_dev *dev, const void *frame, size_t len);

/**
 * rtlm_eth_rx_src() - as rtlm_eth_rx() for a frame given by its headers
 * @hdr (the first @len bytes of the frame, payload bytes possibly not
 * written) and its builder @src.  Where nothing at arrival needs the
 * payload (no FCS computed, checksums trusted, no VLAN stripping), the
 * model keeps the builder instead of a copy and builds the frame straight
 * into the host buffer its DMA writes: the frame's bytes are written
 * once.  Otherwise it builds the frame at once and takes the
 * rtlm_eth_rx() path.  Same result either way.
 */
int rtlm_eth_rx_src(struct rtlm_dev *dev, const void *hdr, size_t len,
		    const struct net_frame_src *src);

/* Called with each transmitted frame (no FCS) at the instant it starts
 * on the wire. */
typedef void (*rtlm_wire_tx_fn)(void *arg, const uint8_t *frame, size_t len);

/** rtlm_set_wire_tx() - where TX frames go (NULL: they are counted and
 * discarded). */
void rtlm_set_wire_tx(struct rtlm_dev *dev, rtlm_wire_tx_fn fn, void *arg);

/**
 * rtlm_set_link() - the PHY reports link @up at @mbps (0 = chip rate).
 * Updates PHYstatus (0x6C) and, when the state changes, raises LinkChg
 * (legacy ISR bit 5, or the chip's link message id in the V2 model).
 * Return: 0, or -EINVAL for a speed the chip does not support.
 */
int rtlm_set_link(struct rtlm_dev *dev, bool up, uint32_t mbps);

/** rtlm_faults() - the live fault knobs (change them at any time). */
struct rtlm_faults *rtlm_faults(struct rtlm_dev *dev);

/** rtlm_stats() - the model's counters. */
const struct rtlm_stats *rtlm_stats(const struct rtlm_dev *dev);

/** rtlm_rx_dropped() - the sum of every RX drop counter. */
uint64_t rtlm_rx_dropped(const struct rtlm_dev *dev);

/** rtlm_last_error() - text of the latest guest error ("" if none). */
const char *rtlm_last_error(const struct rtlm_dev *dev);

/* Accesses to offsets the register table does not know, and writes to
 * its read-only rows, per offset; and accesses to MAC OCP and PHY OCP
 * addresses no row of src/hw/rtl_ocp.def names: what a real driver
 * touches that the model does not model (each BAR one is also a guest
 * error; OCP addresses are still stored and read back).  Every offset is
 * kept, in first-touch order. */
enum rtlm_unknown_space {
	RTLM_UNKNOWN_BAR,	/* BAR 2 register offsets */
	RTLM_UNKNOWN_MAC_OCP,	/* MAC OCP addresses (window 0xB0) */
	RTLM_UNKNOWN_PHY_OCP,	/* PHY OCP addresses (window 0xB8) */
	RTLM_UNKNOWN__SPACES
};

struct rtlm_unknown_reg {
	uint32_t off;
	uint32_t reads, writes;
	uint32_t last_write;    /* the value of the latest write */
};

/** rtlm_unknown_regs() - the unknown BAR offsets touched, in first-touch
 * order; *@n gets their number. */
const struct rtlm_unknown_reg *rtlm_unknown_regs(const struct rtlm_dev *dev,
						  unsigned *n);

/** rtlm_unknown_in() - the same for any space (BAR, MAC OCP, PHY OCP). */
const struct rtlm_unknown_reg *rtlm_unknown_in(const struct rtlm_dev *dev,
					       enum rtlm_unknown_space sp,
					       unsigned *n);

/** rtlm_set_log() - also pass each guest error message to @fn (NULL:
 * only count and keep the last one).  The model never prints. */
void rtlm_set_log(struct rtlm_dev *dev,
		  void (*fn)(void *arg, const char *msg), void *arg);

#endif /* RXSCALE_MODEL_RTLM_H */
