/* SPDX-License-Identifier: MIT */
/* report_iperf3.h - what iperf3's text and JSON printers share. */
#ifndef RXSCALE_REPORT_IPERF3_H
#define RXSCALE_REPORT_IPERF3_H

#include <stdbool.h>
#include <stddef.h>

/* The measurement's addresses (src/load/load_addr.h) and iperf3's port. */
#define RPT_HOST_IP "192.168.2.1"
#define RPT_PEER_IP "192.168.2.2"
#define RPT_IPERF3_PORT 5201u

/* @v bytes (or, @bits, @v bytes as bits) as iperf3's unit_snprintf()
 * prints it: "1.10 GByte", "9.41 Gbit". */
void rpt_iperf3_units(char *buf, size_t n, double v, bool bits);

#endif /* RXSCALE_REPORT_IPERF3_H */
