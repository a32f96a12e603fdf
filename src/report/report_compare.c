// SPDX-License-Identifier: MIT
/*
 * report_compare.c - the --compare table: per EXPERIMENTS.md row the
 * seed's figure, the simulated value, the band and whether it holds.
 */
#include "report/report.h"

void report_compare(FILE *out, const struct rpt_run *r)
{
	fprintf(out, "\n%-4s  %-34s  %-30s  %8s  %-20s  %-9s  %s\n", "row", "figure",
		"seed", "sim", "band", "role", "in band");
	for (unsigned i = 0; i < r->ncmp; i++) {
		const struct rpt_compare *c = &r->cmp[i];
		char band[40];

		if (c->row->band_text)
			snprintf(band, sizeof(band), "%s", c->row->band_text);
		else if (c->row->hi > 1e8)
			snprintf(band, sizeof(band), ">= %g", c->row->lo);
		else
			snprintf(band, sizeof(band), "%g ... %g", c->row->lo, c->row->hi);
		fprintf(out, "%-4s  %-34s  %-30s  %8.*f  %-20s  %-9s  %s  %s\n", c->row->id,
			c->row->figure, c->row->seed, c->row->hi < 5 ? 3 : 2, c->value, band,
			c->row->fit ? "fit" : "predicted", c->ok ? "yes" : "NO", c->note);
	}
	if (!r->ncmp)
		fprintf(out, "(this scenario names no EXPERIMENTS.md rows: compare.rows)\n");
	else if (r->compare_sets && r->compare_sets[0])
		fprintf(out, "note: --set changed the scenario (%s); the seed figures are of "
			"the setup the scenario file describes\n", r->compare_sets);
}
