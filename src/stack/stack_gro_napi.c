// SPDX-License-Identifier: MIT
/*
 * stack_gro_napi.c - GRO per NAPI instance (see stack_gro_napi.h).
 */
#include <stdlib.h>

#include "stack/stack_gro_napi.h"

void stack_gro_napi_init(struct stack_gro_napi *t, struct sim *sim,
			 struct sim_host *host, stack_pkt_fn up, void *arg)
{
	t->sim = sim;
	t->host = host;
	t->up = up;
	t->up_arg = arg;
	t->v = NULL;
	t->n = t->cap = 0;
	t->last = 0;
}

/* A poll's frames come from one instance: the last one found is tried
 * first (no search per frame across one instance per RX queue). */
struct stack_gro *stack_gro_napi_find(struct stack_gro_napi *t,
				      struct napi_struct *napi)
{
	if (t->last < t->n && t->v[t->last]->napi == napi)
		return &t->v[t->last]->gro;
	for (unsigned i = 0; i < t->n; i++)
		if (t->v[i]->napi == napi) {
			t->last = i;
			return &t->v[i]->gro;
		}
	return NULL;
}

struct stack_gro *stack_gro_napi_get(struct stack_gro_napi *t,
				     struct napi_struct *napi)
{
	struct stack_gro *found = stack_gro_napi_find(t, napi);
	struct stack_gro_params gp;
	struct stack_gro_napi_inst *g;

	if (found)
		return found;
	if (t->n == t->cap) {
		unsigned cap = t->cap ? 2 * t->cap : 8;
		struct stack_gro_napi_inst **v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	stack_gro_params_default(&gp);
	g->napi = napi;
	if (stack_gro_init(&g->gro, &gp, t->sim, t->host, t->up, t->up_arg)) {
		free(g);
		return NULL;
	}
	t->last = t->n;
	t->v[t->n++] = g;
	return &g->gro;
}

void stack_gro_napi_flush(struct stack_gro_napi *t, struct napi_struct *napi)
{
	struct stack_gro *g = stack_gro_napi_find(t, napi);

	if (g)
		stack_gro_flush(g);
}

void stack_gro_napi_fini(struct stack_gro_napi *t)
{
	for (unsigned i = 0; i < t->n; i++) {
		stack_gro_fini(&t->v[i]->gro);
		free(t->v[i]);
	}
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
