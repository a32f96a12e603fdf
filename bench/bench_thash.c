/* SPDX-License-Identifier: MIT */
/*
 * bench_thash.c - ns per Toeplitz hash: rxscale against DPDK.
 *
 *   build/bench/bench-thash [--json]
 *
 * Implementations, each timed on 8-, 12- and 36-byte tuples (IPv4 2-tuple,
 * IPv4 4-tuple, IPv6 4-tuple) with the 40-byte Microsoft key:
 *   rxscale-ref     rss_toeplitz_ref(), bit-serial reference
 *   rxscale-lut     rss_thash_lut(), per-key byte tables
 *   rxscale-gfni    rss_thash_gfni(), GFNI affine transforms on AVX-512,
 *                   if the CPU has them
 *   rxscale         rss_thash(): the path rss_thash_init() chose here
 *   rte_softrss     DPDK, tuple as host-order uint32 words, key as is
 *   rte_softrss_be  DPDK, same tuple, key from rte_convert_rss_key()
 *   rte_thash_gfni  DPDK GFNI/AVX-512 (bench_thash_gfni.c), if the CPU has it
 * The DPDK entries exist only when the build found libdpdk.
 *
 * Method: 1024 tuples from a fixed-seed xorshift64; each measurement hashes
 * all of them `passes' times (passes calibrated to ~20 ms), XORs the hashes
 * into an accumulator that goes to a volatile sink after every pass, and
 * is repeated, the repeats interleaved across implementations; the median
 * over the repeats is reported (clock_gettime(CLOCK_MONOTONIC)).  Tuple preparation
 * (host-order words for rte_softrss, byte tables, GFNI matrices) is done
 * once, outside the timing, as an application would.  Before timing, every
 * implementation must give the same hash as the reference on the first
 * tuples (and on the Microsoft verification-suite vectors), or the program
 * stops with an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rss/rss_toeplitz.h"

#ifdef BENCH_HAVE_DPDK
#include <rte_thash.h>
#endif

#ifdef BENCH_HAVE_GFNI
/* bench_thash_gfni.c, compiled with AVX-512 flags: CPU-check first. */
int bench_gfni_prepare(const uint8_t *key, size_t key_len);
uint32_t bench_gfni_hash(const uint8_t *data, size_t len);
void bench_gfni_run(const uint8_t *tuples, size_t stride, size_t n,
		    size_t len, uint64_t passes, volatile uint32_t *sink);
#endif

#define NTUPLES		1024		/* power of two */
#define TUPLE_MAX	40		/* stride of the tuple array, bytes */
#define NVERIFY		64		/* tuples cross-checked per length */
#define REPEATS		7		/* timed runs per cell; median kept */
#define CAL_NS		4e6		/* calibration: a run at least this */
#define TARGET_NS	20e6		/* then each timed run about this */
#define KEY_LEN		40

static const uint8_t ms_key[KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static const size_t lens[] = { 8, 12, 36 };
#define NLENS (sizeof(lens) / sizeof(lens[0]))

/* Tuples in network order, and the same as host-order words (softrss). */
static uint8_t tuples[NTUPLES][TUPLE_MAX] __attribute__((aligned(64)));
static uint32_t words[NTUPLES][TUPLE_MAX / 4] __attribute__((aligned(64)));

static struct rss_thash lut_ctx;
#ifdef BENCH_HAVE_DPDK
static uint32_t key_w[KEY_LEN / 4];	/* ms_key, 4-byte aligned */
static uint32_t key_be[KEY_LEN / 4];	/* rte_convert_rss_key(ms_key) */
#endif

static volatile uint32_t bench_sink;

/* Keep the compiler from hoisting a (loop-invariant) pass. */
#define BARRIER() __asm__ volatile("" ::: "memory")

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void words_from_bytes(uint32_t *w, const uint8_t *b, size_t len)
{
	size_t j;

	for (j = 0; j < len / 4; j++)
		w[j] = (uint32_t)b[4 * j] << 24 | (uint32_t)b[4 * j + 1] << 16 |
		       (uint32_t)b[4 * j + 2] << 8 | (uint32_t)b[4 * j + 3];
}

static void make_tuples(void)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	size_t i, j;

	for (i = 0; i < NTUPLES; i++) {
		for (j = 0; j < TUPLE_MAX; j++)
			tuples[i][j] = (uint8_t)(xorshift64(&s) >> 56);
		words_from_bytes(words[i], tuples[i], TUPLE_MAX);
	}
}

/* ---- the implementations: one hash, and a timed loop ---------------- */

typedef uint32_t (*hash_fn)(const uint8_t *data, uint32_t *w, size_t len);
typedef void (*run_fn)(size_t len, uint64_t passes);

#define DEFINE_RUN(name, EXPR)						\
static void name(size_t len, uint64_t passes)				\
{									\
	uint64_t p;							\
	size_t i;							\
									\
	for (p = 0; p < passes; p++) {					\
		uint32_t acc = 0;					\
									\
		BARRIER();						\
		for (i = 0; i < NTUPLES; i++)				\
			acc ^= (EXPR);					\
		bench_sink ^= acc;					\
	}								\
}

static uint32_t hash_ref(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)w;
	return rss_toeplitz_ref(ms_key, KEY_LEN, data, len);
}
DEFINE_RUN(run_ref, rss_toeplitz_ref(ms_key, KEY_LEN, tuples[i], len))

static uint32_t hash_lut(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)w;
	return rss_thash_lut(&lut_ctx, data, len);
}
DEFINE_RUN(run_lut, rss_thash_lut(&lut_ctx, tuples[i], len))

static uint32_t hash_own_gfni(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)w;
	return rss_thash_gfni(&lut_ctx, data, len);
}
DEFINE_RUN(run_own_gfni, rss_thash_gfni(&lut_ctx, tuples[i], len))

static uint32_t hash_own(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)w;
	return rss_thash(&lut_ctx, data, len);
}
DEFINE_RUN(run_own, rss_thash(&lut_ctx, tuples[i], len))

#ifdef BENCH_HAVE_DPDK
static uint32_t hash_softrss(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)data;
	return rte_softrss(w, (uint32_t)(len / 4), (const uint8_t *)key_w);
}
DEFINE_RUN(run_softrss, rte_softrss(words[i], (uint32_t)(len / 4),
				    (const uint8_t *)key_w))

static uint32_t hash_softrss_be(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)data;
	return rte_softrss_be(w, (uint32_t)(len / 4), (const uint8_t *)key_be);
}
DEFINE_RUN(run_softrss_be, rte_softrss_be(words[i], (uint32_t)(len / 4),
					  (const uint8_t *)key_be))
#endif

#ifdef BENCH_HAVE_GFNI
static uint32_t hash_gfni(const uint8_t *data, uint32_t *w, size_t len)
{
	(void)w;
	return bench_gfni_hash(data, len);
}

static void run_gfni(size_t len, uint64_t passes)
{
	bench_gfni_run(&tuples[0][0], TUPLE_MAX, NTUPLES, len, passes,
		       &bench_sink);
}
#endif

struct impl {
	const char *name;
	hash_fn hash;
	run_fn run;
	const char *skipped;	/* non-NULL: not run, this is why */
	double ns[NLENS];
};

static struct impl impls[] = {
	{ .name = "rxscale-ref", .hash = hash_ref, .run = run_ref },
	{ .name = "rxscale-lut", .hash = hash_lut, .run = run_lut },
	{ .name = "rxscale-gfni", .hash = hash_own_gfni, .run = run_own_gfni },
	{ .name = "rxscale", .hash = hash_own, .run = run_own },
#ifdef BENCH_HAVE_DPDK
	{ .name = "rte_softrss", .hash = hash_softrss, .run = run_softrss },
	{ .name = "rte_softrss_be", .hash = hash_softrss_be,
	  .run = run_softrss_be },
#ifdef BENCH_HAVE_GFNI
	{ .name = "rte_thash_gfni", .hash = hash_gfni, .run = run_gfni },
#else
	{ .name = "rte_thash_gfni",
	  .skipped = "not built: compiler lacks -mgfni/-mavx512* flags" },
#endif
#endif
};
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))

static struct impl *find_impl(const char *name)
{
	size_t k;

	for (k = 0; k < NIMPLS; k++)
		if (strcmp(impls[k].name, name) == 0 && !impls[k].skipped)
			return &impls[k];
	return NULL;
}

#ifdef BENCH_HAVE_GFNI
static char gfni_reason[160];

/* NULL if rte_thash_gfni can run here, else why not. */
static const char *gfni_unsupported(void)
{
	static const char *const feats[] = {
		"gfni", "avx512f", "avx512bw", "avx512vbmi", "avx512vl",
		"avx512dq",
	};
	int ok[sizeof(feats) / sizeof(feats[0])];
	size_t k, n = sizeof(feats) / sizeof(feats[0]);
	int all = 1;

	__builtin_cpu_init();
	/* __builtin_cpu_supports() wants a string literal. */
	ok[0] = __builtin_cpu_supports("gfni");
	ok[1] = __builtin_cpu_supports("avx512f");
	ok[2] = __builtin_cpu_supports("avx512bw");
	ok[3] = __builtin_cpu_supports("avx512vbmi");
	ok[4] = __builtin_cpu_supports("avx512vl");
	ok[5] = __builtin_cpu_supports("avx512dq");
	strcpy(gfni_reason, "CPU lacks");
	for (k = 0; k < n; k++) {
		if (ok[k])
			continue;
		strcat(gfni_reason, all ? " " : ", ");
		strcat(gfni_reason, feats[k]);
		all = 0;
	}
	return all ? NULL : gfni_reason;
}
#endif

/* ---- correctness gate ---------------------------------------------- */

static void check_one(const char *what, const uint8_t *data, size_t len,
		      uint32_t expect)
{
	uint32_t w[TUPLE_MAX / 4];
	size_t k;

	words_from_bytes(w, data, len);
	for (k = 0; k < NIMPLS; k++) {
		uint32_t h;

		if (impls[k].skipped)
			continue;
		h = impls[k].hash(data, w, len);
		if (h != expect) {
			fprintf(stderr, "bench-thash: %s gives 0x%08x for %s "
				"(%zu bytes), expected 0x%08x; comparison "
				"would be meaningless, aborting\n",
				impls[k].name, h, what, len, expect);
			exit(1);
		}
	}
}

static void verify(void)
{
	/* Microsoft RSS verification suite, IPv4: 66.9.149.187:2794 ->
	 * 161.142.100.80:1766 (src addr, dst addr, src port, dst port). */
	static const uint8_t ms4[12] = {
		66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6,
	};
	char what[32];
	size_t i, l;

	check_one("MS vector IPv4 2-tuple", ms4, 8, 0x323e8fc2);
	check_one("MS vector IPv4 4-tuple", ms4, 12, 0x51ccc178);
	for (l = 0; l < NLENS; l++)
		for (i = 0; i < NVERIFY; i++) {
			snprintf(what, sizeof(what), "tuple %zu", i);
			check_one(what, tuples[i], lens[l],
				  hash_ref(tuples[i], words[i], lens[l]));
		}
}

/* ---- timing -------------------------------------------------------- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Passes of @run on @len-byte tuples that take about TARGET_NS. */
static uint64_t calibrate(run_fn run, size_t len)
{
	uint64_t passes = 1;
	double t, t0;

	for (;;) {	/* also warms caches and tables up */
		t0 = now_ns();
		run(len, passes);
		t = now_ns() - t0;
		if (t >= CAL_NS || passes >= (1ULL << 40))
			break;
		passes *= 2;
	}
	passes = (uint64_t)((double)passes * TARGET_NS / (t > 1 ? t : 1));
	return passes ? passes : 1;
}

/* ns per hash of one timed run. */
static double time_once(run_fn run, size_t len, uint64_t passes)
{
	double t0 = now_ns();

	run(len, passes);
	return (now_ns() - t0) / ((double)passes * NTUPLES);
}

/*
 * Fill impls[].ns: the repeats are interleaved (round r times every
 * cell once) so that frequency or neighbour drift on a shared machine
 * spreads over all implementations instead of biasing one; the median of
 * each cell's REPEATS samples is kept.
 */
static void measure_all(void)
{
	static uint64_t passes[NIMPLS][NLENS];
	static double s[NIMPLS][NLENS][REPEATS];
	size_t k, l;
	int r;

	for (k = 0; k < NIMPLS; k++)
		for (l = 0; l < NLENS; l++)
			if (!impls[k].skipped)
				passes[k][l] = calibrate(impls[k].run,
							 lens[l]);
	for (r = 0; r < REPEATS; r++)
		for (k = 0; k < NIMPLS; k++)
			for (l = 0; l < NLENS; l++)
				if (!impls[k].skipped)
					s[k][l][r] = time_once(impls[k].run,
							       lens[l],
							       passes[k][l]);
	for (k = 0; k < NIMPLS; k++)
		for (l = 0; l < NLENS; l++) {
			if (impls[k].skipped)
				continue;
			qsort(s[k][l], REPEATS, sizeof(s[k][l][0]),
			      cmp_double);
			impls[k].ns[l] = s[k][l][REPEATS / 2];
		}
}

/* ---- output -------------------------------------------------------- */

static void cpu_name(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, size, "%s", p);
		break;
	}
	fclose(f);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* ns(softrss_be) / ns(lut) at @len bytes, or 0 if either is missing. */
static double lut_speedup(size_t l)
{
	const struct impl *lut = find_impl("rxscale-lut");
	const struct impl *be = find_impl("rte_softrss_be");

	if (!lut || !be || lut->ns[l] <= 0)
		return 0;
	return be->ns[l] / lut->ns[l];
}

/* ns(rxscale) / ns(rte_thash_gfni) at @len bytes, or 0 if either is
 * missing (the target: <= 1 at every size). */
static double own_vs_gfni(size_t l)
{
	const struct impl *own = find_impl("rxscale");
	const struct impl *g = find_impl("rte_thash_gfni");

	if (!own || !g || g->ns[l] <= 0)
		return 0;
	return own->ns[l] / g->ns[l];
}

static void print_json(const char *cpu)
{
	size_t k, l;
	int first = 1;

	printf("{\"results\":[");
	for (k = 0; k < NIMPLS; k++)
		for (l = 0; l < NLENS; l++) {
			printf("%s\n  {\"impl\":", first ? "" : ",");
			json_string(impls[k].name);
			printf(",\"bytes\":%zu,\"ns\":", lens[l]);
			if (impls[k].skipped) {
				printf("null,\"skipped\":");
				json_string(impls[k].skipped);
			} else {
				printf("%.2f", impls[k].ns[l]);
			}
			putchar('}');
			first = 0;
		}
	printf("\n ],\n \"ratios\":{");
	first = 1;
	for (l = 0; l < NLENS; l++) {
		double x = lut_speedup(l);

		if (x <= 0)
			continue;
		printf("%s\"lut_vs_softrss_be_%zu\":%.2f", first ? "" : ",",
		       lens[l], x);
		first = 0;
	}
	for (l = 0; l < NLENS; l++) {
		double x = own_vs_gfni(l);

		if (x <= 0)
			continue;
		printf("%s\"rxscale_vs_rte_thash_gfni_%zu\":%.2f",
		       first ? "" : ",", lens[l], x);
		first = 0;
	}
	printf("},\n \"rxscale_path\":\"%s\",\n \"cpu\":",
	       lut_ctx.use_gfni ? "gfni" : "lut");
	json_string(cpu);
	printf(",\n \"key_bytes\":%d,\"tuples\":%d,\"repeats\":%d,"
	       "\"statistic\":\"median\"}\n", KEY_LEN, NTUPLES, REPEATS);
}

static void print_table(const char *cpu)
{
	size_t k, l;

	printf("Toeplitz hash, ns/hash (median of %d runs, %d tuples, "
	       "%d-byte Microsoft key)\n", REPEATS, NTUPLES, KEY_LEN);
	printf("CPU: %s\n\n", cpu);
	printf("%-16s", "impl");
	for (l = 0; l < NLENS; l++)
		printf(" %8zu B", lens[l]);
	printf("\n");
	for (k = 0; k < NIMPLS; k++) {
		printf("%-16s", impls[k].name);
		if (impls[k].skipped) {
			printf(" skipped: %s\n", impls[k].skipped);
			continue;
		}
		for (l = 0; l < NLENS; l++)
			printf(" %10.2f", impls[k].ns[l]);
		printf("\n");
	}
	if (lut_speedup(0) > 0) {
		int met = 1;

		printf("\nrxscale-lut speedup over rte_softrss_be:");
		for (l = 0; l < NLENS; l++) {
			printf(" %zu B %.2fx%s", lens[l], lut_speedup(l),
			       l + 1 < NLENS ? "," : "");
			if (lens[l] != 8 && lut_speedup(l) < 5)
				met = 0;
		}
		printf("\ntarget >= 5x at 12 and 36 B: %s\n",
		       met ? "met" : "NOT met");
	}
	printf("\nrxscale uses the %s path here", lut_ctx.use_gfni ?
	       "GFNI/AVX-512" : "byte-table (CPU lacks GFNI/AVX512BW/AVX512VBMI)");
	if (own_vs_gfni(0) > 0) {
		int met = 1;

		printf("; rxscale / rte_thash_gfni:");
		for (l = 0; l < NLENS; l++) {
			printf(" %zu B %.2fx%s", lens[l], own_vs_gfni(l),
			       l + 1 < NLENS ? "," : "");
			if (own_vs_gfni(l) > 1)
				met = 0;
		}
		printf("\ntarget <= 1x at every size: %s", met ? "met" : "NOT met");
	}
	printf("\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench-thash [--json]\n"
		"  ns per Toeplitz hash, rxscale vs DPDK, 8/12/36-byte "
		"tuples\n");
}

int main(int argc, char **argv)
{
	char cpu[256];
	int json = 0, i, err;
#ifdef BENCH_HAVE_GFNI
	size_t k;
#endif

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "-h") == 0 ||
			   strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}

	make_tuples();
	err = rss_thash_init(&lut_ctx, ms_key, KEY_LEN);
	if (err) {
		fprintf(stderr, "bench-thash: rss_thash_init: %s\n",
			strerror(-err));
		return 1;
	}
#ifdef BENCH_HAVE_DPDK
	memcpy(key_w, ms_key, KEY_LEN);
	rte_convert_rss_key(key_w, key_be, KEY_LEN);
#endif
#ifdef BENCH_HAVE_GFNI
	for (k = 0; k < NIMPLS; k++) {
		if (strcmp(impls[k].name, "rte_thash_gfni") != 0)
			continue;
		impls[k].skipped = gfni_unsupported();
		if (!impls[k].skipped && bench_gfni_prepare(ms_key, KEY_LEN))
			impls[k].skipped = "rte_thash_complete_matrix failed";
	}
#endif
	for (size_t m = 0; m < NIMPLS; m++)
		if (strcmp(impls[m].name, "rxscale-gfni") == 0 && !lut_ctx.use_gfni)
			impls[m].skipped = "CPU lacks GFNI/AVX512BW/AVX512VBMI";

	verify();

	measure_all();

	cpu_name(cpu, sizeof(cpu));
	if (json)
		print_json(cpu);
	else
		print_table(cpu);
	rss_thash_fini(&lut_ctx);
	return 0;
}
