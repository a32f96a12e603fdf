// SPDX-License-Identifier: MIT
/*
 * br_pci.c - BAR access checks and splitting shared by the transports (see
 * br_pci.h).
 */
#include "bridge/br_pci.h"

#include <stdio.h>
#include <string.h>

void br_put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t br_get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

const char *br_pci_bar_check(const struct plat_pci_dev *d, unsigned bar,
			     uint64_t off, uint64_t size, char *why, size_t n)
{
	if (bar >= PLAT_PCI_BARS || !d->bar[bar].size || d->bar[bar].io ||
	    !d->bar[bar].ops) {
		snprintf(why, n, "%llu bytes on BAR %u, which is not a memory BAR",
			 (unsigned long long)size, bar);
		return why;
	}
	if (off >= d->bar[bar].size || size > d->bar[bar].size - off) {
		snprintf(why, n, "%llu bytes at BAR %u + 0x%llx beyond its 0x%llx bytes",
			 (unsigned long long)size, bar, (unsigned long long)off,
			 (unsigned long long)d->bar[bar].size);
		return why;
	}
	return NULL;
}

unsigned br_pci_piece(uint64_t off, uint64_t size, uint64_t pos)
{
	uint64_t a = off + pos, rem = size - pos;

	if (pos == 0 && (size == 1 || size == 2 || size == 4 || size == 8) &&
	    off % size == 0)
		return (unsigned)size;
	if (rem >= 4 && a % 4 == 0)
		return 4;
	if (rem >= 2 && a % 2 == 0)
		return 2;
	return 1;
}

void br_pci_bar_read(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		     uint64_t size, uint8_t *out)
{
	const struct plat_pci_bar_ops *ops = d->bar[bar].ops;
	void *opq = d->bar[bar].opaque;

	memset(out, 0xff, size);
	if (!ops->read)
		return;
	for (uint64_t pos = 0; pos < size;) {
		unsigned n = br_pci_piece(off, size, pos);

		br_put_le(out + pos, ops->read(opq, off + pos, n), n);
		pos += n;
	}
}

void br_pci_bar_write(struct plat_pci_dev *d, unsigned bar, uint64_t off,
		      uint64_t size, const uint8_t *in)
{
	const struct plat_pci_bar_ops *ops = d->bar[bar].ops;
	void *opq = d->bar[bar].opaque;

	if (!ops->write)
		return;
	for (uint64_t pos = 0; pos < size;) {
		unsigned n = br_pci_piece(off, size, pos);

		ops->write(opq, off + pos, br_get_le(in + pos, n), n);
		pos += n;
	}
}
