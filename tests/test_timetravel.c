/* SPDX-License-Identifier: MIT */
/*
 * test_timetravel.c - br_timetravel (the UML time-travel controller on
 * the simulator's clock) against fake clients over socketpairs.  One
 * thread: a fake client writes its messages first, then the controller
 * steps, then the client reads the answers with a timeout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge/br_timetravel.h"

struct fx {
	struct sim sim;
	struct br_tt tt;
	int fd[4];              /* client ends */
	unsigned fired;
	sim_time_t fired_at[8];
};

static int setup(void **state)
{
	static struct fx f;

	memset(&f, 0, sizeof(f));
	sim_init(&f.sim);
	br_tt_init(&f.tt, &f.sim, NULL, NULL);
	f.tt.quiet = true;
	f.tt.timeout_ms = 500;
	for (int i = 0; i < 4; i++)
		f.fd[i] = -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	br_tt_fini(&f->tt);
	for (int i = 0; i < 4; i++)
		if (f->fd[i] >= 0)
			close(f->fd[i]);
	sim_fini(&f->sim);
	return 0;
}

/* a new client; returns its end */
static int client(struct fx *f, int slot)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_true(br_tt_attach(&f->tt, sv[1]) >= 0);
	f->fd[slot] = sv[0];
	return sv[0];
}

static void csend(int fd, uint32_t op, uint32_t seq, uint64_t t)
{
	struct br_tt_msg m = { op, seq, t };

	assert_int_equal(write(fd, &m, sizeof(m)), sizeof(m));
}

/* read one message (and close any fds that came with it); fails after 1 s */
static struct br_tt_msg crecv_fds(int fd, int *nfds)
{
	struct br_tt_msg m;
	struct pollfd p = { fd, POLLIN, 0 };
	char cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct iovec iov = { &m, sizeof(m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;

	assert_int_equal(poll(&p, 1, 1000), 1);
	assert_int_equal(recvmsg(fd, &mh, 0), sizeof(m));
	*nfds = 0;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		int n = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		int fds[4];

		memcpy(fds, CMSG_DATA(cm), (size_t)n * sizeof(int));
		for (int i = 0; i < n; i++)
			close(fds[i]);
		*nfds += n;
	}
	return m;
}

static struct br_tt_msg crecv(int fd)
{
	int n;

	return crecv_fds(fd, &n);
}

static bool cquiet(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 0) == 0;
}

/* step until @cond or 50 steps */
#define STEP_UNTIL(f, cond) do { \
	for (int i_ = 0; i_ < 50 && !(cond); i_++) \
		assert_true(br_tt_step(&(f)->tt, 50) >= 0); \
	assert_true(cond); \
} while (0)

static void on_event(struct sim *s, struct sim_event *ev)
{
	struct fx *f = ev->arg;

	f->fired_at[f->fired++ & 7] = sim_now(s);
}

/* START is ACKed with the two fds that make UML decline shared memory */
static void test_start_ack(void **state)
{
	struct fx *f = *state;
	int c = client(f, 0), n;
	struct br_tt_msg m;

	csend(c, BR_TT_START, 1, 7);
	STEP_UNTIL(f, f->tt.running == 0);
	m = crecv_fds(c, &n);
	assert_int_equal(m.op, BR_TT_ACK);
	assert_int_equal(m.seq, 1);
	assert_int_equal(n, 2);
	assert_int_equal(br_tt_find(&f->tt, 7), 0);
	/* GET, GET_TOD, UPDATE while running */
	csend(c, BR_TT_GET, 2, (uint64_t)-1);
	csend(c, BR_TT_GET_TOD, 3, (uint64_t)-1);
	assert_true(br_tt_step(&f->tt, 100) > 0);
	m = crecv(c);
	assert_int_equal(m.op, BR_TT_ACK);
	assert_int_equal(m.seq, 2);
	assert_int_equal(m.time, 0);
	m = crecv(c);
	assert_int_equal(m.seq, 3);
	assert_int_equal(m.time, f->tt.tod_base);
}

/* two clients and simulator events: the earliest party runs, alone */
static void test_ordering(void **state)
{
	struct fx *f = *state;
	struct sim_event ev;
	int b = client(f, 1), a = client(f, 0);      /* B connects first */
	struct br_tt_msg m;

	f->tt.expect = 2;
	sim_event_init(&ev, on_event, f);
	sim_schedule_at(&f->sim, &ev, 70);
	csend(b, BR_TT_START, 1, 1);
	/* only one of the two expected: nothing starts, not even the sim */
	for (int i = 0; i < 3; i++)
		assert_true(br_tt_step(&f->tt, 10) >= 0);
	assert_int_equal(f->tt.running, -1);
	assert_int_equal(f->fired, 0);
	assert_true(cquiet(b));
	csend(a, BR_TT_START, 1, 0);
	/* A (ID 0) starts first though B connected first */
	STEP_UNTIL(f, f->tt.running >= 0);
	assert_int_equal(f->tt.cl[f->tt.running].id, 0);
	assert_int_equal(crecv(a).op, BR_TT_ACK);
	assert_true(cquiet(b));
	csend(a, BR_TT_REQUEST, 2, 100);
	csend(a, BR_TT_WAIT, 3, (uint64_t)-1);
	STEP_UNTIL(f, f->tt.running >= 0 && f->tt.cl[f->tt.running].id == 1);
	assert_int_equal(crecv(a).seq, 2);
	assert_int_equal(crecv(a).seq, 3);
	assert_int_equal(crecv(b).op, BR_TT_ACK);     /* B's START */
	csend(b, BR_TT_REQUEST, 2, 50);
	csend(b, BR_TT_WAIT, 3, (uint64_t)-1);
	/* B at 50 first */
	STEP_UNTIL(f, f->tt.running < 0);
	STEP_UNTIL(f, f->tt.running >= 0);
	assert_int_equal(crecv(b).seq, 2);
	assert_int_equal(crecv(b).seq, 3);
	m = crecv(b);
	assert_int_equal(m.op, BR_TT_RUN);
	assert_int_equal(m.time, 50);
	assert_int_equal(sim_now(&f->sim), 50);
	assert_int_equal(f->fired, 0);
	assert_true(cquiet(a));
	csend(b, BR_TT_ACK, m.seq, 0);
	csend(b, BR_TT_REQUEST, 4, 200);
	csend(b, BR_TT_WAIT, 5, (uint64_t)-1);
	/* then the sim event at 70, then A at 100 */
	STEP_UNTIL(f, f->tt.running < 0);
	STEP_UNTIL(f, f->tt.running >= 0);
	assert_int_equal(f->fired, 1);
	assert_int_equal(f->fired_at[0], 70);
	m = crecv(a);
	assert_int_equal(m.op, BR_TT_RUN);
	assert_int_equal(m.time, 100);
	assert_true(cquiet(b) == false);        /* B's two ACKs */
	assert_int_equal(crecv(b).seq, 4);
	assert_int_equal(crecv(b).seq, 5);
	assert_true(cquiet(b));
	/* the RUN's ACK must carry its seq */
	csend(a, BR_TT_ACK, m.seq + 5, 0);
	assert_int_equal(br_tt_step(&f->tt, 100), -EPROTO);
	assert_non_null(strstr(br_tt_error(&f->tt), "ACK with seq"));
	assert_int_equal(br_tt_find(&f->tt, 0), -1);
}

/* garbage: an unknown op, RUN from a client, messages before START */
static void test_bad_messages(void **state)
{
	struct fx *f = *state;
	int c = client(f, 0), d = client(f, 1), e = client(f, 2);
	char junk[16];

	csend(c, BR_TT_REQUEST, 1, 5);        /* before START */
	assert_int_equal(br_tt_step(&f->tt, 100), -EPROTO);
	assert_non_null(strstr(br_tt_error(&f->tt), "before START"));
	csend(d, BR_TT_START, 1, 1);
	STEP_UNTIL(f, f->tt.running >= 0);
	crecv(d);
	csend(d, 42, 2, 0);
	assert_int_equal(br_tt_step(&f->tt, 100), -EPROTO);
	assert_non_null(strstr(br_tt_error(&f->tt), "op 42"));
	csend(e, BR_TT_START, 1, 2);
	STEP_UNTIL(f, f->tt.running >= 0);
	crecv(e);
	csend(e, BR_TT_RUN, 2, 0);
	assert_int_equal(br_tt_step(&f->tt, 100), -EPROTO);
	assert_int_equal(f->tt.ncl, 0);
	/* a half message, then the client dies: an error, not a hang */
	c = client(f, 3);
	memset(junk, 0, sizeof(junk));
	assert_int_equal(write(c, junk, 5), 5);
	close(c);
	f->fd[3] = -1;
	assert_int_equal(br_tt_step(&f->tt, 100), -ECONNRESET);
	assert_int_equal(f->tt.ncl, 0);
}

/* a client that goes away while running is dropped; one that waits with
 * no request while the simulator is empty is a deadlock, reported */
static void test_gone_and_deadlock(void **state)
{
	struct fx *f = *state;
	int c = client(f, 0), d;

	csend(c, BR_TT_START, 1, 0);
	STEP_UNTIL(f, f->tt.running >= 0);
	crecv(c);
	close(c);
	f->fd[0] = -1;
	STEP_UNTIL(f, f->tt.ncl == 0);
	assert_int_equal(f->tt.running, -1);
	assert_int_equal(f->tt.left, 1);
	/* nobody: the step just times out */
	assert_int_equal(br_tt_step(&f->tt, 10), 0);
	d = client(f, 1);
	csend(d, BR_TT_START, 1, 1);
	STEP_UNTIL(f, f->tt.running >= 0);
	crecv(d);
	csend(d, BR_TT_WAIT, 2, (uint64_t)-1);
	STEP_UNTIL(f, f->tt.running < 0);
	assert_int_equal(br_tt_step(&f->tt, 10), -EDEADLK);
	assert_non_null(strstr(br_tt_error(&f->tt), "no request"));
}

/* an interrupt for a waiting client: served GET and REQUEST while the
 * device waits for the guest's answer; a silent guest times out */
static void test_wait_fd(void **state)
{
	struct fx *f = *state;
	int c = client(f, 0), ch[2];
	struct sim_event ev;
	struct br_tt_msg m;
	char x = 1;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, ch), 0);
	sim_event_init(&ev, on_event, f);
	csend(c, BR_TT_START, 1, 0);
	STEP_UNTIL(f, f->tt.running >= 0);
	crecv(c);
	csend(c, BR_TT_REQUEST, 2, 1000);
	csend(c, BR_TT_WAIT, 3, (uint64_t)-1);
	sim_schedule_at(&f->sim, &ev, 300);
	STEP_UNTIL(f, f->fired == 1);
	assert_int_equal(sim_now(&f->sim), 300);
	crecv(c);
	crecv(c);
	/* the guest's interrupt path: GET, REQUEST(now), then its answer */
	csend(c, BR_TT_GET, 4, (uint64_t)-1);
	csend(c, BR_TT_REQUEST, 5, 300);
	assert_int_equal(write(ch[1], &x, 1), 1);
	assert_int_equal(br_tt_wait_fd(&f->tt, 0, ch[0]), 1);
	m = crecv(c);
	assert_int_equal(m.seq, 4);
	assert_int_equal(m.time, 300);
	assert_int_equal(crecv(c).seq, 5);
	assert_int_equal(f->tt.cl[0].req, 300);
	assert_int_equal(read(ch[0], &x, 1), 1);
	/* it runs at 300, not at 1000 */
	STEP_UNTIL(f, f->tt.running >= 0);
	m = crecv(c);
	assert_int_equal(m.op, BR_TT_RUN);
	assert_int_equal(m.time, 300);
	csend(c, BR_TT_ACK, m.seq, 0);
	csend(c, BR_TT_WAIT, 6, (uint64_t)-1);
	STEP_UNTIL(f, f->tt.running < 0);
	crecv(c);
	/* nothing comes: a clear timeout */
	f->tt.timeout_ms = 100;
	assert_int_equal(br_tt_wait_fd(&f->tt, 0, ch[0]), -ETIMEDOUT);
	assert_non_null(strstr(br_tt_error(&f->tt), "did not take an interrupt"));
	close(ch[0]);
	close(ch[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_start_ack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ordering, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_messages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gone_and_deadlock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_fd, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
