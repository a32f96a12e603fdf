// SPDX-License-Identifier: MIT
/*
 * uml-flows: the traffic source and its hand-shake for scripts/uml-toeplitz.sh.
 * It runs in the User-Mode Linux guests (their root is the host's /, so the
 * host-built binary is theirs too). Two roles:
 *
 *   uml-flows serve PORT TIMEOUT_S
 *       (sender guest) wait for orders on UDP PORT; an order is
 *       "SEQ tcp|udp DST_IP DPORT COUNT SPORT_BASE" or "SEQ end". For a new
 *       SEQ, send COUNT flows to DST_IP:DPORT, flow i from source port
 *       SPORT_BASE + i (one TCP SYN, or one UDP datagram each), then answer
 *       "done SEQ" to the order's sender; a repeated SEQ is answered again
 *       without sending. Ends on "end" (answered "done SEQ" too) or when
 *       no order came for TIMEOUT_S.
 *
 *   uml-flows order IP PORT TIMEOUT_S "SEQ ..."
 *       (receiver guest) send the order to IP:PORT every second until
 *       "done SEQ" comes back; exit 0 then, 1 after TIMEOUT_S.
 *
 * The flows are deterministic (fixed source ports), so two runs hash the
 * same tuples. TCP: a non-blocking connect() sends one SYN; the receiver
 * has no listener and answers RST, which ends it (ECONNREFUSED); after
 * 500 ms at most the socket is closed either way.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int udp_bound(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (port && bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_flow(int tcp, struct sockaddr_in *dst, unsigned short sport)
{
	struct sockaddr_in src = { .sin_family = AF_INET, .sin_port = htons(sport) };
	int one = 1, fd = socket(AF_INET, tcp ? SOCK_STREAM | SOCK_NONBLOCK : SOCK_DGRAM, 0);
	int rc = -1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)))
		goto out;
	if (tcp) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };

		if (connect(fd, (struct sockaddr *)dst, sizeof(*dst)) == 0 ||
		    errno == EINPROGRESS) {
			poll(&p, 1, 500);       /* RST (refused) or timeout */
			rc = 0;
		}
	} else {
		char msg[32];
		int n = snprintf(msg, sizeof(msg), "flow %u", sport);

		rc = sendto(fd, msg, (size_t)n, 0, (struct sockaddr *)dst,
			    sizeof(*dst)) == n ? 0 : -1;
	}
out:
	close(fd);
	return rc;
}

static int serve(unsigned short port, int timeout_s)
{
	int fd = udp_bound(port);
	long last = -1;

	if (fd < 0) {
		perror("uml-flows: bind");
		return 1;
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_in from, dst = { .sin_family = AF_INET };
		socklen_t fl = sizeof(from);
		char buf[256], proto[8], ip[64], reply[32];
		unsigned int dport, count, base;
		long seq;
		ssize_t n;
		int sent = 0, failed = 0;

		if (poll(&p, 1, timeout_s * 1000) <= 0) {
			fprintf(stderr, "uml-flows: serve: no order for %d s\n", timeout_s);
			return 1;
		}
		n = recvfrom(fd, buf, sizeof(buf) - 1, 0, (struct sockaddr *)&from, &fl);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (sscanf(buf, "%ld %7s", &seq, proto) == 2 && !strcmp(proto, "end")) {
			n = snprintf(reply, sizeof(reply), "done %ld", seq);
			sendto(fd, reply, (size_t)n, 0, (struct sockaddr *)&from, fl);
			printf("uml-flows: serve: end\n");
			return 0;
		}
		if (sscanf(buf, "%ld %7s %63s %u %u %u", &seq, proto, ip, &dport, &count,
			   &base) != 6 || (strcmp(proto, "tcp") && strcmp(proto, "udp")) ||
		    inet_pton(AF_INET, ip, &dst.sin_addr) != 1 || dport > 65535 ||
		    count > 4096 || base + count > 65536) {
			fprintf(stderr, "uml-flows: serve: bad order '%s'\n", buf);
			continue;
		}
		if (seq != last) {
			dst.sin_port = htons((unsigned short)dport);
			for (unsigned int i = 0; i < count; i++) {
				if (send_flow(proto[0] == 't', &dst, (unsigned short)(base + i)))
					failed++;
				else
					sent++;
				usleep(1000);
			}
			printf("uml-flows: serve: order %ld: %d %s flows to %s:%u from ports %u-%u (%d failed)\n",
			       seq, sent, proto, ip, dport, base, base + count - 1, failed);
			fflush(stdout);
			last = seq;
		}
		n = snprintf(reply, sizeof(reply), "done %ld", seq);
		sendto(fd, reply, (size_t)n, 0, (struct sockaddr *)&from, fl);
	}
}

static int order(const char *ip, unsigned short port, int timeout_s, const char *msg)
{
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons(port) };
	char want[32], buf[64];
	long seq;
	int fd = udp_bound(0);
	time_t end = time(NULL) + timeout_s;

	if (fd < 0 || inet_pton(AF_INET, ip, &dst.sin_addr) != 1 ||
	    sscanf(msg, "%ld", &seq) != 1) {
		fprintf(stderr, "uml-flows: order: bad arguments\n");
		return 2;
	}
	snprintf(want, sizeof(want), "done %ld", seq);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		time_t resend = time(NULL) + 1;

		sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&dst, sizeof(dst));
		while (time(NULL) <= resend && poll(&p, 1, 200) >= 0) {
			ssize_t n;

			if (!(p.revents & POLLIN))
				continue;
			n = recv(fd, buf, sizeof(buf) - 1, 0);
			if (n > 0) {
				buf[n] = 0;
				if (!strcmp(buf, want))
					return 0;
			}
		}
	}
	fprintf(stderr, "uml-flows: order '%s': no answer from %s:%u in %d s\n",
		msg, ip, port, timeout_s);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "serve"))
		return serve((unsigned short)atoi(argv[2]), atoi(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "order"))
		return order(argv[2], (unsigned short)atoi(argv[3]), atoi(argv[4]), argv[5]);
	fprintf(stderr, "usage: uml-flows serve PORT TIMEOUT_S\n"
			"       uml-flows order IP PORT TIMEOUT_S \"SEQ tcp|udp IP DPORT COUNT SPORT_BASE\"|\"SEQ end\"\n");
	return 2;
}
