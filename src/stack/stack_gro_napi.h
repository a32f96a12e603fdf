/* SPDX-License-Identifier: MIT */
/*
 * stack_gro_napi.h - GRO per NAPI instance, as Linux keeps a GRO list in
 * each napi_struct: the host stack's receive path finds the GRO state of
 * the NAPI instance that delivers a frame (made at its first frame) and
 * flushes it when that poll ends.  Every instance hands its packets up to
 * the same receive step (the demux).
 */
#ifndef RXSCALE_STACK_STACK_GRO_NAPI_H
#define RXSCALE_STACK_STACK_GRO_NAPI_H

#include "stack/stack_gro.h"

struct napi_struct;

struct stack_gro_napi {
	struct sim *sim;
	struct sim_host *host;
	stack_pkt_fn up;                /* where packets go (the demux) */
	void *up_arg;
	struct stack_gro_napi_inst {
		struct napi_struct *napi;
		struct stack_gro gro;
	} **v;                          /* in order of first use */
	unsigned n, cap;
	unsigned last;                  /* the one a frame found last */
};

/* An empty set; each instance's GRO gets @sim, @host and hands packets to
 * @up(@arg, pkt).  A zeroed struct is an empty set too (fini is safe). */
void stack_gro_napi_init(struct stack_gro_napi *t, struct sim *sim,
			 struct sim_host *host, stack_pkt_fn up, void *arg);

/* The GRO state of @napi, or NULL if it has none yet. */
struct stack_gro *stack_gro_napi_find(struct stack_gro_napi *t,
				      struct napi_struct *napi);

/* The GRO state of @napi, made (with the defaults) at its first frame;
 * NULL if memory runs out. */
struct stack_gro *stack_gro_napi_get(struct stack_gro_napi *t,
				     struct napi_struct *napi);

/* The end of @napi's poll: flush its GRO, if it has one. */
void stack_gro_napi_flush(struct stack_gro_napi *t, struct napi_struct *napi);

/* Free every instance's GRO state (held packets are not delivered). */
void stack_gro_napi_fini(struct stack_gro_napi *t);

#endif /* RXSCALE_STACK_STACK_GRO_NAPI_H */
