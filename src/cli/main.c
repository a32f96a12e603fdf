/* SPDX-License-Identifier: MIT */
/* main.c - the rxscale command: dispatch to a subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
	fputs("usage: rxscale <command> [options]\n"
	      "\n"
	      "commands:\n"
	      "  hash    Toeplitz RSS hash and RX queue of a tuple or of every\n"
	      "          frame of a capture, as an RTL8125/8126/8127 computes them\n"
	      "  mkpcap  write the built-in multi-flow demo capture\n"
	      "  run     simulate the NIC, driver and host; replay a capture\n"
	      "  sweep-merge  assemble the points of a sweep run apart (run --emit)\n"
	      "  uml     serve a NIC model to a User-Mode Linux kernel (virt-pci)\n"
	      "  vfio-user  serve a NIC model to QEMU (vfio-user), in real time\n"
	      "\n"
	      "'rxscale <command> --help' describes each command.\n", out);
}

/* A report that could not be written (a full disk, a closed pipe) is a
 * failure, not a success: exit 1 unless the command already failed. */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		cli_err("cannot write output: %s", strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "hash"))
		return finish(cli_hash(argc - 1, argv + 1));
	if (!strcmp(argv[1], "mkpcap"))
		return finish(cli_mkpcap(argc - 1, argv + 1));
	if (!strcmp(argv[1], "run"))
		return finish(cli_run(argc - 1, argv + 1));
	if (!strcmp(argv[1], "sweep-merge"))
		return finish(cli_sweep_merge(argc - 1, argv + 1));
	if (!strcmp(argv[1], "uml"))
		return finish(cli_uml(argc - 1, argv + 1));
	if (!strcmp(argv[1], "vfio-user")) {
#ifdef RXSCALE_HAVE_VFIO_USER
		return finish(cli_vfio(argc - 1, argv + 1));
#else
		cli_err("vfio-user: this rxscale was built without libvfio-user "
			"(scripts/libvfio-user.sh, then meson setup --reconfigure; "
			"make qemu-test does both)");
		return CLI_EXIT_USAGE;
#endif
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version")) {
		puts("rxscale 0.1.0");
		return finish(0);
	}
	cli_err("unknown command '%s' (try 'rxscale --help')", argv[1]);
	return CLI_EXIT_USAGE;
}
