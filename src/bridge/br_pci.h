/* SPDX-License-Identifier: MIT */
/*
 * br_pci.h - what every transport does with a PCI function (struct
 * plat_pci_dev): check that a BAR access lands inside a memory BAR, and
 * split an access of any size into the naturally aligned 1-, 2-, 4- or
 * 8-byte accesses a register handler takes.  virt-pci (UML) and vfio-user
 * (QEMU) both serve a function through these.
 *
 * An access of 1, 2, 4 or 8 bytes aligned to its size is one handler call
 * of that size; any other (memcpy_fromio/toio, memset_io, a client's odd
 * read) is split into naturally aligned 4-, 2- and 1-byte accesses.  Data
 * is little-endian, as on the PCI bus.
 */
#ifndef RXSCALE_BR_PCI_H
#define RXSCALE_BR_PCI_H

#include <stddef.h>
#include <stdint.h>

#include "plat/plat_pci.h"

/* Why [@off, @off + @size) of BAR @bar is no place for an access (into
 * @why, @n bytes), or NULL when the access may go to the BAR's handlers. */
const char *br_pci_bar_check(const struct plat_pci_dev *d, unsigned bar,
			     uint64_t off, uint64_t size, char *why, size_t n);

/* Read or write @size bytes at @off of a checked BAR through its handlers
 * (a read fills @out; handlers that are absent read all ones). */
void br_pci_bar_read(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		     uint64_t size, uint8_t *out);
void br_pci_bar_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		      uint64_t size, const uint8_t *in);

/* Size of the next piece at byte @pos of an @size-byte access at @off. */
unsigned br_pci_piece(uint64_t off, uint64_t size, uint64_t pos);

void br_put_le(uint8_t *p, uint64_t v, unsigned n);
uint64_t br_get_le(const uint8_t *p, unsigned n);

#endif /* RXSCALE_BR_PCI_H */
