// SPDX-License-Identifier: MIT
/*
 * cli_uml.c - rxscale uml: serve a PCIe NIC model to a real Linux kernel
 * (User-Mode Linux, virt-pci over vhost-user), with a peer on its wire.
 *
 *   rxscale uml --socket PATH [--chip NAME] [--peer-ip A.B.C.D]
 *               [--seconds N] [--quiet]
 *
 * The kernel is started with virtio_uml.device=PATH:1234 (the device id
 * its UML_PCI_OVER_VIRTIO_DEVICE_ID was built with).  Its PCI core reads
 * the model's configuration space, its driver (mainline r8169 or rxscale's
 * module) programs the registers, DMAs into the guest's memory and takes
 * MSI-X messages; frames the NIC sends go to a peer that answers ARP and
 * ping for --peer-ip (default 10.0.0.2).
 *
 * Time: this first version is free-running: the model's clock follows the
 * host's monotonic clock while the guest runs in real time (UML's
 * time-travel under rxscale's clock is not done yet), so runs are not
 * deterministic.  The command ends when the guest disconnects after having
 * connected, or after --seconds (default 120), and prints the counters.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli.h"
#include "hw/rtl_chips.h"
#include "load/load_responder.h"
#include "model/rtlm.h"
#include "plat/plat_mem.h"
#include "plat/plat_pci.h"
#include "plat/plat_virtpci.h"
#include "sim/sim_cost.h"
#include "sim/sim_event.h"
#include "sim/sim_host.h"

struct uml_world {
	struct sim sim;
	struct sim_cost cost;
	struct sim_host *host;
	struct plat_mem mem;
	struct rtlm_dev *m;
	struct plat_virtpci vp;
	struct load_responder peer;
	uint64_t tx_frames, rx_offered, rx_refused;
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

/* A frame the NIC sent: the peer may answer it, back through the wire. */
static void wire_tx(void *arg, const uint8_t *frame, size_t len)
{
	struct uml_world *w = arg;
	uint8_t reply[1600];
	size_t n;

	w->tx_frames++;
	n = load_responder_rx(&w->peer, frame, len, reply, sizeof(reply));
	if (!n)
		return;
	w->rx_offered++;
	if (rtlm_eth_rx(w->m, reply, n))
		w->rx_refused++;
}

static void usage(FILE *out)
{
	fputs("usage: rxscale uml --socket PATH [--chip NAME] [--peer-ip A.B.C.D]\n"
	      "                   [--seconds N] [--quiet]\n"
	      "\n"
	      "Serve a PCIe NIC model (default RTL8127A) to a User-Mode Linux\n"
	      "kernel over virt-pci: start the kernel with\n"
	      "virtio_uml.device=PATH:1234.  A peer on the NIC's wire answers ARP\n"
	      "and ping for --peer-ip (default 10.0.0.2).  Ends when the guest\n"
	      "disconnects, or after --seconds (default 120).\n", out);
}

static int parse_ip(const char *s, uint8_t ip[4])
{
	unsigned a, b, c, d;
	char end;

	if (sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) != 4 ||
	    a > 255 || b > 255 || c > 255 || d > 255)
		return -1;
	ip[0] = (uint8_t)a;
	ip[1] = (uint8_t)b;
	ip[2] = (uint8_t)c;
	ip[3] = (uint8_t)d;
	return 0;
}

static const struct rtl_chip_info *chip_named(const char *name)
{
	for (unsigned i = 0; i < rtl_chips_count; i++)
		if (!strcasecmp(rtl_chips[i].name, name))
			return &rtl_chips[i];
	return NULL;
}

static void report(const struct uml_world *w)
{
	const struct rtlm_stats *st = rtlm_stats(w->m);
	uint64_t rx_ok = 0;

	for (unsigned q = 0; q < RTL_MAX_RX_QUEUES; q++)
		rx_ok += st->rx_ok[q];
	printf("virt-pci: %llu config reads, %llu config writes, %llu MMIO reads, "
	       "%llu MMIO writes, %llu MSIs, %llu guest errors, %llu DMA errors\n",
	       (unsigned long long)w->vp.cfg_reads, (unsigned long long)w->vp.cfg_writes,
	       (unsigned long long)w->vp.mmio_reads, (unsigned long long)w->vp.mmio_writes,
	       (unsigned long long)w->vp.msis, (unsigned long long)w->vp.guest_errors,
	       (unsigned long long)w->vp.dma_errors);
	printf("NIC: %llu frames sent, %llu received into the rings, %llu RX drops\n",
	       (unsigned long long)w->tx_frames, (unsigned long long)rx_ok,
	       (unsigned long long)rtlm_rx_dropped(w->m));
	printf("peer: %llu ARP replies, %llu echo replies, %llu ignored, %llu malformed\n",
	       (unsigned long long)w->peer.arp_replies,
	       (unsigned long long)w->peer.echo_replies,
	       (unsigned long long)w->peer.ignored,
	       (unsigned long long)w->peer.malformed);
	if (rtlm_last_error(w->m)[0])
		printf("model: last guest error: %s\n", rtlm_last_error(w->m));
	if (w->vp.last_error[0])
		printf("virt-pci: last guest error: %s\n", w->vp.last_error);
}

int cli_uml(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "chip", required_argument, NULL, 'c' },
		{ "peer-ip", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	const char *sock = NULL;
	const struct rtl_chip_info *chip = chip_named("RTL8127A");
	struct sim_host_params hp;
	struct uml_world *w;
	unsigned long seconds = 120;
	uint64_t t0, deadline;
	bool quiet = false, was_connected = false;
	int opt, rc = 0;

	w = calloc(1, sizeof(*w));
	if (!w) {
		cli_err("out of memory");
		return 1;
	}
	memcpy(w->peer.mac, peer_mac, 6);
	parse_ip("10.0.0.2", w->peer.ip);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			sock = optarg;
			break;
		case 'c':
			chip = chip_named(optarg);
			if (!chip) {
				cli_err("--chip: unknown chip '%s' (a PCIe row of the chip table, "
					"e.g. RTL8127A)", optarg);
				free(w);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'p':
			if (parse_ip(optarg, w->peer.ip)) {
				cli_err("--peer-ip: '%s' is not an IPv4 address", optarg);
				free(w);
				return CLI_EXIT_USAGE;
			}
			break;
		case 't':
			if (cli_parse_uint(optarg, 1, 86400, &seconds)) {
				cli_err("--seconds: '%s' is not a whole number 1..86400", optarg);
				free(w);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'q':
			quiet = true;
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
	w->m = w->host ? rtlm_create(w->host, &w->mem, chip, NULL) : NULL;
	if (!w->m) {
		cli_err("cannot create the %s model", chip->name);
		rc = 1;
		goto out;
	}
	rtlm_set_wire_tx(w->m, wire_tx, w);
	plat_virtpci_init(&w->vp, rtlm_pci(w->m), NULL, 0, false);
	w->vp.quiet = quiet;
	plat_pci_set_transport(rtlm_pci(w->m), plat_virtpci_msi, NULL, &w->vp);
	plat_pci_set_dma(rtlm_pci(w->m), &plat_virtpci_dma_ops, &w->vp);
	rc = plat_virtpci_listen(&w->vp, sock);
	if (rc) {
		cli_err("%s: cannot listen: %s", sock, strerror(-rc));
		rc = 1;
		goto out_vp;
	}
	printf("rxscale uml: %s (10ec:%04x) on %s; start the kernel with "
	       "virtio_uml.device=%s:1234\n", chip->name, chip->caps->pci_device, sock,
	       sock);
	fflush(stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	t0 = mono_ns();
	deadline = t0 + (uint64_t)seconds * 1000000000u;
	while (!uml_stop) {
		uint64_t now = mono_ns();
		int r;

		if (now >= deadline) {
			printf("rxscale uml: --seconds %lu reached\n", seconds);
			break;
		}
		/* the model's clock follows the host's (free-running mode) */
		sim_run_until(&w->sim, now - t0);
		r = plat_virtpci_run(&w->vp, 1);
		if (plat_vhost_connected(&w->vp.vh))
			was_connected = true;
		if (r < 0 && r != -ECONNRESET) {
			printf("rxscale uml: guest error, connection closed: %s\n",
			       plat_vhost_error(&w->vp.vh));
			rc = 1;
		}
		if (was_connected && !plat_vhost_connected(&w->vp.vh)) {
			printf("rxscale uml: the guest disconnected\n");
			break;
		}
	}
	report(w);
out_vp:
	plat_virtpci_fini(&w->vp);
out:
	if (w->m)
		rtlm_destroy(w->m);
	if (w->host)
		sim_host_destroy(w->host);
	plat_mem_fini(&w->mem);
	sim_fini(&w->sim);
	free(w);
	return rc;
}
