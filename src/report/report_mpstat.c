// SPDX-License-Identifier: MIT
/*
 * report_mpstat.c - the CPUs as `mpstat -P ALL 1` prints them, and top's
 * view of the processes the seed experiments quote (iperf3, ksoftirqd/N).
 *
 * Formats are sysstat 12.6's in the C locale, as read in its mpstat.c
 * (write_plain_cpu_stats, write_json_cpu_stats) and common.c
 * (print_gal_header, cprintf_pc); the code is rxscale's.  The header
 * names the simulated host; its clock starts at 00:00:00 on 01/01/70.
 */
#include "report/report.h"

#include <json-c/json.h>

#include "report/report_json.h"

/* The ten columns, in mpstat's order, from the model's classes; the
 * model has no nice, iowait, steal or guest time. */
enum { C_USR, C_NICE, C_SYS, C_IOWAIT, C_IRQ, C_SOFT, C_STEAL, C_GUEST, C_GNICE, C_IDLE,
       C_NR };

static const char *const col_name[C_NR] = {
	"usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest", "gnice", "idle",
};

/* The shares of @cpu (-1: all, the sum over CPUs) between samples @a and
 * @b, percent; false when no time went by (mpstat then prints 100 idle). */
static bool shares(const struct rpt_run *r, int cpu, unsigned a, unsigned b, double v[C_NR])
{
	uint64_t d[SIM_ACCT_NR] = { 0 };
	double tot = 0;

	for (unsigned c = 0; c < r->ncpus; c++) {
		const struct sim_acct_sample *x = &r->acct[a * r->ncpus + c];
		const struct sim_acct_sample *y = &r->acct[b * r->ncpus + c];

		if (cpu >= 0 && (unsigned)cpu != c)
			continue;
		for (int k = 0; k < SIM_ACCT_NR; k++)
			d[k] += y->ns[k] - x->ns[k];
	}
	for (int k = 0; k < SIM_ACCT_NR; k++)
		tot += (double)d[k];
	for (int k = 0; k < C_NR; k++)
		v[k] = 0;
	if (!tot) {
		v[C_IDLE] = 100;
		return false;
	}
	v[C_USR] = 100.0 * (double)d[SIM_ACCT_USR] / tot;
	v[C_SYS] = 100.0 * (double)d[SIM_ACCT_SYS] / tot;
	v[C_IRQ] = 100.0 * (double)d[SIM_ACCT_IRQ] / tot;
	v[C_SOFT] = 100.0 * (double)d[SIM_ACCT_SOFT] / tot;
	v[C_IDLE] = 100.0 * (double)d[SIM_ACCT_IDLE] / tot;
	return true;
}

/* strftime's %X in the C locale, on the simulation's clock */
static void clock_str(char *buf, size_t n, sim_time_t t)
{
	unsigned long long s = t / 1000000000ull;

	snprintf(buf, n, "%02llu:%02llu:%02llu", s / 3600 % 24, s / 60 % 60, s % 60);
}

/* One block: the header with @prev's label, a row per CPU with @curr's. */
static void block(FILE *out, const struct rpt_run *r, const char *prev, const char *curr,
		  unsigned a, unsigned b)
{
	fprintf(out, "\n%-11s  CPU    %%usr   %%nice    %%sys %%iowait    %%irq   %%soft  "
		"%%steal  %%guest  %%gnice   %%idle\n", prev);
	for (int cpu = -1; cpu < (int)r->ncpus; cpu++) {
		double v[C_NR];

		shares(r, cpu, a, b, v);
		fprintf(out, "%-11s", curr);
		if (cpu < 0)
			fprintf(out, "  all");
		else
			fprintf(out, " %4d", cpu);
		for (int k = 0; k < C_NR; k++)
			fprintf(out, " %7.2f", v[k]);
		fputc('\n', out);
	}
}

void report_mpstat(FILE *out, const struct rpt_run *r)
{
	char prev[16], curr[16];

	if (r->nsamp < 2)
		return;
	fprintf(out, "\nLinux rxscale (host) \t01/01/70 \t_x86_64_\t(%u CPU)\n", r->ncpus);
	for (unsigned i = 1; i < r->nsamp; i++) {
		clock_str(prev, sizeof(prev), r->samp_t[i - 1]);
		clock_str(curr, sizeof(curr), r->samp_t[i]);
		block(out, r, prev, curr, i - 1, i);
	}
	block(out, r, "Average:", "Average:", 0, r->nsamp - 1);
}

/* mpstat -o JSON's document: sysstat.hosts[].statistics[].cpu-load[]. */
json_object *report_mpstat_json(const struct rpt_run *r)
{
	json_object *root = json_object_new_object(), *hosts = json_object_new_array();
	json_object *host = json_object_new_object(), *stats = json_object_new_array();

	json_object_object_add(host, "nodename", json_object_new_string("host"));
	json_object_object_add(host, "sysname", json_object_new_string("Linux"));
	json_object_object_add(host, "release", json_object_new_string("rxscale"));
	json_object_object_add(host, "machine", json_object_new_string("x86_64"));
	json_object_object_add(host, "number-of-cpus", json_object_new_int((int)r->ncpus));
	json_object_object_add(host, "date", json_object_new_string("01/01/70"));
	for (unsigned i = 1; i < r->nsamp; i++) {
		json_object *st = json_object_new_object(), *load = json_object_new_array();
		char t[16];

		clock_str(t, sizeof(t), r->samp_t[i]);
		json_object_object_add(st, "timestamp", json_object_new_string(t));
		for (int cpu = -1; cpu < (int)r->ncpus; cpu++) {
			json_object *o = json_object_new_object();
			char name[16], num[16];
			double v[C_NR];

			shares(r, cpu, i - 1, i, v);
			if (cpu < 0)
				snprintf(name, sizeof(name), "all");
			else
				snprintf(name, sizeof(name), "%d", cpu);
			json_object_object_add(o, "cpu", json_object_new_string(name));
			for (int k = 0; k < C_NR; k++) {
				/* mpstat writes "%.2f" */
				snprintf(num, sizeof(num), "%.2f", v[k]);
				json_object_object_add(o, col_name[k],
						       json_object_new_double_s(v[k], num));
			}
			json_object_array_add(load, o);
		}
		json_object_object_add(st, "cpu-load", load);
		json_object_array_add(stats, st);
	}
	json_object_object_add(host, "statistics", stats);
	json_object_array_add(hosts, host);
	json_object_object_add(root, "hosts", hosts);
	return root;
}

void report_top(FILE *out, const struct rpt_run *r)
{
	if (!r->ip.up)
		return;
	fprintf(out, "\ntop (%%CPU, %s): iperf3", r->cpu_window ? "mean after 2 s" : "whole run");
	if (r->ip.instances > 1)        /* its processes together */
		fprintf(out, " (%u)", r->ip.instances);
	fprintf(out, " %.1f", r->ip.app_cpu);
	for (unsigned c = 0; c < r->ncpus; c++)
		if (r->cpu[c].ksoftirqd >= 0.05)
			fprintf(out, ", ksoftirqd/%u %.1f", c, r->cpu[c].ksoftirqd);
	if (r->ip.busy_tasks)
		fprintf(out, ", stress-ng-cpu (%u) %.1f", r->ip.busy_tasks, r->ip.busy_cpu);
	fprintf(out, "\n");
}

void report_cpuidle(FILE *out, const struct rpt_run *r)
{
	if (!r->idle)
		return;
	fprintf(out, "\ncpuidle (%s: %s), entries summed over the CPUs:", r->idle->name,
		r->idle->what);
	for (unsigned k = 0; k < r->idle->n; k++)
		fprintf(out, "%s %s %llu", k ? "," : "", r->idle->s[k].name,
			(unsigned long long)r->idle_usage[k]);
	fprintf(out, "; tick wake-ups %llu; waking up %.3f ms in all\n",
		(unsigned long long)r->idle_ticks, (double)r->idle_exit_ns / 1e6);
}

json_object *report_cpuidle_json(const struct rpt_run *r)
{
	json_object *o = json_object_new_object(), *st = json_object_new_array();

	json_object_object_add(o, "table", json_object_new_string(r->idle->name));
	for (unsigned k = 0; k < r->idle->n; k++) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "name", json_object_new_string(r->idle->s[k].name));
		json_object_object_add(s, "latency_us",
				       json_object_new_int64(r->idle->s[k].exit_latency_us));
		json_object_object_add(s, "residency_us",
				       json_object_new_int64(r->idle->s[k].target_residency_us));
		json_object_object_add(s, "usage", json_object_new_int64(
			(int64_t)r->idle_usage[k]));
		json_object_array_add(st, s);
	}
	json_object_object_add(o, "states", st);
	json_object_object_add(o, "tick_wakeups", json_object_new_int64((int64_t)r->idle_ticks));
	json_object_object_add(o, "exit_ms", json_object_new_double((double)r->idle_exit_ns / 1e6));
	return o;
}
