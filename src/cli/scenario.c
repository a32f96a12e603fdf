// SPDX-License-Identifier: MIT
/* scenario.c - scenario INI files and --set overrides (see scenario.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "cli/scenario.h"
#include "load/load_busy.h"

void scenario_default(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->duration_s = 10;
	s->seed = 1;
	s->cpus = 8;
	snprintf(s->preset, sizeof(s->preset), "default");
	snprintf(s->chip, sizeof(s->chip), "RTL8127A");
	s->ownbit_workaround = -1;
	s->iperf_streams = 20;
	s->iperf_bitrate = 1000000000ull;
	s->iperf_len = 0;
	snprintf(s->iperf_cc, sizeof(s->iperf_cc), "cubic");
	s->prop_ns = 1000;
	s->ping_interval_s = 1;
	s->ping_size = 56;
	s->usb_link_mbps = 20000;
	s->usb_imod_ns = 40000;
	s->usb_rx_usecs = -1;
	s->rx_usecs = SCN_RX_USECS_DEFAULT;
}

/* "1G", "9.5G", "800M", "64K", "1000000": bits per second */
static int parse_rate(const char *v, uint64_t *out)
{
	char *end;
	double d = strtod(v, &end);
	double mul = 1;

	if (end == v || !(d > 0) || d > 1e12)   /* also NaN and inf */
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1e3; end++; break;
	case 'm': case 'M': mul = 1e6; end++; break;
	case 'g': case 'G': mul = 1e9; end++; break;
	default: break;
	}
	if (*end || d * mul > 1e12 || d * mul < 1)
		return -1;
	*out = (uint64_t)(d * mul + 0.5);
	return 0;
}

static int set_str(char *dst, size_t n, const char *v, char *msg, size_t ml,
		   const char *key)
{
	if (strlen(v) >= n) {
		snprintf(msg, ml, "%s: value longer than %zu characters", key, n - 1);
		return -1;
	}
	snprintf(dst, n, "%s", v);
	return 0;
}

static int set_uint(unsigned long *out, const char *v, unsigned long lo,
		    unsigned long hi, char *msg, size_t ml, const char *key)
{
	if (cli_parse_uint(v, lo, hi, out)) {
		snprintf(msg, ml, "%s: '%.64s' is not a whole number in %lu..%lu",
			 key, v, lo, hi);
		return -1;
	}
	return 0;
}

static int set_bool(bool *out, const char *v, char *msg, size_t ml, const char *key)
{
	if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
		*out = false;
	else {
		snprintf(msg, ml, "%s: '%.64s' is not a boolean (0/1, yes/no, on/off)",
			 key, v);
		return -1;
	}
	return 0;
}

/* One key; returns 0 or -1 with @msg set. */
static int apply(struct scenario *s, const char *sec, const char *key,
		 const char *v, char *msg, size_t ml)
{
	char full[130];
	unsigned long u;

	snprintf(full, sizeof(full), "%.60s.%.60s", sec, key);
	if (!strcmp(full, "run.duration")) {
		char *end;
		double d = strtod(v, &end);

		/* at least 1 us: the simulation's clock is integer ns */
		if (end == v || *end || !(d >= 1e-6 && d <= 3600)) {
			snprintf(msg, ml, "%s: '%.64s' is not a duration in [0.000001, 3600] s",
				 full, v);
			return -1;
		}
		s->duration_s = d;
		return 0;
	}
	if (!strcmp(full, "run.seed")) {
		if (set_uint(&u, v, 0, ~0UL, msg, ml, full))
			return -1;
		s->seed = u;
		return 0;
	}
	if (!strcmp(full, "host.cpus")) {
		if (set_uint(&u, v, 1, 256, msg, ml, full))
			return -1;
		s->cpus = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "host.preset"))
		return set_str(s->preset, sizeof(s->preset), v, msg, ml, full);
	if (!strcmp(full, "host.speed")) {
		char tmp[SCN_STR], *tok, *save = NULL;

		if (set_str(s->speed, sizeof(s->speed), v, msg, ml, full))
			return -1;
		snprintf(tmp, sizeof(tmp), "%s", v);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *end;
			double d = strtod(tok, &end);

			if (end == tok || *end || !(d >= 0.05 && d <= 20)) {
				snprintf(msg, ml, "%s: '%.32s' is not a speed in [0.05, 20]", full, tok);
				return -1;
			}
		}
		return 0;
	}
	if (!strcmp(full, "host.irq_cpus"))
		return set_str(s->irq_cpus, sizeof(s->irq_cpus), v, msg, ml, full);
	if (!strcmp(full, "nic.chip"))
		return set_str(s->chip, sizeof(s->chip), v, msg, ml, full);
	if (!strcmp(full, "nic.rx_queues")) {
		if (set_uint(&u, v, 0, 64, msg, ml, full))
			return -1;
		s->rx_queues = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "nic.ownbit_erratum"))
		return set_bool(&s->ownbit_erratum, v, msg, ml, full);
	if (!strcmp(full, "nic.ownbit_workaround")) {
		if (!strcmp(v, "-1")) {
			s->ownbit_workaround = -1;
			return 0;
		}
		if (set_uint(&u, v, 0, 1, msg, ml, full))
			return -1;
		s->ownbit_workaround = (int)u;
		return 0;
	}
	if (!strcmp(full, "nic.rx_usecs")) {
		if (!strcmp(v, "-1")) {
			s->rx_usecs = SCN_RX_USECS_DEFAULT;
			return 0;
		}
		if (!strcmp(v, "adaptive")) {
			s->rx_usecs = SCN_RX_USECS_ADAPTIVE;
			return 0;
		}
		/* the chip's limit is the driver's to enforce (ethtool -C) */
		if (set_uint(&u, v, 0, 100000, msg, ml, full)) {
			snprintf(msg, ml, "%s: '%.64s' is not -1, adaptive or a whole "
				 "number of microseconds in 0..100000", full, v);
			return -1;
		}
		s->rx_usecs = (int)u;
		return 0;
	}
	if (!strcmp(full, "host.busy_tasks")) {
		if (set_uint(&u, v, 0, LOAD_BUSY_MAX, msg, ml, full))
			return -1;
		s->busy_tasks = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "replay.pcap"))
		return set_str(s->pcap, sizeof(s->pcap), v, msg, ml, full);
	if (!strcmp(full, "replay.line_rate"))
		return set_bool(&s->line_rate, v, msg, ml, full);
	if (!strcmp(full, "iperf3.streams")) {
		if (set_uint(&u, v, 0, 128, msg, ml, full))
			return -1;
		s->iperf_streams = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "iperf3.udp"))
		return set_bool(&s->iperf_udp, v, msg, ml, full);
	if (!strcmp(full, "iperf3.bitrate")) {
		if (parse_rate(v, &s->iperf_bitrate)) {
			snprintf(msg, ml, "%s: '%.64s' is not a bit rate (e.g. 9.4G, 800M)",
				 full, v);
			return -1;
		}
		return 0;
	}
	if (!strcmp(full, "iperf3.cc")) {
		if (strcmp(v, "reno") && strcmp(v, "cubic")) {
			snprintf(msg, ml, "%s: '%.64s' is not reno or cubic", full, v);
			return -1;
		}
		snprintf(s->iperf_cc, sizeof(s->iperf_cc), "%s", v);
		return 0;
	}
	if (!strcmp(full, "iperf3.rcvbuf")) {
		if (set_uint(&u, v, 0, 64u << 20, msg, ml, full))
			return -1;
		if (u && u < 4096) {
			snprintf(msg, ml, "%s: at least 4096 bytes (or 0 for the default)", full);
			return -1;
		}
		s->iperf_rcvbuf = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "usb.link_gbps")) {
		if (strcmp(v, "5") && strcmp(v, "10") && strcmp(v, "20")) {
			snprintf(msg, ml, "%s: '%.64s' is not 5, 10 or 20", full, v);
			return -1;
		}
		s->usb_link_mbps = (unsigned)strtoul(v, NULL, 10) * 1000u;
		return 0;
	}
	if (!strcmp(full, "usb.imod_ns")) {
		if (set_uint(&u, v, 0, 1000000, msg, ml, full))
			return -1;
		s->usb_imod_ns = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "usb.rx_usecs")) {
		if (!strcmp(v, "-1")) {
			s->usb_rx_usecs = -1;
			return 0;
		}
		/* 524 us: the 16-bit timer register in 8 ns units (research
		 * usb-and-coalescing.md s1.3-1.4) */
		if (set_uint(&u, v, 0, 524, msg, ml, full))
			return -1;
		s->usb_rx_usecs = (int)u;
		return 0;
	}
	if (!strcmp(full, "usb.mitigation")) {
		if (strcmp(v, "on") && strcmp(v, "off")) {
			snprintf(msg, ml, "%s: '%.64s' is not on or off", full, v);
			return -1;
		}
		s->usb_mitigation_off = !strcmp(v, "off");
		return 0;
	}
	if (!strcmp(full, "ping.from")) {
		if (strcmp(v, "peer") && strcmp(v, "host")) {
			snprintf(msg, ml, "%s: '%.64s' is not peer or host", full, v);
			return -1;
		}
		s->ping_from_host = !strcmp(v, "host");
		return 0;
	}
	if (!strcmp(full, "iperf3.threads")) {
		if (strcmp(v, "0") && strcmp(v, "1")) {
			snprintf(msg, ml, "%s: '%.64s' is not 1 (one thread) or 0 (one per stream)",
				 full, v);
			return -1;
		}
		s->iperf_thread_per_stream = !strcmp(v, "0");
		return 0;
	}
	if (!strcmp(full, "iperf3.reverse"))
		return set_bool(&s->iperf_reverse, v, msg, ml, full);
	if (!strcmp(full, "iperf3.sndbuf")) {
		if (set_uint(&u, v, 0, 64u << 20, msg, ml, full))
			return -1;
		if (u && u < 65536) {
			snprintf(msg, ml, "%s: at least 65536 bytes (or 0 for the default)", full);
			return -1;
		}
		s->iperf_sndbuf = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "iperf3.len")) {
		if (set_uint(&u, v, 0, 1 << 20, msg, ml, full))
			return -1;
		s->iperf_len = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "ping.count")) {
		if (set_uint(&u, v, 0, 100000, msg, ml, full))
			return -1;
		s->ping_count = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "ping.interval")) {
		char *end;
		double d = strtod(v, &end);

		if (end == v || *end || !(d >= 0.000001 && d <= 3600)) {
			snprintf(msg, ml, "%s: '%.64s' is not an interval in [1e-6, 3600] s",
				 full, v);
			return -1;
		}
		s->ping_interval_s = d;
		return 0;
	}
	if (!strcmp(full, "ping.size")) {
		if (set_uint(&u, v, 8, 1472, msg, ml, full))
			return -1;
		s->ping_size = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "link.prop_ns")) {
		if (set_uint(&u, v, 0, 1000000000, msg, ml, full))
			return -1;
		s->prop_ns = (unsigned)u;
		return 0;
	}
	if (!strcmp(full, "compare.rows")) {
		char list[128], *tok, *save = NULL;

		if (set_str(s->compare_rows, sizeof(s->compare_rows), v, msg, ml, full))
			return -1;
		snprintf(list, sizeof(list), "%s", v);
		for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			if (!compare_row_find(tok)) {
				snprintf(msg, ml, "%s: no EXPERIMENTS.md row '%.16s' (E1a-E1e, E2a-E2e, E3a-E3e)",
					 full, tok);
				return -1;
			}
		}
		return 0;
	}
	if (!strcmp(full, "ethtool.cmd")) {
		if (s->n_ethtool == SCN_MAX_ETHTOOL) {
			snprintf(msg, ml, "%s: more than %d commands", full, SCN_MAX_ETHTOOL);
			return -1;
		}
		return set_str(s->ethtool[s->n_ethtool++], SCN_STR, v, msg, ml, full);
	}
	snprintf(msg, ml, "unknown key '%s'", full);
	return -1;
}

struct load_ctx {
	struct scenario s;
	char msg[512];
};

static const char *const figure_names[] = {
	[SCN_FIG_GBPS] = "gbps", [SCN_FIG_SOFT] = "soft",
	[SCN_FIG_IRQS] = "irqs", [SCN_FIG_PING] = "ping",
};

const char *scenario_figure_name(enum scn_figure f)
{
	return figure_names[f];
}

const struct scn_regime *scenario_regime(const struct scenario *s, const char *name)
{
	for (unsigned i = 0; i < s->n_regimes; i++)
		if (!strcmp(s->regime[i].name, name))
			return &s->regime[i];
	return NULL;
}

/* One key of a [regime.NAME] section: "main = FIGURE" or an override,
 * which must be a valid "section.key = value" (checked on a copy). */
static int regime_key(struct scenario *s, const char *name, const char *key,
		      const char *v, char *msg, size_t ml)
{
	struct scn_regime *r = (struct scn_regime *)scenario_regime(s, name);
	char set[256], err[600];
	struct scenario t = *s;

	if (!name[0] || strlen(name) >= sizeof(r->name)) {
		snprintf(msg, ml, "[regime.NAME]: a name of 1..%zu characters",
			 sizeof(r->name) - 1);
		return -1;
	}
	if (!r) {
		if (s->n_regimes == SCN_MAX_REGIMES) {
			snprintf(msg, ml, "at most %d regimes", SCN_MAX_REGIMES);
			return -1;
		}
		r = &s->regime[s->n_regimes++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->main = SCN_FIG_GBPS;
	}
	if (!strcmp(key, "main")) {
		for (unsigned i = 0; i < sizeof(figure_names) / sizeof(figure_names[0]); i++)
			if (!strcmp(v, figure_names[i])) {
				r->main = (enum scn_figure)i;
				return 0;
			}
		snprintf(msg, ml, "regime.%s.main: '%.32s' is not gbps, soft, irqs or ping",
			 name, v);
		return -1;
	}
	if (!strncmp(key, "regime.", 7) || !strchr(key, '.')) {
		snprintf(msg, ml, "regime.%s: '%.64s' is not a section.key of a scenario",
			 name, key);
		return -1;
	}
	if (r->n_set == SCN_MAX_REGIME_SETS) {
		snprintf(msg, ml, "regime.%s: at most %d overrides", name, SCN_MAX_REGIME_SETS);
		return -1;
	}
	if ((size_t)snprintf(set, sizeof(set), "%s=%s", key, v) >= sizeof(r->set[0])) {
		snprintf(msg, ml, "regime.%s: '%.32s' is longer than %zu characters", name,
			 key, sizeof(r->set[0]) - 1);
		return -1;
	}
	if (scenario_set(&t, set, err, sizeof(err))) {
		snprintf(msg, ml, "regime.%s: %.400s", name, err + strlen("--set: "));
		return -1;
	}
	snprintf(r->set[r->n_set++], sizeof(r->set[0]), "%.127s", set);
	return 0;
}

void scenario_apply_regime(struct scenario *s, const struct scn_regime *r)
{
	struct scn_regime copy = *r;
	char err[600];

	s->n_regimes = 0;
	for (unsigned i = 0; i < copy.n_set; i++)
		scenario_set(s, copy.set[i], err, sizeof(err));  /* validated */
}

static int handler(void *user, const char *sec, const char *key, const char *v)
{
	struct load_ctx *lc = user;

	if (lc->msg[0])
		return 0;       /* keep the first error's message */
	if (!sec[0]) {
		snprintf(lc->msg, sizeof(lc->msg), "key '%.64s' is outside any [section]", key);
		return 0;
	}
	if (!strncmp(sec, "regime.", 7))
		return regime_key(&lc->s, sec + 7, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
	return apply(&lc->s, sec, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
}

/* Longest line inih reads whole (its INI_MAX_LINE, 200 with the newline):
 * a longer one is split and the rest read as a line of its own. */
#define SCN_MAX_LINE 198

/*
 * What inih does not say well, checked before it parses: not a regular
 * file, a line too long for inih (it would split it), a NUL byte, a
 * section header without its ']', an indented line (inih would append it
 * to the previous value), and a line that is neither a section, a key =
 * value (or key: value) nor a comment.  0, or -1 with @err naming the
 * file and line.
 */
static int precheck(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char line[SCN_MAX_LINE + 2];
	unsigned n = 0, len = 0;
	const char *why = NULL;
	FILE *f;
	int c;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a scenario is an INI file)", path);
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!why) {
		c = getc(f);
		if (c != EOF && c != '\n') {
			if (c == 0)
				why = "a NUL byte";
			else if (len > SCN_MAX_LINE)
				why = "line longer than 198 characters";
			else
				line[len++] = (char)c;
			continue;
		}
		if (c == EOF && !len)
			break;
		n++;
		line[len] = 0;
		len = 0;
		{
			char *p = line, *e = line + strlen(line);

			if (n == 1 && (unsigned char)p[0] == 0xEF &&
			    (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
				p += 3;         /* a UTF-8 BOM, which inih skips */
			while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
				*--e = 0;
			if (!*p)
				continue;
			if (*p == ' ' || *p == '\t') {
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p && *p != ';' && *p != '#')
					why = "an indented line (inih would append it to the "
					      "previous value); remove the indent";
			} else if (*p == ';' || *p == '#') {
				continue;
			} else if (*p == '[') {
				if (!strchr(p, ']'))
					why = "section header without ']'";
			} else if (!strpbrk(p, "=:")) {
				why = "not a section, a key = value or a comment";
			}
		}
		if (c == EOF)
			break;
	}
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%u: %s", path, n + (len ? 1 : 0), why);
		return -1;
	}
	return 0;
}

int scenario_load(struct scenario *s, const char *path, char *err, size_t errlen)
{
	struct load_ctx lc = { .s = *s };
	int rc;

	if (precheck(path, err, errlen))
		return -1;
	errno = 0;
	rc = ini_parse(path, handler, &lc);
	if (rc == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : ENOENT));
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s:%d: %s", path, rc < 0 ? 0 : rc,
			 lc.msg[0] ? lc.msg : "syntax error");
		return -1;
	}
	*s = lc.s;
	return 0;
}

int scenario_set(struct scenario *s, const char *a, char *err, size_t errlen)
{
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	char sec[64], key[64], msg[512];
	struct scenario t = *s;

	if (!dot || !eq || dot > eq || dot == a || eq == dot + 1 ||
	    (size_t)(dot - a) >= sizeof(sec) || (size_t)(eq - dot - 1) >= sizeof(key)) {
		snprintf(err, errlen, "--set %.64s: want section.key=value", a);
		return -1;
	}
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot - a), a);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	if (apply(&t, sec, key, eq + 1, msg, sizeof(msg))) {
		snprintf(err, errlen, "--set: %s", msg);
		return -1;
	}
	*s = t;
	return 0;
}
