// SPDX-License-Identifier: MIT
/* bed_scenario.c - the typed scenario: INI files and --set overrides (see bed_scenario.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "bed/bed_scenario.h"
#include "bed/bed_scn_keys.h"

void bed_scenario_default(struct bed_scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->duration_s = 10;
	s->seed = 1;
	s->cpus = 8;
	s->pkg_cstates = true;
	s->smt = 1;
	s->clock_drift = true;
	snprintf(s->preset, sizeof(s->preset), "default");
	snprintf(s->chip, sizeof(s->chip), "RTL8127A");
	s->ownbit_workaround = -1;
	s->iperf_streams = 20;
	s->iperf_instances = 1;
	s->iperf_bitrate = 1000000000ull;
	s->iperf_len = 0;
	snprintf(s->iperf_cc, sizeof(s->iperf_cc), "cubic");
	s->prop_ns = 1000;
	s->ping_interval_s = 1;
	s->ping_size = 56;
	s->usb_link_mbps = 20000;
	s->usb_imod_ns = 40000;
	s->usb_rx_usecs = -1;
	s->max_gap_s = 3600;
	s->fault.msix_avail = -1;
	s->fault.link_down = 0.01;
	s->rx_usecs = BED_SCN_RX_USECS_DEFAULT;
}


#define BED_SCN_MAX_KEYS 512   /* distinct section.key lines a file may set */

struct load_ctx {
	struct bed_scenario s;
	char msg[512];
	/* the section.key pairs set so far, to refuse one set twice */
	char (*seen)[128];
	unsigned nseen;
};

/* ethtool.cmd and timeline.at are lists: one line per item. */
static bool key_repeats(const char *sec, const char *key)
{
	return (!strcmp(sec, "ethtool") && !strcmp(key, "cmd")) ||
	       (!strcmp(sec, "timeline") && !strcmp(key, "at"));
}

/* Refuse a key the file already set in the same section (inih would let
 * the last one win without a word).  0, or -1 with @lc->msg set. */
static int once(struct load_ctx *lc, const char *sec, const char *key)
{
	char name[128];

	if (key_repeats(sec, key))
		return 0;
	snprintf(name, sizeof(name), "%.63s.%.63s", sec, key);
	for (unsigned i = 0; i < lc->nseen; i++)
		if (!strcmp(lc->seen[i], name)) {
			snprintf(lc->msg, sizeof(lc->msg), "%s: set twice in [%.63s] (one "
				 "value per key; the last would win silently)", name, sec);
			return -1;
		}
	if (lc->nseen == BED_SCN_MAX_KEYS) {
		snprintf(lc->msg, sizeof(lc->msg), "more than %d keys", BED_SCN_MAX_KEYS);
		return -1;
	}
	snprintf(lc->seen[lc->nseen++], sizeof(lc->seen[0]), "%s", name);
	return 0;
}

static const char *const figure_names[] = {
	[BED_SCN_FIG_GBPS] = "gbps", [BED_SCN_FIG_SOFT] = "soft",
	[BED_SCN_FIG_IRQS] = "irqs", [BED_SCN_FIG_PING] = "ping",
};

const char *bed_scenario_figure_name(enum bed_scn_figure f)
{
	return figure_names[f];
}

const struct bed_scn_regime *bed_scenario_regime(const struct bed_scenario *s, const char *name)
{
	for (unsigned i = 0; i < s->n_regimes; i++)
		if (!strcmp(s->regime[i].name, name))
			return &s->regime[i];
	return NULL;
}

/* One key of a [regime.NAME] section: "main = FIGURE" or an override,
 * which must be a valid "section.key = value" (checked on a copy). */
static int regime_key(struct bed_scenario *s, const char *name, const char *key,
		      const char *v, char *msg, size_t ml)
{
	struct bed_scn_regime *r = (struct bed_scn_regime *)bed_scenario_regime(s, name);
	char set[256], err[600];
	struct bed_scenario t = *s;

	if (!name[0] || strlen(name) >= sizeof(r->name)) {
		snprintf(msg, ml, "[regime.NAME]: a name of 1..%zu characters",
			 sizeof(r->name) - 1);
		return -1;
	}
	if (!r) {
		if (s->n_regimes == BED_SCN_MAX_REGIMES) {
			snprintf(msg, ml, "at most %d regimes", BED_SCN_MAX_REGIMES);
			return -1;
		}
		r = &s->regime[s->n_regimes++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->main = BED_SCN_FIG_GBPS;
	}
	if (!strcmp(key, "main")) {
		for (unsigned i = 0; i < sizeof(figure_names) / sizeof(figure_names[0]); i++)
			if (!strcmp(v, figure_names[i])) {
				r->main = (enum bed_scn_figure)i;
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
	if (r->n_set == BED_SCN_MAX_REGIME_SETS) {
		snprintf(msg, ml, "regime.%s: at most %d overrides", name, BED_SCN_MAX_REGIME_SETS);
		return -1;
	}
	if ((size_t)snprintf(set, sizeof(set), "%s=%s", key, v) >= sizeof(r->set[0])) {
		snprintf(msg, ml, "regime.%s: '%.32s' is longer than %zu characters", name,
			 key, sizeof(r->set[0]) - 1);
		return -1;
	}
	if (bed_scenario_set(&t, set, err, sizeof(err))) {
		snprintf(msg, ml, "regime.%s: %.400s", name, err + strlen("--set: "));
		return -1;
	}
	snprintf(r->set[r->n_set++], sizeof(r->set[0]), "%.127s", set);
	return 0;
}

void bed_scenario_apply_regime(struct bed_scenario *s, const struct bed_scn_regime *r)
{
	struct bed_scn_regime copy = *r;
	char err[600];

	s->n_regimes = 0;
	for (unsigned i = 0; i < copy.n_set; i++)
		bed_scenario_set(s, copy.set[i], err, sizeof(err));  /* validated */
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
	if (once(lc, sec, key))
		return 0;
	if (!strncmp(sec, "regime.", 7))
		return regime_key(&lc->s, sec + 7, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
	return bed_scn_apply(&lc->s, sec, key, v, lc->msg, sizeof(lc->msg)) ? 0 : 1;
}

/* Longest line inih reads whole (its INI_MAX_LINE, 200 with the newline):
 * a longer one is split and the rest read as a line of its own. */
#define BED_SCN_MAX_LINE 198

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
	char line[BED_SCN_MAX_LINE + 2];
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
			else if (len > BED_SCN_MAX_LINE)
				why = "line longer than 198 characters";
			else
				line[len++] = (char)c;
			if (why)
				n++;    /* the line it is on, however far in */
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
		snprintf(err, errlen, "%s:%u: %s", path, n, why);
		return -1;
	}
	return 0;
}

int bed_scenario_load(struct bed_scenario *s, const char *path, char *err, size_t errlen)
{
	struct load_ctx lc = { .s = *s };
	int rc;

	if (precheck(path, err, errlen))
		return -1;
	lc.seen = calloc(BED_SCN_MAX_KEYS, sizeof(*lc.seen));
	if (!lc.seen) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	errno = 0;
	rc = ini_parse(path, handler, &lc);
	free(lc.seen);
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

int bed_scenario_set(struct bed_scenario *s, const char *a, char *err, size_t errlen)
{
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	char sec[64], key[64], msg[512];
	struct bed_scenario t = *s;

	if (!dot || !eq || dot > eq || dot == a || eq == dot + 1 ||
	    (size_t)(dot - a) >= sizeof(sec) || (size_t)(eq - dot - 1) >= sizeof(key)) {
		snprintf(err, errlen, "--set %.64s: want section.key=value", a);
		return -1;
	}
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot - a), a);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	if (bed_scn_apply(&t, sec, key, eq + 1, msg, sizeof(msg))) {
		snprintf(err, errlen, "--set: %s", msg);
		return -1;
	}
	*s = t;
	return 0;
}
