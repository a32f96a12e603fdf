/* SPDX-License-Identifier: MIT */
/* test_vfu_link.c - libvfio-user links and works: a PCI device context on a
 * temporary UNIX socket, with a BAR, four MSI-X vectors and an MSI-X
 * capability, realized and destroyed without a client. Built only when the
 * meson build found libvfio-user (option vfio_user; scripts/libvfio-user.sh).
 * See docs/libvfio-user-api.md for the calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <vfio-user/libvfio-user.h>

#ifndef RXSCALE_HAVE_VFIO_USER
#error "built without RXSCALE_HAVE_VFIO_USER"
#endif

#define BAR2_SIZE 0x10000u

struct dev {
	unsigned reads, writes;
	uint8_t regs[BAR2_SIZE];
};

static ssize_t bar2_access(vfu_ctx_t *ctx, char *buf, size_t count, loff_t off, bool is_write)
{
	struct dev *d = vfu_get_private(ctx);

	if (off < 0 || (size_t)off + count > BAR2_SIZE) {
		errno = EINVAL;
		return -1;
	}
	if (is_write) {
		memcpy(d->regs + off, buf, count);
		d->writes++;
	} else {
		memcpy(buf, d->regs + off, count);
		d->reads++;
	}
	return (ssize_t)count;
}

/* The library's last log line (its errors are expected here, not printed). */
static char last_log[256];

static void keep_log(vfu_ctx_t *ctx, int level, const char *msg)
{
	(void)ctx;
	(void)level;
	snprintf(last_log, sizeof(last_log), "%s", msg);
}

struct sock {
	char dir[64], path[96];
};

static void sock_make(struct sock *s)
{
	snprintf(s->dir, sizeof(s->dir), "/tmp/rxscale-vfu-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->path, sizeof(s->path), "%s/vfu.sock", s->dir);
}

static void sock_gone(struct sock *s)
{
	/* the library does not unlink its socket: the server does */
	unlink(s->path);
	assert_int_equal(rmdir(s->dir), 0);
}

static void test_ctx_lifecycle(void **state)
{
	static struct dev d;
	struct sock s;
	struct stat st;
	vfu_ctx_t *ctx;
	vfu_pci_config_space_t *cfg;
	struct msixcap msix;
	ssize_t cap;

	(void)state;
	sock_make(&s);
	ctx = vfu_create_ctx(VFU_TRANS_SOCK, s.path, 0, &d, VFU_DEV_TYPE_PCI);
	assert_non_null(ctx);
	assert_ptr_equal(vfu_get_private(ctx), &d);
	/* the socket is bound and listening from vfu_create_ctx on */
	assert_int_equal(stat(s.path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(vfu_setup_log(ctx, keep_log, LOG_ERR), 0);

	assert_int_equal(vfu_pci_init(ctx, VFU_PCI_TYPE_EXPRESS, PCI_HEADER_TYPE_NORMAL, 0), 0);
	vfu_pci_set_id(ctx, 0x10ec, 0x8127, 0x10ec, 0x0123);
	vfu_pci_set_class(ctx, 0x02, 0x00, 0x00);
	cfg = vfu_pci_get_config_space(ctx);
	assert_non_null(cfg);
	assert_int_equal(cfg->hdr.id.vid, 0x10ec);
	assert_int_equal(cfg->hdr.id.did, 0x8127);
	assert_int_equal(cfg->hdr.cc.bcc, 0x02);

	assert_int_equal(vfu_setup_region(ctx, VFU_PCI_DEV_BAR2_REGION_IDX, BAR2_SIZE,
					  bar2_access, VFU_REGION_FLAG_RW | VFU_REGION_FLAG_MEM,
					  NULL, 0, -1, 0), 0);
	/* a region index out of range is refused with EINVAL */
	errno = 0;
	assert_int_equal(vfu_setup_region(ctx, VFU_PCI_DEV_NUM_REGIONS, 16, bar2_access,
					  VFU_REGION_FLAG_RW, NULL, 0, -1, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(last_log, "invalid region index"));

	assert_int_equal(vfu_setup_device_nr_irqs(ctx, VFU_DEV_MSIX_IRQ, 4), 0);
	/* MSI-X capability: 4 vectors, table and PBA in BAR 2 (as the RTL8127's
	 * BAR 4; the client emulates the table, the BAR only has to hold it) */
	memset(&msix, 0, sizeof(msix));
	msix.hdr.id = PCI_CAP_ID_MSIX;
	msix.mxc.ts = 4 - 1;
	msix.mtab.tbir = 2;
	msix.mtab.to = 0x8000 >> 3;
	msix.mpba.pbir = 2;
	msix.mpba.pbao = 0x9000 >> 3;
	cap = vfu_pci_add_capability(ctx, 0, 0, &msix);
	assert_true(cap >= PCI_STD_HEADER_SIZEOF);
	assert_int_equal(vfu_pci_find_capability(ctx, false, PCI_CAP_ID_MSIX), (size_t)cap);

	assert_int_equal(vfu_realize_ctx(ctx), 0);
	/* the capability list bit is set at realize */
	assert_true(cfg->hdr.sts.cl);
	/* no client yet: no eventfd behind a vector, and out of range */
	errno = 0;
	assert_int_equal(vfu_irq_trigger(ctx, 0), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(last_log, "no fd for interrupt"));
	errno = 0;
	assert_int_equal(vfu_irq_trigger(ctx, 4), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(last_log, "bad IRQ"));
	vfu_destroy_ctx(ctx);
	assert_int_equal(d.reads + d.writes, 0);
	sock_gone(&s);
}

/* Non-blocking: attach answers EAGAIN while no client connects, and the
 * poll fd is the listening socket. */
static void test_ctx_nonblocking(void **state)
{
	struct sock s;
	vfu_ctx_t *ctx;

	(void)state;
	sock_make(&s);
	ctx = vfu_create_ctx(VFU_TRANS_SOCK, s.path, LIBVFIO_USER_FLAG_ATTACH_NB, NULL,
			     VFU_DEV_TYPE_PCI);
	assert_non_null(ctx);
	assert_int_equal(vfu_pci_init(ctx, VFU_PCI_TYPE_CONVENTIONAL, PCI_HEADER_TYPE_NORMAL, 0), 0);
	vfu_pci_set_id(ctx, 0x10ec, 0x8127, 0, 0);
	/* run refuses a context that is not realized yet */
	errno = 0;
	assert_int_equal(vfu_run_ctx(ctx), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(vfu_realize_ctx(ctx), 0);
	assert_true(vfu_get_poll_fd(ctx) >= 0);
	errno = 0;
	assert_int_equal(vfu_attach_ctx(ctx), -1);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	vfu_destroy_ctx(ctx);

	/* the same path again while the stale socket file is there: bind fails */
	errno = 0;
	assert_null(vfu_create_ctx(VFU_TRANS_SOCK, s.path, 0, NULL, VFU_DEV_TYPE_PCI));
	assert_int_equal(errno, EADDRINUSE);
	sock_gone(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctx_lifecycle),
		cmocka_unit_test(test_ctx_nonblocking),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
