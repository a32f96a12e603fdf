// SPDX-License-Identifier: MIT
/*
 * cli_vfio.c - rxscale vfio-user: serve a PCIe NIC model to QEMU as a
 * vfio-user PCI device, in real time, with a wire to real traffic.
 *
 *   rxscale vfio-user --socket PATH [--chip NAME]
 *                     [--tap IFNAME | --peer-socket PATH2 | --peer-ip A.B.C.D]
 *                     [--seconds N] [--quiet] [--ownbit-erratum[=NS]]
 *
 * QEMU (>= 10.1) starts with its guest RAM shared (a memory backend with
 * share=on) and `-device '{"driver":"vfio-user-pci","socket":{"path":
 * "PATH","type":"unix"}}'`.  Its guest's PCI core reads the model's
 * configuration space, its driver (mainline r8169 or rxscale's module)
 * programs the registers, the model DMAs into guest RAM and raises MSI-X
 * vectors.  The model's clock is the wall clock (src/bridge/br_rt.h), its
 * timers and pipelines run on a thread of their own, concurrently with the
 * guest's vCPUs.  Its wire goes to a TAP device (--tap: the host's real
 * stack, iperf3, ping and tcpdump are the peer; run this command in the
 * network namespace the TAP lives in), to a second NIC model served at
 * PATH2 to a second guest (--peer-socket), or to a responder that answers
 * ARP and ping for --peer-ip (default 10.0.0.2).  The command ends when
 * every guest has connected and gone, after --seconds (default 600), or
 * on SIGINT/SIGTERM, and prints the counters.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/br_rt.h"
#include "bridge/br_tap.h"
#include "bridge/br_vfio.h"
#include "cli/cli.h"
#include "cli/cli_guest.h"
#include "load/load_responder.h"
#include "load/load_wire.h"
#include "model/rtlm.h"
#include "plat/plat_mem.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

struct vfio_nic {
	struct rtlm_dev *m;
	struct br_vfio v;
	struct vfio_nic *cable;         /* the other NIC on the wire, or NULL */
	struct br_tap *tap;             /* or the host's TAP */
	struct load_responder *peer;    /* or the responder */
	struct load_wire wire;          /* to the TAP or the responder */
	bool wired;
	uint64_t tx_frames, rx_offered;
	bool up;                        /* br_vfio_init succeeded */
};

struct vfio_world {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct br_rt rt;
	struct vfio_nic nic[2];
	unsigned n;
	struct br_tap tap;
	bool tap_open;
	struct load_responder peer;
};

static volatile sig_atomic_t vfio_stop;

static void on_signal(int sig)
{
	(void)sig;
	vfio_stop = 1;
}

/* Offer @frame to @nic's MAC (device lock held). */
static void nic_rx(struct vfio_nic *nic, const uint8_t *frame, size_t len)
{
	nic->rx_offered++;
	rtlm_eth_rx(nic->m, frame, len);        /* a refusal is a model drop */
}

/* A frame from the host's TAP: onto the wire towards the NIC, at line
 * rate behind the frames before it (device lock held). */
static int tap_rx(void *opaque, const uint8_t *frame, size_t len)
{
	struct vfio_nic *nic = opaque;

	if (load_wire_peer_backlog(&nic->wire) >= LOAD_WIRE_PEER_QLEN)
		return -EAGAIN;
	if (!load_wire_peer_send(&nic->wire, frame, len))
		return -EAGAIN;
	nic->rx_offered++;
	return 0;
}

/* A frame the NIC sent to its cable partner (the model paces its
 * transmitter at line rate; device lock held). */
static void cable_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct vfio_nic *nic = arg;

	nic->tx_frames++;
	nic_rx(nic->cable, frame, len);
}

/* A frame that crossed the wire from the NIC to the TAP or the responder. */
static void peer_rx(void *arg, const uint8_t *frame, size_t len)
{
	struct vfio_nic *nic = arg;
	uint8_t reply[1600];
	size_t n;

	nic->tx_frames++;
	if (nic->tap) {
		br_tap_tx(nic->tap, frame, len);
		return;
	}
	n = load_responder_rx(nic->peer, frame, len, reply, sizeof(reply));
	if (n && load_wire_peer_send(&nic->wire, reply, n))
		nic->rx_offered++;
}

/* The NIC's wire to a peer host (TAP or responder) at the chip's rate. */
static int nic_wire(struct vfio_world *w, struct vfio_nic *nic)
{
	struct load_wire_nic port = load_wire_nic_rtlm(nic->m);

	if (load_wire_init(&nic->wire, &w->sim, &port, rtlm_chip(nic->m)->caps->speed_mbps,
			   0, peer_rx, nic))
		return -EINVAL;
	nic->wired = true;
	return 0;
}

static void usage(FILE *out)
{
	fputs("usage: rxscale vfio-user --socket PATH [--chip NAME]\n"
	      "                         [--tap IFNAME | --peer-socket PATH2 | --peer-ip A.B.C.D]\n"
	      "                         [--seconds N] [--quiet] [--ownbit-erratum[=NS]]\n"
	      "\n"
	      "Serve a PCIe NIC model (default RTL8127A) to QEMU as a vfio-user PCI\n"
	      "device on unix socket PATH, in real time.  Start QEMU (>= 10.1) with\n"
	      "shared guest RAM (-object memory-backend-memfd,id=mem,size=1G,share=on\n"
	      "-machine q35,memory-backend=mem) and\n"
	      "-device '{\"driver\":\"vfio-user-pci\",\"socket\":{\"path\":\"PATH\",\"type\":\"unix\"}}'.\n"
	      "The NIC's wire: --tap IFNAME, a TAP device (the host's own stack is the\n"
	      "peer: run in the TAP's network namespace); --peer-socket PATH2, a second\n"
	      "NIC model served at PATH2 to a second QEMU; otherwise a responder that\n"
	      "answers ARP and ping for --peer-ip (default 10.0.0.2).  Ends when every\n"
	      "guest has come and gone, after --seconds (default 600) or on SIGTERM.\n"
	      "--ownbit-erratum turns on the RTL8127 descriptor-OwnBit erratum (an RX\n"
	      "write-back lands at the host's next MMIO read or NS, default 2000, after\n"
	      "the interrupt).\n", out);
}

static int nic_start(struct vfio_world *w, unsigned i, const struct rtl_chip_info *chip,
		     const char *sock, bool quiet, long ownbit_ns)
{
	struct vfio_nic *nic = &w->nic[i];
	int rc;

	nic->m = cli_guest_model(w->host, &w->mem, chip, i, ownbit_ns);
	if (!nic->m)
		return -ENOMEM;
	w->n = i + 1;
	rc = br_vfio_init(&nic->v, rtlm_pci(nic->m), &w->rt, sock);
	if (rc) {
		cli_err("%s: cannot serve vfio-user: %s", sock, nic->v.last_error);
		return rc;
	}
	nic->up = true;
	nic->v.quiet = quiet;
	printf("rxscale vfio-user: nic%u %s (10ec:%04x, MAC 00:e0:4c:68:00:%02x) on %s; start "
	       "QEMU with -device '{\"driver\":\"vfio-user-pci\",\"socket\":{\"path\":\"%s\","
	       "\"type\":\"unix\"}}'\n", i, chip->name, chip->caps->pci_device, i + 1, sock,
	       sock);
	return 0;
}

static void report(struct vfio_world *w)
{
	for (unsigned i = 0; i < w->n; i++) {
		struct vfio_nic *nic = &w->nic[i];
		const struct br_vfio *v = &nic->v;

		printf("nic%u vfio-user: %llu config reads, %llu config writes, %llu MMIO reads, "
		       "%llu MMIO writes, %llu interrupts, %llu not delivered, %llu DMA regions "
		       "mapped, %llu guest errors, %llu DMA errors\n", i,
		       (unsigned long long)v->cfg_reads, (unsigned long long)v->cfg_writes,
		       (unsigned long long)v->mmio_reads, (unsigned long long)v->mmio_writes,
		       (unsigned long long)v->irqs, (unsigned long long)v->irq_errors,
		       (unsigned long long)v->dma_maps, (unsigned long long)v->guest_errors,
		       (unsigned long long)v->dma_errors);
		printf("nic%u vfio-user: %llu device resets (each a function-level reset of "
		       "the model)\n", i, (unsigned long long)v->resets);
		cli_guest_report_model(nic->m, i, nic->tx_frames, nic->rx_offered);
		if (v->last_error[0])
			printf("nic%u vfio-user: last error: %s\n", i, v->last_error);
	}
	if (w->tap_open)
		printf("tap %s: %llu frames (%llu bytes) from the host, %llu frames (%llu bytes) "
		       "to it, %llu dropped (TAP queue full), %llu runts, %llu waits for the wire%s%s\n",
		       w->tap.name,
		       (unsigned long long)w->tap.rx_frames, (unsigned long long)w->tap.rx_bytes,
		       (unsigned long long)w->tap.tx_frames, (unsigned long long)w->tap.tx_bytes,
		       (unsigned long long)w->tap.tx_dropped, (unsigned long long)w->tap.rx_runts,
		       (unsigned long long)w->tap.rx_waits, w->tap.last_error[0] ? "; " : "", w->tap.last_error);
	else if (w->n == 1)
		printf("peer: %llu ARP replies, %llu echo replies, %llu ignored, %llu malformed\n",
		       (unsigned long long)w->peer.arp_replies,
		       (unsigned long long)w->peer.echo_replies,
		       (unsigned long long)w->peer.ignored,
		       (unsigned long long)w->peer.malformed);
	printf("real time: %.3f s, %llu events, %llu clock wake-ups, latest event %.3f ms "
	       "behind its time, %llu more than 1 ms late\n",
	       (double)sim_now(&w->sim) / 1e9, (unsigned long long)w->rt.events,
	       (unsigned long long)w->rt.steps, (double)w->rt.late_max_ns / 1e6,
	       (unsigned long long)w->rt.late_1ms);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int cli_vfio(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "peer-socket", required_argument, NULL, 'P' },
		{ "tap", required_argument, NULL, 'T' },
		{ "chip", required_argument, NULL, 'c' },
		{ "peer-ip", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "ownbit-erratum", optional_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	const char *sock = NULL, *sock2 = NULL, *tap = NULL;
	const struct rtl_chip_info *chip = cli_chip_named("RTL8127A");
	struct sim_host_params hp;
	struct vfio_world *w;
	unsigned long seconds = 600;
	bool quiet = false, rt_up = false;
	long ownbit_ns = -1;
	uint64_t t0;
	struct cli_guest_opts g;
	int opt, rc = 0;

	w = calloc(1, sizeof(*w));
	if (!w) {
		cli_err("out of memory");
		return 1;
	}
	memcpy(w->peer.mac, peer_mac, 6);
	cli_parse_ip4("10.0.0.2", w->peer.ip);
	g = (struct cli_guest_opts){ .chip = chip, .peer_ip = w->peer.ip,
				     .seconds = seconds, .ownbit_ns = ownbit_ns };
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int r = cli_guest_opt(&g, opt, optarg);

		if (r < 0) {
			free(w);
			return CLI_EXIT_USAGE;
		}
		if (r)
			continue;
		switch (opt) {
		case 's':
			sock = optarg;
			break;
		case 'P':
			sock2 = optarg;
			break;
		case 'T':
			tap = optarg;
			break;
		case 'h':
			usage(stdout);
			free(w);
			return 0;
		default:
			usage(stderr);
			free(w);
			return CLI_EXIT_USAGE;
		}
	}
	chip = g.chip;
	seconds = g.seconds;
	quiet = g.quiet;
	ownbit_ns = g.ownbit_ns;
	if (!sock || optind != argc || (tap && sock2)) {
		if (!sock)
			cli_err("--socket PATH is required");
		else if (optind != argc)
			cli_err("unexpected argument '%s'", argv[optind]);
		else
			cli_err("--tap and --peer-socket both name the wire's other end: "
				"give one");
		free(w);
		return CLI_EXIT_USAGE;
	}

	sim_init(&w->sim);
	sim_cost_load_default(&w->cost);
	sim_host_params_default(&hp, 1);
	w->host = sim_host_create(&w->sim, &w->cost, &hp);
	plat_mem_init(&w->mem);
	if (!w->host || br_rt_init(&w->rt, &w->sim)) {
		cli_err("cannot set up the real-time platform");
		rc = 1;
		goto out;
	}
	rt_up = true;
	if (nic_start(w, 0, chip, sock, quiet, ownbit_ns) ||
	    (sock2 && nic_start(w, 1, chip, sock2, quiet, ownbit_ns))) {
		rc = 1;
		goto out;
	}
	if (sock2) {
		w->nic[0].cable = &w->nic[1];
		w->nic[1].cable = &w->nic[0];
		rtlm_set_wire_tx(w->nic[0].m, cable_tx, &w->nic[0]);
		rtlm_set_wire_tx(w->nic[1].m, cable_tx, &w->nic[1]);
	} else if (nic_wire(w, &w->nic[0])) {
		cli_err("cannot set up the wire");
		rc = 1;
		goto out;
	} else if (tap) {
		int r = br_tap_open(&w->tap, tap, &w->rt, tap_rx, &w->nic[0]);

		if (r) {
			cli_err("--tap %s: %s", tap, strerror(-r));
			rc = 1;
			goto out;
		}
		w->tap_open = true;
		w->nic[0].tap = &w->tap;
		printf("rxscale vfio-user: nic0's wire is TAP %s\n", w->tap.name);
	} else {
		w->nic[0].peer = &w->peer;
	}
	fflush(stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (br_rt_start(&w->rt)) {
		cli_err("cannot start the clock thread");
		rc = 1;
		goto out;
	}
	for (unsigned i = 0; i < w->n; i++)
		if (br_vfio_start(&w->nic[i].v)) {
			cli_err("cannot start the vfio-user thread");
			rc = 1;
			goto out;
		}
	if (w->tap_open && br_tap_start(&w->tap)) {
		cli_err("cannot start the TAP reader");
		rc = 1;
		goto out;
	}
	t0 = br_rt_now(&w->rt);
	while (!vfio_stop) {
		unsigned gone = 0;

		sleep_ms(50);
		br_rt_enter(&w->rt);
		for (unsigned i = 0; i < w->n; i++)
			gone += w->nic[i].v.gone;
		br_rt_leave(&w->rt);
		if (gone == w->n) {
			printf("rxscale vfio-user: every guest came and went\n");
			break;
		}
		if (br_rt_now(&w->rt) - t0 >= (uint64_t)seconds * 1000000000u) {
			printf("rxscale vfio-user: --seconds %lu reached\n", seconds);
			break;
		}
	}
	if (vfio_stop)
		printf("rxscale vfio-user: stopped by a signal\n");
out:
	if (w->tap_open)
		br_tap_close(&w->tap);
	for (unsigned i = 0; i < w->n; i++)
		if (w->nic[i].up)
			br_vfio_fini(&w->nic[i].v);
	if (rt_up) {
		br_rt_stop(&w->rt);
		if (w->nic[0].up)
			report(w);
		for (unsigned i = 0; i < w->n; i++)
			if (w->nic[i].v.failed)
				rc = 1;
		br_rt_fini(&w->rt);
	}
	for (unsigned i = 0; i < w->n; i++) {
		if (w->nic[i].wired)
			load_wire_fini(&w->nic[i].wire);
		rtlm_destroy(w->nic[i].m);
	}
	if (w->host)
		sim_host_destroy(w->host);
	plat_mem_fini(&w->mem);
	sim_fini(&w->sim);
	free(w);
	return rc;
}
