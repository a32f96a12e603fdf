// SPDX-License-Identifier: MIT
/*
 * bed_faults.c - the scenario's fault.* keys (docs/run.md, Faults):
 * the kernel's allocation and vector knobs (kern.h struct kern_faults),
 * the PCIe model's (rtlm.h struct rtlm_faults), the USB model's (rtlu.h
 * struct rtlu_faults), and link flaps through either model's PHY.
 */
#include <stdio.h>

#include "bed/bed_util.h"
#include "bed/bed_world.h"

int bed_faults_check(const struct bed_world *w)
{
	const struct bed_scn_faults *f = &w->scn.fault;

	if (w->uchip && (f->ownbit_every || f->ownbit_delay_ns || f->msix_avail != -1 ||
			 f->msi_fail || f->msix_drop_next || f->msix_drop_every ||
			 f->rx_ring_full || f->irq_fail_nth || f->mmio_post_ns)) {
		bed_err("fault.ownbit_*/msix_*/msi_fail/rx_ring_full/irq_fail_nth/mmio_post_ns: "
			"these keys "
			"apply to the PCIe chips, not to the %s", w->uchip->name);
		return -1;
	}
	if (w->chip && (f->usb_ctrl_stall_next || f->usb_xfer_error_every ||
			f->usb_intr_silent || f->urb_fail_nth)) {
		bed_err("fault.usb_*/urb_fail_nth: these keys apply to the USB chips "
			"(RTL8157, RTL8159), not to %s", w->chip->name);
		return -1;
	}
	if ((f->ownbit_every || f->ownbit_delay_ns) && !w->scn.ownbit_erratum) {
		bed_err("fault.ownbit_every/ownbit_delay_ns: set fault.ownbit_erratum=1 too");
		return -1;
	}
	if (f->link_flap_every && f->link_down >= f->link_flap_every) {
		bed_err("fault.link_down: %g s is not shorter than fault.link_flap_every "
			"(%g s)", f->link_down, f->link_flap_every);
		return -1;
	}
	return 0;
}

void bed_faults_probe(struct bed_world *w)
{
	w->k.fault.msix_avail = w->scn.fault.msix_avail;
	w->k.fault.msi_fail = w->scn.fault.msi_fail;
}

/* Link down every link_flap_every s, up again link_down s later. */
static void flap_fn(struct sim *s, struct sim_event *ev)
{
	struct bed_world *w = ev->arg;
	const struct bed_scn_faults *f = &w->scn.fault;

	w->flap_down = !w->flap_down;
	w->nic->set_link(w, !w->flap_down);
	if (w->flap_down) {
		w->link_flaps++;
		sim_schedule_in(s, ev, (sim_time_t)(f->link_down * 1e9));
	} else {
		sim_schedule_in(s, ev, (sim_time_t)((f->link_flap_every - f->link_down) * 1e9));
	}
}

void bed_faults_arm(struct bed_world *w)
{
	const struct bed_scn_faults *f = &w->scn.fault;

	w->k.fault.dma_fail_nth = f->dma_fail_nth;
	w->k.fault.skb_fail_nth = f->skb_fail_nth;
	w->k.fault.urb_fail_nth = f->urb_fail_nth;
	w->k.fault.irq_fail_nth = f->irq_fail_nth;
	if (w->m) {
		struct rtlm_faults *mf = rtlm_faults(w->m);

		mf->msix_drop_next = f->msix_drop_next;
		mf->msix_drop_every = f->msix_drop_every;
		mf->rx_ring_full = f->rx_ring_full;
		plat_pci_set_posted_writes(rtlm_pci(w->m), f->mmio_post_ns);
	}
	if (w->u) {
		struct rtlu_faults *uf = rtlu_faults(w->u);

		uf->ctrl_stall_next = f->usb_ctrl_stall_next;
		uf->rx_xfer_error_every = f->usb_xfer_error_every;
		uf->intr_silent = f->usb_intr_silent;
	}
	if (f->link_flap_every) {
		sim_event_init(&w->flap_ev, flap_fn, w);
		/* housekeeping: a replay's drain does not wait for it */
		w->flap_ev.background = true;
		sim_schedule_in(&w->sim, &w->flap_ev, (sim_time_t)(f->link_flap_every * 1e9));
	}
}
