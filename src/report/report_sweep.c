// SPDX-License-Identifier: MIT
/* report_sweep.c - a sweep's table, JSON document and point files; see
 * report_sweep.h. */
#include "report/report_sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bed/bed_util.h"


void report_sweep_head(const struct rpt_sweep *sw)
{
	printf("rxscale sweep of %s: %s, %u CPUs, preset %s, seed %llu, ", sw->key,
	       sw->chip, sw->cpus, sw->preset, sw->seed);
	if (strcmp(sw->key, "run.duration"))
		printf("%g s each (ping: idle, 20 probes)\n", sw->duration_s);
	else
		printf("(ping: idle, 20 probes)\n");
	printf("%-12s %10s %11s %13s %13s %8s\n", sw->key, "Gbit/s", "ksoftirqd%",
	       "interrupts/s", "ping avg ms", "retrans");
}

/* A figure as a table prints it, or "-" when the point has none. */
static const char *fig(char *buf, size_t n, bool have, int prec, double v)
{
	if (!have)
		return "-";
	snprintf(buf, n, "%.*f", prec, v);
	return buf;
}

void report_sweep_row(const struct rpt_sweep *sw, unsigned i)
{
	const struct rpt_sweep_point *pt = &sw->pt[i];
	char ping[32], retr[32];

	printf("%-12s %10.2f %11.1f %13.0f %13s %8s\n", sw->vals[i], pt->gbps,
	       pt->ksoftirqd, pt->irqs_per_s,
	       fig(ping, sizeof(ping), pt->ping_avg_ms >= 0, 3, pt->ping_avg_ms),
	       fig(retr, sizeof(retr), !pt->udp, 0, (double)pt->retransmits));
	fflush(stdout);
}

/* One override of a regime in its heading, and what wins over it. */
static void put_override(const char *ov, const char *const *sets, unsigned nsets,
			 const char *swept)
{
	size_t n = strcspn(ov, "=");
	const char *wins = NULL;

	for (unsigned i = 0; i < nsets; i++)
		if (strcspn(sets[i], "=") == n && !strncmp(sets[i], ov, n))
			wins = sets[i];
	if (strlen(swept) == n && !strncmp(swept, ov, n))
		printf(" %s (the swept values win)", ov);
	else if (wins)
		printf(" %s (--set %s wins)", ov, wins);
	else
		printf(" %s", ov);
}

void report_regime_head(const char *name, double secs, const char *figure,
			const char *const *ov, unsigned n, const char *const *sets,
			unsigned nsets, const char *swept)
{
	printf("\nregime %s (%g s each, main figure: %s):", name, secs, figure);
	for (unsigned i = 0; i < n; i++)
		put_override(ov[i], sets, nsets, swept);
	printf("\n%-12s %10s %10s %11s %13s %13s %8s\n", swept, "Gbit/s", "%soft max",
	       "ksoftirqd%", "interrupts/s", "ping avg ms", "retrans");
}

void report_regime_row(const char *val, const struct rpt_sweep_point *p)
{
	char gbps[32], ping[32], retr[32];

	printf("%-12s %10s %10.1f %11.1f %13.0f %13s %8s\n", val,
	       fig(gbps, sizeof(gbps), !p->no_iperf3, 2, p->gbps), p->soft_max,
	       p->ksoftirqd, p->irqs_per_s,
	       fig(ping, sizeof(ping), p->ping_avg_ms >= 0, 3, p->ping_avg_ms),
	       fig(retr, sizeof(retr), !p->no_iperf3 && !p->udp, 0, (double)p->retransmits));
	fflush(stdout);
}

typedef struct json_object *(*dbl_fn)(double v);

/* What heads a sweep, into @o; doubles through @dbl. */
static void add_head(struct json_object *o, const struct rpt_sweep *sw, dbl_fn dbl)
{
	json_object_object_add(o, "chip", json_object_new_string(sw->chip));
	json_object_object_add(o, "cpus", json_object_new_int((int)sw->cpus));
	json_object_object_add(o, "preset", json_object_new_string(sw->preset));
	json_object_object_add(o, "seed", json_object_new_uint64(sw->seed));
	json_object_object_add(o, "duration_s", dbl(sw->duration_s));
}

/* One point's figures, into @o; doubles through @dbl. */
static void add_point(struct json_object *o, const struct rpt_sweep_point *pt, dbl_fn dbl)
{
	/* a figure the point has not: null (json-c writes a NULL member so) */
	json_object_object_add(o, "gbps", pt->no_iperf3 ? NULL : dbl(pt->gbps));
	json_object_object_add(o, "ksoftirqd", dbl(pt->ksoftirqd));
	json_object_object_add(o, "irqs_per_s", dbl(pt->irqs_per_s));
	json_object_object_add(o, "ping_avg_ms", pt->ping_avg_ms >= 0 ? dbl(pt->ping_avg_ms) :
			       NULL);
	json_object_object_add(o, "retransmits", pt->no_iperf3 || pt->udp ? NULL :
			       json_object_new_uint64(pt->retransmits));
}

void report_sweep_json(const struct rpt_sweep *sw)
{
	struct json_object *doc = json_object_new_object(), *s = json_object_new_object();
	struct json_object *pts = json_object_new_array();

	json_object_object_add(s, "key", json_object_new_string(sw->key));
	add_head(s, sw, json_object_new_double);
	json_object_object_add(s, "ping", json_object_new_string("idle, 20 probes, 0.1 s apart"));
	for (unsigned i = 0; i < sw->n; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "value", json_object_new_string(sw->vals[i]));
		add_point(p, &sw->pt[i], json_object_new_double);
		json_object_array_add(pts, p);
	}
	json_object_object_add(s, "points", pts);
	json_object_object_add(doc, "sweep", s);
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
}

/* A double that reads back bit for bit ("%.17g"). */
static struct json_object *exact_double(double v)
{
	char s[40];

	snprintf(s, sizeof(s), "%.17g", v);
	return json_object_new_double_s(v, s);
}

/* Write @path through a temporary file next to it: all or nothing. */
int report_sweep_point_write(const char *path, const struct rpt_sweep *sw, unsigned i)
{
	const struct rpt_sweep_point *pt = &sw->pt[i];
	struct json_object *o = json_object_new_object(), *vals = json_object_new_array();
	char tmp[PATH_MAX];
	const char *text;
	FILE *f;
	int fd, bad;

	json_object_object_add(o, "rxscale_sweep_point", json_object_new_int(1));
	json_object_object_add(o, "key", json_object_new_string(sw->key));
	for (unsigned k = 0; k < sw->n; k++)
		json_object_array_add(vals, json_object_new_string(sw->vals[k]));
	json_object_object_add(o, "values", vals);
	json_object_object_add(o, "index", json_object_new_int((int)i));
	add_head(o, sw, exact_double);
	add_point(o, pt, exact_double);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp)) {
		bed_err("--point-json: the file name is too long");
		json_object_put(o);
		return -1;
	}
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		bed_err("--point-json: cannot write next to %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		json_object_put(o);
		return -1;
	}
	bad = fprintf(f, "%s\n", text) < 0;
	bad |= fclose(f) != 0;
	json_object_put(o);
	if (bad || rename(tmp, path)) {
		bed_err("--point-json: cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}


/* The string member @name of @o, or NULL. */
static const char *jstr(struct json_object *o, const char *name)
{
	struct json_object *v;

	return json_object_object_get_ex(o, name, &v) &&
	       json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool jnum(struct json_object *o, const char *name, double *d)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, name, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return false;
	*d = json_object_get_double(v);
	return true;
}

/* A member that is a number or null (*@null): false if neither. */
static bool jnum_null(struct json_object *o, const char *name, double *d, bool *null)
{
	struct json_object *v;

	*null = json_object_object_get_ex(o, name, &v) && !v;
	if (*null) {
		*d = 0;
		return true;
	}
	return jnum(o, name, d);
}

/* Read one point file into @sw (the first fixes the sweep; the others must
 * match it) and @pt.  0, or -1 with the error printed. */
int report_sweep_point_read(const char *path, struct rpt_sweep *sw, bool first,
			    bool *have)
{
	struct json_object *o = json_object_from_file(path), *vals, *v;
	struct rpt_sweep s;
	double d, idx, cpus, seed, retr;
	bool no_ping, no_gbps, no_retr;
	const char *key, *chip, *preset;
	int rc = -1;

	memset(&s, 0, sizeof(s));
	if (!o) {
		char why[200];
		size_t k;

		/* json-c's message ends in a newline: one line */
		snprintf(why, sizeof(why), "%s", json_util_get_last_err() ?
			 json_util_get_last_err() : "unknown error");
		for (k = strlen(why); k && (why[k - 1] == '\n' || why[k - 1] == ' '); k--)
			why[k - 1] = 0;
		bed_err("sweep-merge: %s: not readable JSON (%s)", path, why);
		return -1;
	}
	key = jstr(o, "key");
	chip = jstr(o, "chip");
	preset = jstr(o, "preset");
	if (!json_object_object_get_ex(o, "rxscale_sweep_point", &v) ||
	    json_object_get_int(v) != 1 || !key || !chip || !preset ||
	    !json_object_object_get_ex(o, "values", &vals) ||
	    !json_object_is_type(vals, json_type_array) ||
	    !jnum(o, "index", &idx) || !jnum(o, "cpus", &cpus) || !jnum(o, "seed", &seed) ||
	    !jnum(o, "duration_s", &s.duration_s) ||
	    !jnum_null(o, "retransmits", &retr, &no_retr) ||
	    strlen(key) >= sizeof(s.key) || strlen(chip) >= sizeof(s.chip) ||
	    strlen(preset) >= sizeof(s.preset)) {
		bed_err("sweep-merge: %s: not an rxscale sweep point", path);
		goto out;
	}
	s.n = (unsigned)json_object_array_length(vals);
	if (!s.n || s.n > RPT_SWEEP_MAX) {
		bed_err("sweep-merge: %s: %u values (1-%d)", path, s.n, RPT_SWEEP_MAX);
		goto out;
	}
	for (unsigned k = 0; k < s.n; k++) {
		const char *x = json_object_get_string(json_object_array_get_idx(vals, k));

		if (!x || strlen(x) >= sizeof(s.vals[0])) {
			bed_err("sweep-merge: %s: a bad value", path);
			goto out;
		}
		snprintf(s.vals[k], sizeof(s.vals[0]), "%s", x);
	}
	snprintf(s.key, sizeof(s.key), "%s", key);
	snprintf(s.chip, sizeof(s.chip), "%s", chip);
	snprintf(s.preset, sizeof(s.preset), "%s", preset);
	s.cpus = (unsigned)cpus;
	/* json-c keeps an int64/uint64 exactly; read it so, not as a double */
	json_object_object_get_ex(o, "seed", &v);
	s.seed = (unsigned long long)json_object_get_uint64(v);
	if (idx < 0 || idx >= s.n || idx != (unsigned)idx) {
		bed_err("sweep-merge: %s: point index %g is outside 0-%u", path, idx, s.n - 1);
		goto out;
	}
	if (first) {
		memcpy(s.pt, sw->pt, sizeof(s.pt));
		*sw = s;
	} else if (strcmp(s.key, sw->key) || strcmp(s.chip, sw->chip) ||
		   strcmp(s.preset, sw->preset) || s.cpus != sw->cpus || s.seed != sw->seed ||
		   s.duration_s != sw->duration_s || s.n != sw->n ||
		   memcmp(s.vals, sw->vals, sizeof(s.vals))) {
		bed_err("sweep-merge: %s is a point of another sweep", path);
		goto out;
	}
	if (have[(unsigned)idx]) {
		bed_err("sweep-merge: %s: point %u (%s = %s) given twice", path, (unsigned)idx,
			s.key, s.vals[(unsigned)idx]);
		goto out;
	}
	if (!jnum_null(o, "gbps", &sw->pt[(unsigned)idx].gbps, &no_gbps) ||
	    !jnum(o, "ksoftirqd", &sw->pt[(unsigned)idx].ksoftirqd) ||
	    !jnum(o, "irqs_per_s", &sw->pt[(unsigned)idx].irqs_per_s) ||
	    !jnum_null(o, "ping_avg_ms", &d, &no_ping) || (no_gbps && !no_retr)) {
		bed_err("sweep-merge: %s: not an rxscale sweep point", path);
		goto out;
	}
	/* null: no reply */
	sw->pt[(unsigned)idx].ping_avg_ms = no_ping ? -1 : d;
	sw->pt[(unsigned)idx].no_iperf3 = no_gbps;
	sw->pt[(unsigned)idx].udp = !no_gbps && no_retr;       /* UDP: no retransmits */
	json_object_object_get_ex(o, "retransmits", &v);
	sw->pt[(unsigned)idx].retransmits = no_retr ? 0 : json_object_get_uint64(v);
	have[(unsigned)idx] = true;
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

