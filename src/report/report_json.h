/* SPDX-License-Identifier: MIT */
/* report_json.h - the parts of the JSON report built in other files. */
#ifndef RXSCALE_REPORT_JSON_H
#define RXSCALE_REPORT_JSON_H

#include <json-c/json.h>

struct rpt_run;

/* iperf3 -J's "start", "intervals" and "end" of the workload, into @root. */
void report_json_iperf3(json_object *root, const struct rpt_run *r);

/* mpstat -o JSON's "sysstat" object of the run's CPUs. */
json_object *report_mpstat_json(const struct rpt_run *r);

/* The idle-state counters (r->idle must be set). */
json_object *report_cpuidle_json(const struct rpt_run *r);

/* The run's timeline and chaos summary (report_timeline.c). */
json_object *report_timeline_json(const struct rpt_run *r);

#endif /* RXSCALE_REPORT_JSON_H */
