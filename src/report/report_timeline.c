// SPDX-License-Identifier: MIT
/*
 * report_timeline.c - a run's timeline: each ethtool command at its time
 * (with its CPU, its CPU time, what ethtool printed, and whether it was
 * rejected), each fault, and the chaos summary; as text and as JSON.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <string.h>

#include "report/report_json.h"

/* @s, each line indented by four blanks, ending in a newline. */
static void indented(FILE *out, const char *s)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		fprintf(out, n ? "    %.*s\n" : "\n", (int)n, s);
		s += n + (nl != NULL);
	}
}

/* "N lost-interrupt kicks, N resets (N TX timeouts)" and a newline */
static void recovery(FILE *out, const struct rpt_timeline *t)
{
	fprintf(out, "%llu lost-interrupt kick%s, %llu reset%s (%llu TX timeout%s)\n",
		(unsigned long long)t->kicks, t->kicks == 1 ? "" : "s",
		(unsigned long long)t->resets, t->resets == 1 ? "" : "s",
		(unsigned long long)t->tx_timeouts, t->tx_timeouts == 1 ? "" : "s");
}

void report_timeline(FILE *out, const struct rpt_run *r)
{
	const struct rpt_timeline *t = &r->tl;

	if (!t->n && !t->chaos)
		return;
	fprintf(out, "\ntimeline:\n");
	for (unsigned i = 0; i < t->n; i++) {
		const struct rpt_tl_entry *e = &t->e[i];

		if (!e->ethtool) {
			fprintf(out, "%11.6f s  fault: %s\n", e->at_s, e->args);
			continue;
		}
		fprintf(out, "%11.6f s  ethtool %s  (CPU %d, %.1f us)", e->at_s, e->args,
			e->cpu, e->took_us);
		if (e->rc)
			fprintf(out, ": rejected (exit %d), %s", e->rc,
				e->state_changed ? "yet its settings changed" :
				"the old settings stay");
		fputc('\n', out);
		indented(out, e->out);
		indented(out, e->err);
	}
	if (t->chaos) {
		fprintf(out, "chaos: %u reconfigurations (%u applied, %u rejected with the old "
			"settings kept, %u rejected with them changed), %u faults; ",
			t->applied + t->rejected, t->applied, t->rejected - t->rejected_changed,
			t->rejected_changed, t->faults);
		if (t->max_stall_ms > 0)
			fprintf(out, "longest stall %.1f ms (%s %u; bound %.1f ms)",
				t->max_stall_ms,
				t->max_stall_q < RTL_MAX_RX_QUEUES ? "RX queue" : "TX queue",
				t->max_stall_q < RTL_MAX_RX_QUEUES ? t->max_stall_q : 0,
				t->bound_ms);
		else
			fprintf(out, "no stall (bound %.1f ms)", t->bound_ms);
		fputs(", ", out);
		recovery(out, t);
	} else if (t->faults) {
		fprintf(out, "faults: %u; the driver's recovery: ", t->faults);
		recovery(out, t);
	}
	if (t->failed)
		fprintf(out, "%u timeline command%s rejected: the run went on with the old "
			"settings\n", t->failed, t->failed == 1 ? " was" : "s were");
}

json_object *report_timeline_json(const struct rpt_run *r)
{
	const struct rpt_timeline *t = &r->tl;
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (unsigned i = 0; i < t->n; i++) {
		const struct rpt_tl_entry *e = &t->e[i];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "at", json_object_new_double(e->at_s));
		json_object_object_add(x, "what", json_object_new_string(e->what));
		json_object_object_add(x, "args", json_object_new_string(e->args));
		json_object_object_add(x, "chaos", json_object_new_boolean(e->chaos));
		if (e->ethtool) {
			json_object_object_add(x, "exit", json_object_new_int(e->rc));
			json_object_object_add(x, "cpu", json_object_new_int(e->cpu));
			json_object_object_add(x, "cpu_us", json_object_new_double(e->took_us));
			json_object_object_add(x, "stdout", json_object_new_string(e->out));
			json_object_object_add(x, "stderr", json_object_new_string(e->err));
			if (e->rc)
				json_object_object_add(x, "settings_changed",
						       json_object_new_boolean(e->state_changed));
		}
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "entries", a);
	json_object_object_add(o, "rejected", json_object_new_int((int)t->failed));
	if (t->chaos || t->faults) {
		json_object_object_add(o, "faults", json_object_new_int((int)t->faults));
		json_object_object_add(o, "lost_interrupt_kicks",
				       json_object_new_int64((int64_t)t->kicks));
		json_object_object_add(o, "resets", json_object_new_int64((int64_t)t->resets));
		json_object_object_add(o, "tx_timeouts",
				       json_object_new_int64((int64_t)t->tx_timeouts));
	}
	if (t->chaos) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "applied", json_object_new_int((int)t->applied));
		json_object_object_add(c, "rejected", json_object_new_int((int)t->rejected));
		json_object_object_add(c, "rejected_settings_changed",
				       json_object_new_int((int)t->rejected_changed));
		json_object_object_add(c, "faults", json_object_new_int((int)t->faults));
		json_object_object_add(c, "max_stall_ms", json_object_new_double(t->max_stall_ms));
		json_object_object_add(c, "max_stall_queue", json_object_new_string(
			t->max_stall_q < RTL_MAX_RX_QUEUES ? "rx" : "tx"));
		json_object_object_add(c, "stall_bound_ms", json_object_new_double(t->bound_ms));
		json_object_object_add(c, "lost_interrupt_kicks",
				       json_object_new_int64((int64_t)t->kicks));
		json_object_object_add(o, "chaos", c);
	}
	return o;
}
