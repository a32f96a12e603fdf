/* SPDX-License-Identifier: MIT */
/* cli.h - the rxscale command's subcommands and shared helpers. */
#ifndef RXSCALE_CLI_H
#define RXSCALE_CLI_H

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

#include "bed/bed_util.h"
#include "net/net_flow.h"
#include "report/report_sweep.h"

/* Exit status for bad input (file, argument, key): one line on stderr,
 * nothing on stdout (with --json: {"error": MESSAGE} alone). */
#define CLI_EXIT_USAGE	2
/* Exit status of a report that covers part of its input: a capture that
 * turned bad part-way (run --pcap, hash --pcap), reported up to there. */
#define CLI_EXIT_PARTIAL	4

/*
 * --json's failures, as iperf3 -J reports them: cli_json_begin() when a
 * command prints JSON, cli_json_printed() once its document is out;
 * cli_json_end(rc) returns @rc and, when @rc is not 0 and no document
 * went out, prints {"error": MESSAGE} with the last error line.
 */
void cli_json_begin(void);
void cli_json_printed(void);
int cli_json_end(int rc);

/* Subcommands: argv[0] is the subcommand name. Return: exit status. */
int cli_hash(int argc, char **argv);
int cli_mkpcap(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_uml(int argc, char **argv);
int cli_vfio(int argc, char **argv);
int cli_sweep_merge(int argc, char **argv);

/** cli_err() - print "rxscale: " + message + newline on stderr (bed_err(),
 * which clears the progress line first). */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 if @path is a directory, 0 another file, or -errno. */
int cli_path_kind(const char *path);

/* 0 if the directory that file @path would go in takes writes, else -1
 * and errno. */
int cli_dir_writable(const char *path);

/* Make directory @path unless it exists as one: 0, or -errno. */
int cli_mkdir(const char *path);

/*
 * What an interrupted command (SIGINT, SIGTERM, SIGHUP) must not leave
 * behind: a file it has not finished (removed) and its child processes
 * (sent SIGTERM); then it dies of the signal as it would have.
 * cli_abort_file(path) names the file (NULL: none; the string is
 * copied); cli_abort_child(pid, add) adds or removes a child;
 * cli_abort_forget() clears both, for a forked child.
 */
void cli_abort_file(const char *path);
void cli_abort_child(pid_t pid, bool add);
void cli_abort_forget(void);

/* One capture: pcap through libpcap, pcapng through cli_pcap.c's block
 * reader (each interface with its own link type). */
struct cli_pcap;

/* One record of a capture. */
struct cli_frame {
	const uint8_t *data;		/* valid until the next read */
	size_t caplen;			/* bytes captured */
	size_t origlen;			/* bytes the frame had on the wire
					 * (>= caplen; more when the snap length
					 * cut it) */
	uint64_t ts_ns;
	unsigned ifindex;		/* pcapng interface, 0 for pcap */
	int linktype;			/* LINKTYPE_* of its interface */
	bool link_ok;			/* the dissector reads that link type */
	enum net_link link;		/* (valid if link_ok) */
};

/**
 * cli_pcap_open() - open a pcap or pcapng file and map its link type.
 * Return: a handle, or NULL after printing one error line naming @path
 * (missing/unreadable file, not a capture, no interface with a supported
 * link type).  In a pcapng file interfaces of other link types may sit
 * beside supported ones: their frames come with link_ok false.
 */
struct cli_pcap *cli_pcap_open(const char *path);

/**
 * cli_pcap_read() - the next record.
 * Return: 1 for a frame, 0 at the end, -1 for a truncated or corrupt file
 * (the message, naming the file, is cli_pcap_error(); nothing printed).
 */
int cli_pcap_read(struct cli_pcap *c, struct cli_frame *fr);
const char *cli_pcap_error(const struct cli_pcap *c);

/** cli_pcap_has_ethernet() - whether an interface (pcap: the file's link
 * type; pcapng: one described before the first packet) is Ethernet. */
bool cli_pcap_has_ethernet(const struct cli_pcap *c);

/** cli_linktype_name() - libpcap's name of LINKTYPE @linktype, or "?". */
const char *cli_linktype_name(int linktype);

void cli_pcap_close(struct cli_pcap *c);

struct bed_scenario;

/*
 * cli_run_point() - run @base with @set ("section.key=value", validated
 * by the caller) applied, in a fresh world, printing nothing, and put its
 * headline figures in @pt.  @idle_ping: instead of the workload, the host
 * pings the idle peer 20 times, 0.1 s apart (the seed measured ping on an
 * idle link).  0, or -1 with the error printed.  --sweep's points and
 * --compare's reference runs.
 */
int cli_run_point(const struct bed_scenario *base, const char *set, bool idle_ping,
		  struct rpt_sweep_point *pt);

/*
 * cli_plot_prepare() - before any run of a sweep: @plot must not name
 * anything but a regular file, and a temporary file is created next to it
 * (its name in @tmp, @n bytes).  0, or -1 with the error printed.
 */
int cli_plot_prepare(const char *plot, char *tmp, size_t n);

/*
 * cli_plot_sweep() - draw a sweep of @key over the @n values @vals with
 * gnuplot into @tmp (from cli_plot_prepare), titled @title, then rename it
 * to @plot with the mode the umask gives new files: SVG for a .svg name,
 * gnuplot's script itself for a .gp name, else PNG.  @names NULL: one
 * curve of @n points @pt, in panels throughput, busiest ksoftirqd,
 * interrupts/s, idle ping, retransmits.  Else @nreg regimes, curve r named
 * @names[r] with points @pt[r * n .. r * n + n - 1], in panels throughput,
 * busiest CPU %soft, interrupts/s, ping, retransmits.  Numeric values sit
 * on a true or log scale (the key's unit in the label), a word among them
 * ("adaptive") is a marker of its own; a figure a point lacks (no ping
 * reply, no TCP) is a gap.  No file name enters gnuplot's script; title,
 * key, values and names are reduced to safe label characters.  0, or -1
 * with the error (and gnuplot's first message) printed and @tmp removed.
 */
int cli_plot_sweep(const char *plot, const char *tmp, const char *title, const char *key,
		   char vals[][64], const char *const *names,
		   const struct rpt_sweep_point *pt, unsigned nreg, unsigned n);

#endif /* RXSCALE_CLI_H */
