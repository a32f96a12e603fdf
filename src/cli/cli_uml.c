// SPDX-License-Identifier: MIT
/*
 * cli_uml.c - rxscale uml: serve a PCIe NIC model to a real Linux kernel
 * (User-Mode Linux, virt-pci over vhost-user), with a peer on its wire.
 *
 *   rxscale uml --socket PATH [--peer-socket PATH2] [--chip NAME]
 *               [--peer-ip A.B.C.D] [--seconds N] [--quiet]
 *
 * The kernel is started with virtio_uml.device=PATH:1234 (the device id
 * its UML_PCI_OVER_VIRTIO_DEVICE_ID was built with).  Its PCI core reads
 * the model's configuration space, its driver (mainline r8169 or rxscale's
 * module) programs the registers, DMAs into the guest's memory and takes
 * MSI-X messages; frames the NIC sends go to a peer that answers ARP and
 * ping for --peer-ip (default 10.0.0.2).  With --peer-socket a second NIC
 * model (MAC ...:02) is served there to a second guest, and the two NICs
 * are cabled to each other instead: two real kernels, two real stacks,
 * e.g. iperf3 between them.
 *
 * Time: with --time-travel rxscale is the guests' UML time-travel
 * controller (br_timetravel, socket --time-socket, default PATH.time;
 * guest I starts with time-travel=ext:I:SOCK): the guests and the models
 * share the simulator's virtual time, one party runs at a time, the
 * model's interrupts reach a guest through the controller, and runs are
 * deterministic; --seconds is then simulated time.  Without it
 * (--free-running, the default) the model's clock follows the host's
 * monotonic clock while the guest runs in real time.  The command ends
 * when every guest has connected and gone (or, under time-travel, every
 * guest's clock is gone), after --seconds (default 120) or at SIGINT/
 * SIGTERM, and prints the counters.
 *
 * A guest that misbehaves (a malformed vhost-user message or ring, a
 * descriptor outside its memory, a guest that dies in the middle of a
 * message, time-travel garbage) is logged as "nicN: guest error,
 * connection closed: <why>" and the command exits with status 1; malformed
 * virt-pci accesses and DMA outside guest memory are counted and logged,
 * not fatal.  Under time-travel posted writes complete at the guest's
 * next stop (br_virtpci.c says why).  RXSCALE_VIRTPCI_TRACE=1 traces every
 * cmd-queue chain, RXSCALE_TT_TRACE=1 every point where the controller
 * delivers interrupts.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_guest.h"
#include "hw/rtl_chips.h"
#include "load/load_responder.h"
#include "model/rtlm.h"
#include "plat/plat_mem.h"
#include "plat/plat_pci.h"
#include "bridge/br_timetravel.h"
#include "bridge/br_virtpci.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

/* One NIC model served to one guest. */
struct uml_nic {
	struct rtlm_dev *m;
	struct br_virtpci vp;
	struct uml_nic *cable;          /* the other NIC on the wire, or NULL */
	struct load_responder *peer;    /* or the responder */
	bool was_connected, gone;
	uint64_t tx_frames, rx_offered, rx_refused;
	unsigned call_pending;          /* time-travel: queues owed a call */
	uint64_t calls_timed;           /* calls delivered through the controller */
	uint64_t calls_unneeded;        /* owed, but the guest had taken all */
};

struct uml_world {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct uml_nic nic[2];
	unsigned n;
	struct load_responder peer;
	struct br_tt tt;              /* --time-travel: the guests' clock */
	bool timetravel;
	int io_rc;                      /* a guest error seen while serving */
};

static volatile sig_atomic_t uml_stop;

static void on_signal(int sig)
{
	(void)sig;
	uml_stop = 1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Offer @frame to @nic's MAC. */
static void nic_rx(struct uml_nic *nic, const uint8_t *frame, size_t len)
{
	nic->rx_offered++;
	if (rtlm_eth_rx(nic->m, frame, len))
		nic->rx_refused++;      /* counted by the model as a drop too */
}

/* A frame the NIC sent: to the NIC at the cable's other end, or to the
 * responder, which may answer it back through the wire. */
static void wire_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct uml_nic *nic = arg;
	uint8_t reply[1600];
	size_t n;

	nic->tx_frames++;
	if (nic->cable) {
		nic_rx(nic->cable, frame, len);
		return;
	}
	n = load_responder_rx(nic->peer, frame, len, reply, sizeof(reply));
	if (n)
		nic_rx(nic, reply, n);
}

/* ----- time-travel: the guests run on the simulator's clock ----- */

/* An in-band call the model raised: owed to the guest, sent when the
 * controller lets it be (tt_deliver). */
static void nic_call_hook(void *opaque, struct br_vhost *vh, unsigned q)
{
	struct uml_nic *nic = opaque;

	(void)vh;
	nic->call_pending |= 1u << q;
}

static unsigned tt_fds(void *opaque, struct pollfd *p, unsigned max)
{
	struct uml_world *w = opaque;
	unsigned n = 0;

	for (unsigned i = 0; i < w->n && n + 2 <= max; i++) {
		const struct br_vhost *vh = &w->nic[i].vp.vh;

		if (vh->listen_fd >= 0)
			p[n++] = (struct pollfd){ vh->listen_fd, POLLIN, 0 };
		if (vh->fd >= 0)
			p[n++] = (struct pollfd){ vh->fd, POLLIN, 0 };
	}
	return n;
}

static void nic_poll(struct uml_world *w, unsigned i, int r)
{
	struct uml_nic *nic = &w->nic[i];

	/* (a connection accepted and closed within one poll counts too) */
	if (br_vhost_connected(&nic->vp.vh) || nic->vp.vh.connections)
		nic->was_connected = true;
	if (r == -EINTR && uml_stop) {
		printf("rxscale uml: nic%u: %s\n", i, br_vhost_error(&nic->vp.vh));
	} else if (r < 0 && r != -ECONNRESET) {
		/* a malformed message or ring, or a guest that died in the
		 * middle of a message (-ECONNABORTED) */
		printf("rxscale uml: nic%u: guest error, connection closed: %s\n",
		       i, br_vhost_error(&nic->vp.vh));
		w->io_rc = 1;
	}
	if (nic->was_connected && !br_vhost_connected(&nic->vp.vh)) {
		if (!nic->gone)
			printf("rxscale uml: nic%u: the guest disconnected\n", i);
		nic->gone = true;
		nic->call_pending = 0;
	}
}

static int tt_io(void *opaque)
{
	struct uml_world *w = opaque;

	for (unsigned i = 0; i < w->n; i++)
		nic_poll(w, i, br_virtpci_poll(&w->nic[i].vp));
	return 0;
}

/* Nobody runs: complete each waiting guest's posted writes
 * (br_virtpci_release), hand it the calls it is owed (the cmd queue's
 * first), each with the need-reply bit, and wait for its answers (it first
 * REQUESTs now from the controller, so the interrupt is in its calendar
 * before anyone moves). */
static int tt_deliver(void *opaque, struct br_tt *tt)
{
	struct uml_world *w = opaque;

	for (unsigned i = 0; i < w->n; i++) {
		struct uml_nic *nic = &w->nic[i];
		struct br_vhost *vh = &nic->vp.vh;
		unsigned sent = 0, got = 0;
		int ci;

		ci = br_tt_find(tt, i);
		if (ci < 0 || tt->cl[ci].state != BR_TT_WAITING)
			continue;       /* its guest runs: after its WAIT */
		br_virtpci_release(&nic->vp);
		if (getenv("RXSCALE_TT_TRACE"))
			fprintf(stderr, "TT %llu nic%u pending 0x%x unconsumed %d/%d held %u sync %d\n",
				(unsigned long long)br_tt_now(tt), i, nic->call_pending,
				br_vhost_unconsumed(vh, 0), br_vhost_unconsumed(vh, 1),
				nic->vp.nheld, br_virtpci_in_sync_wait(&nic->vp));
		if (!nic->call_pending)
			continue;
		for (unsigned q = 0; q < 32; q++) {
			if (!(nic->call_pending & (1u << q)))
				continue;
			/* not if the guest has taken everything meanwhile */
			if (!br_vhost_call_wanted(vh, q)) {
				nic->calls_unneeded++;
				continue;
			}
			if (br_vhost_send_call(vh, q, true) == 0)
				sent++;
		}
		nic->call_pending = 0;
		while (got < sent) {
			int rc = br_tt_wait_fd(tt, (unsigned)ci, vh->req_fd);

			if (rc < 0) {
				printf("rxscale uml: nic%u: guest error: %s\n", i,
				       br_tt_error(tt));
				return rc;
			}
			rc = br_vhost_call_reply(vh);
			if (rc < 0) {
				printf("rxscale uml: nic%u: guest error: %s\n", i,
				       br_vhost_error(vh));
				return rc;
			}
			got += (unsigned)rc;
			ci = br_tt_find(tt, i);
			if (ci < 0)
				return -ECONNRESET;
		}
		nic->calls_timed += got;
	}
	return 0;
}

static const struct br_tt_ops tt_ops = { tt_fds, tt_io, tt_deliver };

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The run under virtual time: the controller steps until every guest has
 * come and gone, --seconds of simulated time, or an error. */
static int run_timetravel(struct uml_world *w, unsigned long seconds)
{
	uint64_t limit = (uint64_t)seconds * 1000000000u, t0 = wall_ns();
	int idle_ms = 0, rc = 0;

	while (!uml_stop) {
		unsigned gone = 0;
		int r = br_tt_step(&w->tt, 1000);

		if (r < 0) {
			if (r != -EINTR || !uml_stop)
				printf("rxscale uml: time-travel: %s\n",
				       w->tt.err[0] ? br_tt_error(&w->tt) : strerror(-r));
			rc = 1;
			break;
		}
		if (w->io_rc) {
			rc = 1;
			break;
		}
		if (r == 0) {
			idle_ms += 1000;
			if (idle_ms >= w->tt.timeout_ms) {
				printf("rxscale uml: time-travel: no message from any guest for "
				       "%d s (%u clients, %s)\n", idle_ms / 1000, w->tt.ncl,
				       w->tt.running >= 0 ? "one running" : "none running");
				rc = 1;
				break;
			}
			continue;
		}
		idle_ms = 0;
		for (unsigned i = 0; i < w->n; i++) {
			nic_poll(w, i, 0);
			gone += w->nic[i].gone;
		}
		if (gone == w->n && w->tt.started && !w->tt.ncl)
			break;          /* every guest came and went */
		if (w->tt.started >= w->tt.expect && !w->tt.ncl) {
			/* every guest's clock is gone (a guest killed, or one
			 * that closed only its time socket): none of them can
			 * run again; what their devices still sent is read */
			tt_io(w);
			if (w->io_rc)
				rc = 1;
			for (unsigned i = 0; i < w->n; i++)
				if (!w->nic[i].gone)
					printf("rxscale uml: nic%u: the guest's clock went away\n",
					       i);
			break;
		}
		if (br_tt_now(&w->tt) > limit) {
			printf("rxscale uml: --seconds %lu (simulated) reached\n", seconds);
			break;
		}
	}
	{
		double wall = (double)(wall_ns() - t0) / 1e9;
		double simt = (double)br_tt_now(&w->tt) / 1e9;

		printf("time-travel: %.6f s simulated in %.2f s of host time (%.1f host s per "
		       "simulated s); %llu RUNs, %llu simulator steps, %llu messages, %u/%u "
		       "clients started\n", simt, wall, simt > 0 ? wall / simt : 0.0,
		       (unsigned long long)w->tt.runs, (unsigned long long)w->tt.sim_steps,
		       (unsigned long long)w->tt.msgs, w->tt.started, w->tt.expect);
		for (unsigned i = 0; i < w->n; i++)
			printf("nic%u: %llu interrupts delivered through the controller; "
			       "%llu posted writes completed at a guest stop, %llu writes "
			       "waited for\n", i,
			       (unsigned long long)w->nic[i].calls_timed,
			       (unsigned long long)w->nic[i].vp.posted_released,
			       (unsigned long long)w->nic[i].vp.spare_writes);
	}
	return rc;
}

static void usage(FILE *out)
{
	fputs("usage: rxscale uml --socket PATH [--peer-socket PATH2] [--chip NAME]\n"
	      "                   [--peer-ip A.B.C.D] [--seconds N] [--quiet]\n"
	      "                   [--ownbit-erratum[=NS]]\n"
	      "                   [--time-travel [--time-socket TPATH] | --free-running]\n"
	      "\n"
	      "Serve a PCIe NIC model (default RTL8127A) to a User-Mode Linux\n"
	      "kernel over virt-pci: start the kernel with\n"
	      "virtio_uml.device=PATH:1234.  A peer on the NIC's wire answers ARP\n"
	      "and ping for --peer-ip (default 10.0.0.2); with --peer-socket, a\n"
	      "second NIC served at PATH2 to a second guest is the other end of\n"
	      "the wire instead.  Ends when every guest has come and gone, or after\n"
	      "--seconds (default 120).  --ownbit-erratum turns on the RTL8127\n"
	      "descriptor-OwnBit erratum: an RX descriptor's OWN-clearing write-back\n"
	      "lands only at the host's next MMIO read or NS (default 2000) after\n"
	      "the interrupt.\n"
	      "--time-travel: rxscale is the guests' clock (deterministic runs):\n"
	      "start guest I (nic I) also with time-travel=ext:I:TPATH (default\n"
	      "TPATH = PATH.time); --seconds is then simulated time.\n", out);
}

static void report_nic(const struct uml_nic *nic, unsigned i)
{
	printf("nic%u virt-pci: %llu config reads, %llu config writes, %llu MMIO reads, "
	       "%llu MMIO writes, %llu MSIs, %llu guest errors, %llu DMA errors\n", i,
	       (unsigned long long)nic->vp.cfg_reads, (unsigned long long)nic->vp.cfg_writes,
	       (unsigned long long)nic->vp.mmio_reads, (unsigned long long)nic->vp.mmio_writes,
	       (unsigned long long)nic->vp.msis, (unsigned long long)nic->vp.guest_errors,
	       (unsigned long long)nic->vp.dma_errors);
	if (nic->vp.irq_deferred || nic->vp.irq_dropped)
		printf("nic%u virt-pci: %llu interrupts waited for an irq buffer, %llu dropped "
		       "(pending list full)\n", i, (unsigned long long)nic->vp.irq_deferred,
		       (unsigned long long)nic->vp.irq_dropped);
	cli_guest_report_model(nic->m, i, nic->tx_frames, nic->rx_offered);
	if (nic->vp.dma_gone || nic->vp.irq_gone)
		printf("nic%u virt-pci: after the guest left: %llu DMA accesses and %llu "
		       "interrupts refused\n", i, (unsigned long long)nic->vp.dma_gone,
		       (unsigned long long)nic->vp.irq_gone);
	if (nic->vp.last_error[0])
		printf("nic%u virt-pci: last guest error: %s\n", i, nic->vp.last_error);
}

static void report(const struct uml_world *w)
{
	for (unsigned i = 0; i < w->n; i++)
		report_nic(&w->nic[i], i);
	if (w->n == 1)
		printf("peer: %llu ARP replies, %llu echo replies, %llu ignored, %llu malformed\n",
		       (unsigned long long)w->peer.arp_replies,
		       (unsigned long long)w->peer.echo_replies,
		       (unsigned long long)w->peer.ignored,
		       (unsigned long long)w->peer.malformed);
}

/* Create NIC @i with MAC ...:0(i+1), served at @sock. */
static int nic_start(struct uml_world *w, unsigned i, const struct rtl_chip_info *chip,
		     const char *sock, bool quiet, long ownbit_ns)
{
	struct uml_nic *nic = &w->nic[i];
	int rc;

	nic->m = cli_guest_model(w->host, &w->mem, chip, i, ownbit_ns);
	if (!nic->m)
		return -ENOMEM;
	rtlm_set_wire_tx(nic->m, wire_tx, nic);
	br_virtpci_init(&nic->vp, rtlm_pci(nic->m), NULL, 0, w->timetravel);
	nic->vp.quiet = quiet;
	nic->vp.vh.stop = &uml_stop;
	if (w->timetravel) {
		nic->vp.vh.call_hook = nic_call_hook;
		nic->vp.vh.call_opaque = nic;
		/* posted writes complete when the guest stops (tt_deliver) */
		nic->vp.hold_posted = true;
	}
	plat_pci_set_transport(rtlm_pci(nic->m), br_virtpci_msi, NULL, &nic->vp);
	plat_pci_set_dma(rtlm_pci(nic->m), &br_virtpci_dma_ops, &nic->vp);
	rc = br_virtpci_listen(&nic->vp, sock);
	if (rc) {
		cli_err("%s: cannot listen: %s", sock, strerror(-rc));
		br_virtpci_fini(&nic->vp);
		rtlm_destroy(nic->m);
		nic->m = NULL;
		return rc;
	}
	w->n = i + 1;
	printf("rxscale uml: nic%u %s (10ec:%04x, MAC 00:e0:4c:68:00:%02x) on %s; start "
	       "the kernel with virtio_uml.device=%s:1234\n", i, chip->name,
	       chip->caps->pci_device, i + 1, sock, sock);
	return 0;
}

int cli_uml(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "peer-socket", required_argument, NULL, 'P' },
		{ "chip", required_argument, NULL, 'c' },
		{ "peer-ip", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "ownbit-erratum", optional_argument, NULL, 'o' },
		{ "time-travel", no_argument, NULL, 'T' },
		{ "free-running", no_argument, NULL, 'F' },
		{ "time-socket", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	const char *sock = NULL, *sock2 = NULL, *tsock = NULL;
	char tpath[108];
	const struct rtl_chip_info *chip = cli_chip_named("RTL8127A");
	struct sim_host_params hp;
	struct uml_world *w;
	unsigned long seconds = 120;
	uint64_t t0, deadline;
	bool quiet = false;
	long ownbit_ns = -1;            /* off */
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
			w->timetravel = true;
			break;
		case 'F':
			w->timetravel = false;
			break;
		case 'S':
			tsock = optarg;
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
	if (!sock || optind != argc) {
		cli_err(!sock ? "--socket PATH is required" : "unexpected argument '%s'",
			argv[optind]);
		free(w);
		return CLI_EXIT_USAGE;
	}

	sim_init(&w->sim);
	sim_cost_load_default(&w->cost);
	sim_host_params_default(&hp, 1);
	w->host = sim_host_create(&w->sim, &w->cost, &hp);
	plat_mem_init(&w->mem);
	if (!w->host || nic_start(w, 0, chip, sock, quiet, ownbit_ns) ||
	    (sock2 && nic_start(w, 1, chip, sock2, quiet, ownbit_ns))) {
		rc = 1;
		goto out;
	}
	if (sock2) {
		w->nic[0].cable = &w->nic[1];
		w->nic[1].cable = &w->nic[0];
	} else {
		w->nic[0].peer = &w->peer;
	}
	if (w->timetravel) {
		if (!tsock) {
			snprintf(tpath, sizeof(tpath), "%s.time", sock);
			tsock = tpath;
		}
		br_tt_init(&w->tt, &w->sim, &tt_ops, w);
		w->tt.expect = w->n;
		w->tt.quiet = true;     /* its errors are printed here */
		rc = br_tt_listen(&w->tt, tsock);
		if (rc) {
			cli_err("%s: cannot listen: %s", tsock, strerror(-rc));
			rc = 1;
			goto out;
		}
		for (unsigned i = 0; i < w->n; i++)
			printf("rxscale uml: time-travel controller on %s; start guest %u with "
			       "time-travel=ext:%u:%s\n", tsock, i, i, tsock);
	}
	fflush(stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (w->timetravel) {
		rc = run_timetravel(w, seconds);
		if (uml_stop)
			printf("rxscale uml: stopped by a signal\n");
		report(w);
		goto out;
	}
	t0 = mono_ns();
	deadline = t0 + (uint64_t)seconds * 1000000000u;
	while (!uml_stop) {
		uint64_t now = mono_ns();
		unsigned gone = 0;

		if (now >= deadline) {
			printf("rxscale uml: --seconds %lu reached\n", seconds);
			break;
		}
		/* the models' clock follows the host's (free-running mode) */
		sim_run_until(&w->sim, now - t0);
		for (unsigned i = 0; i < w->n; i++) {
			struct uml_nic *nic = &w->nic[i];
			int r = w->n == 1 ? br_virtpci_run(&nic->vp, 1) :
					    br_virtpci_poll(&nic->vp);

			nic_poll(w, i, r);
			gone += nic->gone;
		}
		if (w->io_rc)
			rc = 1;
		if (gone == w->n)       /* every guest came and went */
			break;
		if (w->n > 1) {
			/* wait for either guest (or 1 ms, the clock's step) */
			struct pollfd pf[2 * BR_VHOST_POLLFDS];
			unsigned nf = 0;

			for (unsigned i = 0; i < w->n; i++)
				nf += br_vhost_pollfds(&w->nic[i].vp.vh, pf + nf,
							 BR_VHOST_POLLFDS);
			if (nf)
				poll(pf, nf, 1);
		}
	}
	if (uml_stop)
		printf("rxscale uml: stopped by a signal\n");
	report(w);
out:
	if (w->timetravel)
		br_tt_fini(&w->tt);
	for (unsigned i = 0; i < w->n; i++) {
		br_virtpci_fini(&w->nic[i].vp);
		rtlm_destroy(w->nic[i].m);
	}
	if (w->host)
		sim_host_destroy(w->host);
	plat_mem_fini(&w->mem);
	sim_fini(&w->sim);
	free(w);
	return rc;
}
