// SPDX-License-Identifier: GPL-2.0
/*
 * cdev_selftest: char-device semantics every variant must keep, as KTAP
 * through the kernel's tools/testing/selftests/kselftest.h (the Makefile
 * takes it from 6.1's tree, whatever kernel boots).  Runs in the guest
 * with the cdev_fixture module loaded; registers cdevs through its debugfs
 * ctl file and opens device nodes made in NODE_DIR.
 *
 * usage: cdev_selftest [--expect-sys-cdev] [--race-rounds R]
 *                      [--known-failures FILE]... FIXTURE_DIR NODE_DIR
 *
 * --expect-sys-cdev: the kernel registers cdevs in sysfs (/sys/cdev and
 * /sys/cdev/major); without it /sys/cdev must not exist.
 * --race-rounds R: the race cases run until R add/del rounds (default
 * 1000; race_evict_del R/20, of 16 nodes each), for the race check
 * (scripts/race-check.sh).
 * --known-failures FILE: lines "CASE REASON" ('#' starts a comment): cases
 * this kernel is known to fail.  Such a case that fails is reported as
 * "ok N CASE # XFAIL REASON" and does not fail the run; one that passes as
 * "ok N CASE # XPASS ...", for the report to say the kernel fixes it.
 * A line "!CASE REASON" withdraws a case that an earlier FILE declared (a
 * variant whose series fixes one of stock's known failures).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kselftest.h"

#define FIXTURE_SLOTS	8	/* as in bench/module/cdev_fixture.c */
#define MAX_KNOWN_FAILURES 16
/* The race runs until both sides did this much and the opens saw both
 * outcomes, within RACE_MAX_OPENS_PER_ROUND opens per round. */
#define RACE_OPENS	2000
#define RACE_MAX_OPENS_PER_ROUND 200
/* race_evict_del's nodes, all cached by the cdev at once */
#define RACE_EVICT_NODES 16
static long race_rounds = 1000;	/* add/del pairs */

static const char *fixture_dir, *node_dir;
static const char *const modprobe = "/proc/sys/kernel/modprobe";
static unsigned int major_nr;
static bool expect_sys_cdev;
static int case_failed;
static const char *case_skipped;	/* why the case does not apply */
static bool case_stuck;	/* a wait on the kernel never came back */
static char stuck_why[200];	/* what did not come back */
/* Can the race cases' two sides meet inside the kernel: more than one
 * CPU online, or a preemptible kernel? */
static bool races_in_kernel;
static struct known_failure {
	char name[64], reason[192];
	bool withdrawn;	/* "!CASE REASON": an earlier declaration no longer holds */
} known[MAX_KNOWN_FAILURES];
static int nknown;

/* A failed check's KTAP diagnostic, "# FUNCTION:LINE: WHAT" (%m is the
 * errno of the check). */
static void __attribute__((format(printf, 3, 4)))
check_failed(const char *func, int line, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ksft_print_msg("%s:%d: %s\n", func, line, what);
	case_failed = 1;
}

/* A failed check prints a KTAP diagnostic and fails the current case. */
#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		check_failed(__func__, __LINE__, __VA_ARGS__);		\
		return;							\
	}								\
} while (0)

/* The current case does not apply to this kernel: KTAP's "# SKIP". */
#define SKIP(why) do {							\
	case_skipped = (why);						\
	return;								\
} while (0)

static int ctl(const char *fmt, ...)
{
	char path[256], cmd[64];
	va_list ap;
	int fd, len, err = 0;

	va_start(ap, fmt);
	len = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/ctl", fixture_dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, cmd, len) != len)
		err = -errno;
	close(fd);
	return err;
}

/* Open a fresh node (a new inode, so the map lookup path) for a minor. */
static int open_fresh(unsigned int minor, int flags)
{
	static unsigned int seq;
	char path[256];
	int fd, saved;

	snprintf(path, sizeof(path), "%s/node-%u-%u", node_dir, minor, seq++);
	if (mknod(path, S_IFCHR | 0600, makedev(major_nr, minor)))
		return -errno;
	fd = open(path, flags);
	saved = errno;
	unlink(path);
	return fd < 0 ? -saved : fd;
}

/* The fixture's answer: which slot served the open, and for which minor. */
static int read_slot(int fd, unsigned int *minor, int *writes)
{
	char buf[128];
	int slot;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "slot=%d minor=%u writes=%d", &slot, minor, writes) != 3)
		return -1;
	return slot;
}

/* The slot that serves a fresh open of @minor, or -errno of the open. */
static int slot_of_minor(unsigned int minor)
{
	unsigned int m;
	int w, slot, fd = open_fresh(minor, O_RDONLY);

	if (fd < 0)
		return fd;
	slot = read_slot(fd, &m, &w);
	close(fd);
	return slot >= 0 && m == minor ? slot : -EPROTO;
}

static void test_open_read_write(void)
{
	unsigned int m;
	int fd, w, err = ctl("add 0 0 1 static");

	CHECK(!err, "add: %s", strerror(-err));
	fd = open_fresh(0, O_RDWR);
	CHECK(fd >= 0, "open: %s", strerror(-fd));
	CHECK(write(fd, "abc", 3) == 3, "write: %m");
	CHECK(read_slot(fd, &m, &w) == 0 && m == 0 && w == 3,
	      "read did not report slot 0, minor 0, 3 bytes written");
	CHECK(!close(fd), "close: %m");
	CHECK(!ctl("del 0"), "del failed");
}

static void test_cached_open(void)
{
	char path[256];
	unsigned int m;
	int fd1, fd2, w;

	CHECK(!ctl("add 0 0 1 static"), "add failed");
	snprintf(path, sizeof(path), "%s/cached", node_dir);
	CHECK(!mknod(path, S_IFCHR | 0600, makedev(major_nr, 0)), "mknod: %m");
	fd1 = open(path, O_RDWR);	/* map lookup, caches inode->i_cdev */
	CHECK(fd1 >= 0, "first open: %m");
	close(fd1);
	fd2 = open(path, O_RDWR);	/* same inode: the i_cdev path */
	unlink(path);
	CHECK(fd2 >= 0, "second open: %m");
	CHECK(write(fd2, "x", 1) == 1, "write: %m");
	CHECK(read_slot(fd2, &m, &w) == 0 && w == 1, "cached open read wrong data");
	close(fd2);
	CHECK(!ctl("del 0"), "del failed");
}

static void test_del_enxio_open_survives(void)
{
	unsigned int m;
	int fd, fresh, w;

	CHECK(!ctl("add 0 0 1 alloc"), "add failed");
	fd = open_fresh(0, O_RDWR);
	CHECK(fd >= 0, "open: %s", strerror(-fd));
	CHECK(!ctl("del 0"), "del failed");
	fresh = open_fresh(0, O_RDWR);
	CHECK(fresh == -ENXIO, "fresh open after cdev_del gave %s, want ENXIO",
	      fresh >= 0 ? "success" : strerror(-fresh));
	CHECK(write(fd, "ab", 2) == 2, "write on the open file: %m");
	CHECK(read_slot(fd, &m, &w) == 0 && w == 2,
	      "the already-open file stopped working after cdev_del");
	CHECK(!close(fd), "close: %m");
}

static void test_range(void)
{
	unsigned int m;
	int slot;

	CHECK(!ctl("add 1 8 4 static"), "add failed");
	for (m = 8; m < 12; m++) {
		slot = slot_of_minor(m);
		CHECK(slot == 1, "minor %u inside the range: got %d", m, slot);
	}
	CHECK(slot_of_minor(7) == -ENXIO, "minor 7 below the range opened");
	CHECK(slot_of_minor(12) == -ENXIO, "minor 12 above the range opened");
	CHECK(!ctl("del 1"), "del failed");
}

static void test_overlap_narrowest(void)
{
	CHECK(!ctl("add 2 16 16 static"), "add wide failed");
	CHECK(!ctl("add 3 20 2 alloc"), "add narrow failed");
	CHECK(slot_of_minor(20) == 3 && slot_of_minor(21) == 3,
	      "the narrower registration does not win inside it");
	CHECK(slot_of_minor(19) == 2 && slot_of_minor(22) == 2,
	      "the wider registration does not serve outside the narrower");
	CHECK(!ctl("del 3"), "del narrow failed");
	CHECK(slot_of_minor(20) == 2, "after removing the narrower, the wider does not serve");
	CHECK(!ctl("del 2"), "del wide failed");
}

/*
 * A single number inside a range, registered before the range and after
 * it: the single number wins either way, and once it is gone the range
 * serves it (cdev-hash keeps single numbers apart from ranges).
 */
static void test_overlap_single(void)
{
	CHECK(!ctl("add 2 40 1 static"), "add single before failed");
	CHECK(!ctl("add 3 36 8 static"), "add range failed");
	CHECK(!ctl("add 4 42 1 alloc"), "add single after failed");
	CHECK(slot_of_minor(40) == 2, "a single number registered before the range over it does not win");
	CHECK(slot_of_minor(42) == 4, "a single number registered after the range over it does not win");
	CHECK(slot_of_minor(41) == 3, "the range does not serve between the single numbers");
	CHECK(!ctl("del 2"), "del single failed");
	CHECK(slot_of_minor(40) == 3, "after removing the single number, the range does not serve it");
	CHECK(!ctl("del 4"), "del single failed");
	CHECK(!ctl("del 3"), "del range failed");
}

/*
 * A second registration starting at the same number may fail (sysfs-cdev
 * names each cdev's directory after its first number), and its driver may
 * then call cdev_del(), as dvb-core does.  Whether it failed or came and
 * went, the number must still reach the first registration.
 */
static void test_failed_add_keeps_other(void)
{
	int err, slot;

	CHECK(!ctl("add 2 30 1 static"), "add failed");
	err = ctl("add 3 30 1 delfail");
	CHECK(err || !ctl("del 3"), "del of the second registration failed");
	slot = slot_of_minor(30);
	CHECK(slot == 2, "after the second registration %s, minor 30 gave %d, want slot 2",
	      err ? "failed" : "came and went", slot);
	CHECK(!ctl("del 2"), "del failed");
}

/*
 * Two registrations of the same numbers: the newer serves them, and when
 * the older is removed the newer must go on serving them.  6.1's
 * kobj_unmap() removes the first probe matching (dev, range), which is
 * the newest, so cdev_del() of the older cdev unmaps the newer one and
 * leaves the older's probe behind: the numbers then fail with ENXIO while
 * a cdev is registered for them (and had the older cdev been freed, the
 * probe would point at freed memory; both are static here, so no open
 * touches freed memory).
 */
static void test_identical_del_older(void)
{
	int slot;

	CHECK(!ctl("add 2 34 1 static"), "add older failed");
	if (ctl("add 3 34 1 static")) {
		ctl("del 2");
		SKIP("this kernel refuses a second registration of the same number");
	}
	slot = slot_of_minor(34);
	CHECK(slot == 3, "with two identical registrations minor 34 gave %d, want the newer, slot 3",
	      slot);
	CHECK(!ctl("del 2"), "del older failed");
	slot = slot_of_minor(34);
	CHECK(slot == 3, "after cdev_del() of the older registration minor 34 gave %s, want slot 3",
	      slot < 0 ? strerror(-slot) : "another slot");
	CHECK(!ctl("del 3"), "del newer failed");
	CHECK(slot_of_minor(34) == -ENXIO, "minor 34 opened with nothing registered");
}

static void test_unload_while_open(void)
{
	unsigned int m;
	int fd, w, ret;

	CHECK(!ctl("add 4 40 1 static"), "add failed");
	fd = open_fresh(40, O_RDONLY);
	CHECK(fd >= 0, "open: %s", strerror(-fd));
	ret = syscall(SYS_delete_module, "cdev_fixture", O_NONBLOCK);
	CHECK(ret < 0 && (errno == EBUSY || errno == EWOULDBLOCK),
	      "unloading the module with a node open was not refused");
	CHECK(read_slot(fd, &m, &w) == 4, "the open file broke");
	close(fd);
	CHECK(!ctl("del 4"), "del failed");
}

#define RACE_WAIT_S 20	/* the longest a race case waits on the kernel */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Reap @child within RACE_WAIT_S seconds: false if it is still there. */
static bool race_reap(pid_t child, int *status)
{
	double deadline = now_s() + RACE_WAIT_S;

	while (waitpid(child, status, WNOHANG) != child) {
		if (now_s() > deadline)
			return false;
		usleep(10000);
	}
	return true;
}

/*
 * Kill the add/del @child of a race case and reap it.  A child that
 * SIGKILL cannot end is stuck in the kernel: set case_stuck and
 * stuck_why (@why and that), for main() to end the guest.
 */
static bool race_kill(pid_t child, int *status, const char *why)
{
	bool reaped;

	kill(child, SIGKILL);
	reaped = race_reap(child, status);
	if (!reaped) {
		case_stuck = true;
		snprintf(stuck_why, sizeof(stuck_why), "%s; the add/del child survives SIGKILL", why);
	}
	return reaped;
}

/*
 * Open a node of @minor over and over while a child process adds and
 * removes a cdev_alloc() cdev for it (so cdev_del frees it), through the
 * cached i_cdev of one inode (@cached) or a fresh inode each time (the map
 * lookup).  Every open must either reach the cdev or fail as a removed one
 * does: ENXIO, or ENODEV from the fixture for a cdev deleted between the
 * lookup and its open.  Both outcomes must occur, or the race was not run.
 * A use-after-free that the kernel notices (refcount warnings, oopses)
 * fails the boot from the serial log.  Both sides yield after each step
 * so that one vCPU interleaves them too (the scheduler may still run one
 * side for a while, hence the shared round count); only several vCPUs
 * (tcg mode) race them inside the kernel.  A child that exits, or makes
 * no round in RACE_WAIT_S seconds while the opens go on, fails the case,
 * and one that SIGKILL cannot end then ends the guest (end_guest_stuck());
 * an open that blocks for ever still waits for the host's timeout.
 */
static void race_open_del(unsigned int slot, unsigned int minor, bool cached)
{
	char path[256], why[128] = "";
	int i, fd, status = 0, opened = 0, gone = 0, seen_rounds = 0;
	double last_round_at = now_s();
	volatile int *rounds;
	bool reaped = false;
	unsigned int m;
	pid_t child;

	snprintf(path, sizeof(path), "%s/race", node_dir);
	rounds = mmap(NULL, sizeof(*rounds), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(rounds != MAP_FAILED, "mmap: %m");
	*rounds = 0;
	CHECK(!mknod(path, S_IFCHR | 0600, makedev(major_nr, minor)), "mknod: %m");
	child = fork();
	CHECK(child >= 0, "fork: %m");
	if (!child) {
		for (;;) {
			if (ctl("add %u %u 1 alloc", slot, minor))
				_exit(1);
			sched_yield();
			if (ctl("del %u", slot))
				_exit(1);
			(*rounds)++;
			sched_yield();
		}
	}
	for (i = 0; (i < RACE_OPENS || *rounds < race_rounds || !opened || !gone) &&
		    i < race_rounds * RACE_MAX_OPENS_PER_ROUND && !why[0]; i++) {
		int w, got;

		if (!(i % 256)) {
			if (waitpid(child, &status, WNOHANG) == child) {
				reaped = true;
				snprintf(why, sizeof(why), "the add/del child is gone (%s %d)",
					 WIFEXITED(status) ? "exit status" : "signal",
					 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
				break;
			}
			if (*rounds != seen_rounds) {
				seen_rounds = *rounds;
				last_round_at = now_s();
			} else if (now_s() - last_round_at > RACE_WAIT_S) {
				snprintf(why, sizeof(why),
					 "the add/del child made no round in %d s (its add or deletion stuck?)",
					 RACE_WAIT_S);
				break;
			}
		}
		sched_yield();

		fd = cached ? open(path, O_RDONLY) : open_fresh(minor, O_RDONLY);
		if (cached && fd < 0)
			fd = -errno;
		if (fd == -ENXIO || fd == -ENODEV) {
			gone++;
			continue;
		}
		if (fd < 0) {
			snprintf(why, sizeof(why), "open: %s", strerror(-fd));
			break;
		}
		got = read_slot(fd, &m, &w);
		close(fd);
		if (got != (int)slot || m != minor)
			snprintf(why, sizeof(why), "an open reached slot %d, minor %u", got, m);
		opened++;
	}
	unlink(path);
	if (!reaped)
		reaped = race_kill(child, &status, why[0] ? why : "the opens ended");
	ksft_print_msg("%s: %d add/del rounds; %d opens reached the cdev, %d found it removed\n",
		       cached ? "cached" : "fresh", *rounds, opened, gone);
	if (!races_in_kernel) {
		ksft_print_msg("%s: one CPU and no kernel preemption: the two sides interleave at\n",
			       cached ? "cached" : "fresh");
		ksft_print_msg("syscall boundaries only, so a pass does not show the kernel free of\n");
		ksft_print_msg("this race (several vCPUs, MODE=tcg, can run them at once)\n");
	}
	munmap((void *)rounds, sizeof(*rounds));
	CHECK(!why[0], "%s", why);
	CHECK(reaped && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "the add/del child failed (%s %d)",
	      !reaped ? "not reaped, pid" : WIFEXITED(status) ? "exit status" : "signal",
	      !reaped ? child : WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	CHECK(opened && gone, "the race was not exercised");
}

static void test_race_cached_open_del(void)
{
	race_open_del(7, 56, true);
}

static void test_race_fresh_open_del(void)
{
	race_open_del(7, 57, false);
}

/*
 * race_evict_del's handshake, on a page the two processes share: the
 * child adds the cdev and sets ADDED, the parent opens and closes the
 * nodes and sets EVICTING, the child deletes the cdev and sets DELETED.
 */
enum { EVICT_ADDED = 1, EVICT_EVICTING, EVICT_DELETED };

struct evict_shared {
	volatile int phase;
	volatile int rounds;	/* add/del rounds the child completed */
};

/* A small pseudo-random spin (xorshift32), so that either side may win. */
static void evict_spin(unsigned int *seed)
{
	volatile unsigned int n;

	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	for (n = *seed % 4096; n; n--)
		;
}

/*
 * Wait, at most RACE_WAIT_S seconds, for @sh->phase to be @want.
 * The parent passes its @child and gets -1 as soon as waitpid() shows it
 * gone (its status in @status); 0 when the phase came, 1 on a timeout.
 */
static int evict_wait(struct evict_shared *sh, int want, pid_t child, int *status)
{
	double deadline = now_s() + RACE_WAIT_S;

	while (sh->phase != want) {
		if (child > 0 && waitpid(child, status, WNOHANG) == child)
			return -1;
		if (now_s() > deadline)
			return 1;
		sched_yield();
	}
	return 0;
}

/*
 * Evict inodes that cache a cdev while the cdev's release purges them.
 * Each round, the child adds a cdev_alloc() cdev for one minor and sets
 * ADDED; the parent opens and closes RACE_EVICT_NODES fresh nodes of it
 * (each inode then caches the cdev and is on its list of inodes), sets
 * EVICTING and at once unlinks them, starting with node 0, the list's
 * tail, which cdev_purge() reaches last; the child, on EVICTING, deletes
 * the cdev, whose cdev_del() drops the last reference: its release walks
 * the list (cdev_purge()) while the unlinks evict the inodes from the
 * other end (cd_forget()).  A small pseudo-random spin on each side
 * varies who gets there first.  The race cases above evict at most the
 * one inode an open just closed.  Every open must reach the cdev (it is
 * registered throughout), and the kernel must not notice anything (the
 * serial log).  Both sides wait at most RACE_WAIT_S seconds for
 * the other, and the parent stops as soon as the child is gone, so a
 * deletion that does not come back fails the case instead of hanging it.
 */
static void test_race_evict_del(void)
{
	const unsigned int slot = 7, minor = 58;
	/*
	 * Each round creates RACE_EVICT_NODES nodes and makes the purge and
	 * the evictions really overlap, where a round of the cases above is
	 * one add/del pair: a twentieth of their rounds keeps a race boot's
	 * length close to what it was.
	 */
	const long evict_rounds = race_rounds / 20 > 0 ? race_rounds / 20 : 1;
	char path[RACE_EVICT_NODES][256], why[160] = "";
	int j, fd, status = 0, opened = 0, gone = 0, del_first = 0, w;
	unsigned int m, seed = 0x9e3779b9u;
	struct evict_shared *sh;
	bool reaped = false;
	pid_t child;
	long r;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED, "mmap: %m");
	sh->phase = 0;
	sh->rounds = 0;
	for (j = 0; j < RACE_EVICT_NODES; j++)
		snprintf(path[j], sizeof(path[j]), "%s/evict-%d", node_dir, j);
	child = fork();
	if (child < 0)
		munmap(sh, sizeof(*sh));
	CHECK(child >= 0, "fork: %m");
	if (!child) {
		unsigned int child_seed = (unsigned int)getpid() * 2654435761u | 1;

		for (r = 0; r < evict_rounds; r++) {
			if (ctl("add %u %u 1 alloc", slot, minor))
				_exit(1);
			sh->phase = EVICT_ADDED;
			if (evict_wait(sh, EVICT_EVICTING, 0, NULL)) {
				ctl("del %u", slot);
				_exit(2);
			}
			evict_spin(&child_seed);
			if (ctl("del %u", slot))
				_exit(1);
			sh->rounds++;
			sh->phase = EVICT_DELETED;
		}
		_exit(0);
	}
	for (r = 0; r < evict_rounds && !why[0]; r++) {
		int waited = evict_wait(sh, EVICT_ADDED, child, &status);

		if (waited) {
			reaped = waited < 0;
			if (reaped)
				snprintf(why, sizeof(why),
					 "round %ld: the add/del child is gone (%s %d)", r,
					 WIFEXITED(status) ? "exit status" : "signal",
					 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			else
				snprintf(why, sizeof(why),
					 "round %ld: the add/del child did not add the cdev within %d s (its deletion stuck?)",
					 r, RACE_WAIT_S);
			break;
		}
		for (j = 0; j < RACE_EVICT_NODES && !why[0]; j++) {
			int got;

			if (mknod(path[j], S_IFCHR | 0600, makedev(major_nr, minor))) {
				snprintf(why, sizeof(why), "mknod: %s", strerror(errno));
				break;
			}
			fd = open(path[j], O_RDONLY);
			if (fd < 0 && (errno == ENXIO || errno == ENODEV)) {
				gone++;
				continue;
			}
			if (fd < 0) {
				snprintf(why, sizeof(why), "open: %s", strerror(errno));
				break;
			}
			got = read_slot(fd, &m, &w);
			close(fd);
			if (got != (int)slot || m != minor)
				snprintf(why, sizeof(why), "an open reached slot %d, minor %u", got, m);
			opened++;
		}
		/* the child deletes the cdev, its release purging the list ... */
		sh->phase = EVICT_EVICTING;
		evict_spin(&seed);
		/* ... while each unlink evicts an inode on it, from the tail */
		for (j = 0; j < RACE_EVICT_NODES; j++)
			unlink(path[j]);
		if (sh->phase == EVICT_DELETED)
			del_first++;
	}
	if (!why[0]) {
		/* the child's last deletion, then its exit */
		int waited = evict_wait(sh, EVICT_DELETED, child, &status);

		if (waited > 0)
			snprintf(why, sizeof(why), "the last deletion did not come back within %d s",
				 RACE_WAIT_S);
		else
			reaped = waited < 0 || race_reap(child, &status);
	}
	if (!reaped)
		reaped = race_kill(child, &status, why[0] ? why : "the add/del child did not finish");
	ksft_print_msg("evict: %d of %ld add/del rounds; %d opens reached the cdev, %d found it removed; the deletion returned before the last eviction in %d rounds\n",
		       sh->rounds, evict_rounds, opened, gone, del_first);
	if (!races_in_kernel)
		ksft_print_msg("evict: one CPU and no kernel preemption: a pass does not show the kernel free of this race\n");
	r = sh->rounds;
	munmap(sh, sizeof(*sh));
	CHECK(!why[0], "%s", why);
	CHECK(reaped && WIFEXITED(status) && !WEXITSTATUS(status),
	      "the add/del child failed (%s %d)",
	      !reaped ? "not reaped, pid" : WIFEXITED(status) ? "exit status" : "signal",
	      !reaped ? child : WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	CHECK(!gone, "%d opens found the cdev removed while it was registered", gone);
	CHECK(r == evict_rounds && opened == evict_rounds * RACE_EVICT_NODES,
	      "%ld of %ld rounds, %d of %ld opens", r, evict_rounds, opened,
	      evict_rounds * RACE_EVICT_NODES);
}

/*
 * A case found the kernel stuck (a task that SIGKILL cannot end: it
 * spins or sleeps in a cdev_del() for ever): the cleanup below would
 * block behind it, and the boot would end at the host's timeout, minutes
 * later.  End the guest now: give guest-init/suite a second to copy the
 * case's "not ok" line to the console, then reboot at once (sysrq b,
 * which QEMU's -no-reboot makes its exit).  Not a power-off (sysrq o):
 * that runs on CPU 0, which may be the CPU that is stuck.
 */
static void end_guest_stuck(const char *name)
{
	FILE *sysrq, *kmsg;

	ksft_print_msg("%s: the kernel is stuck; ending the guest (sysrq b) instead of waiting for the host's timeout\n",
		       name);
	fflush(stdout);
	/* the console copy of the lines above may not get out in time */
	kmsg = fopen("/dev/kmsg", "w");
	if (kmsg) {
		fprintf(kmsg, "cdevbench-suite: FAILED: selftest case %s: the kernel is stuck: %s\n",
			name, stuck_why);
		fclose(kmsg);
	}
	sleep(1);
	sysrq = fopen("/proc/sysrq-trigger", "w");
	if (sysrq) {
		fputc('b', sysrq);
		fclose(sysrq);
	}
	sleep(60);
	ksft_exit_fail_msg("%s: the guest did not end\n", name);
}

/* The fixture's parents alive: see "parents" in cdev_fixture.c. */
static int parents_live(void)
{
	char path[256];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/parents", fixture_dir);
	f = fopen(path, "r");
	if (f && fscanf(f, "%d", &n) != 1)
		n = -1;
	if (f)
		fclose(f);
	return n;
}

/*
 * A driver's device that its cdev names as parent must outlive every open
 * file of the cdev: open a node, let the driver remove the cdev and drop
 * its device, and the file must still work and the device still be there
 * until the file is closed, and no longer.  @kind is the fixture's model
 * of f_hid ("device": the open finds the driver's data through the
 * parent) or dfl ("parent": set directly before cdev_add()).
 */
static void parent_outlives_open_file(const char *kind, unsigned int slot,
				      unsigned int minor)
{
	int fd, w, got, del_err, alive_after_del, still_works, closed,
	    base = parents_live();
	unsigned int m = 0;

	CHECK(base >= 0, "cannot read %s/parents", fixture_dir);
	CHECK(!ctl("add %u %u 1 %s", slot, minor, kind), "add %s failed", kind);
	CHECK(parents_live() == base + 1, "no parent allocated");
	fd = open_fresh(minor, O_RDWR);
	CHECK(fd >= 0, "open: %s", strerror(-fd));
	/* Every step runs, so the file is closed before any check returns. */
	got = read_slot(fd, &m, &w);
	del_err = ctl("del %u", slot);
	alive_after_del = parents_live();
	still_works = write(fd, "ab", 2) == 2 && read_slot(fd, &m, &w) == (int)slot &&
		      w == 2;
	closed = !close(fd);
	CHECK(got == (int)slot && m == minor,
	      "the open did not reach slot %u, minor %u (got %d)", slot, minor, got);
	CHECK(!del_err, "del: %s", strerror(-del_err));
	CHECK(alive_after_del == base + 1,
	      "the parent was released while a file of its cdev is open");
	CHECK(still_works, "the open file stopped working after the driver removed its cdev");
	CHECK(closed, "close failed");
	CHECK(parents_live() == base, "the parent outlived the last file (%d alive, want %d)",
	      parents_live(), base);
}

static void test_parent_finds_driver_data(void)
{
	parent_outlives_open_file("device", 1, 24);
}

static void test_parent_set_directly(void)
{
	parent_outlives_open_file("parent", 1, 25);
}

/* Write the kernel's modprobe path; "" makes request_module() fail at once. */
static int set_modprobe(const char *path)
{
	FILE *f = fopen(modprobe, "w");

	if (!f)
		return -1;
	fprintf(f, "%s\n", path);
	return fclose(f);
}

/*
 * An open of a number nobody registered asks for its driver
 * (request_module "char-major-<major>-<minor>") and looks again.  The
 * "modprobe" here is a script that registers the cdev instead of loading
 * a module, so the open succeeds only if the kernel looked again.
 */
static void test_unregistered_asks_for_driver(void)
{
	char helper[256], want[64], log[256], line[128] = "";
	FILE *f;
	int slot;

	snprintf(helper, sizeof(helper), "%s/modprobe-helper", node_dir);
	snprintf(log, sizeof(log), "%s/modprobe.log", node_dir);
	f = fopen(helper, "w");
	CHECK(f, "%s: %m", helper);
	fprintf(f, "#!/bin/sh\necho \"$*\" >> %s\n"
		"echo 'add 6 60 1 static' > %s/ctl\n", log, fixture_dir);
	fclose(f);
	CHECK(!chmod(helper, 0755), "chmod: %m");
	CHECK(!set_modprobe(helper), "setting %s: %m", modprobe);
	slot = slot_of_minor(60);
	set_modprobe("");
	f = fopen(log, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	CHECK(line[0], "the kernel did not run modprobe for minor 60");
	snprintf(want, sizeof(want), "char-major-%u-60", major_nr);
	CHECK(strstr(line, want), "modprobe was asked for '%s', want %s", line, want);
	CHECK(slot == 6, "the open after modprobe registered the cdev gave %d", slot);
	CHECK(!ctl("del 6"), "del failed");
}

static bool exists(const char *fmt, unsigned int minor)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), fmt, major_nr, minor);
	return !stat(path, &st);
}

/* A kernel that keeps cdevs out of sysfs must not grow /sys/cdev. */
static void test_no_sys_cdev(void)
{
	struct stat st;

	if (expect_sys_cdev)
		SKIP("this kernel registers cdevs in sysfs");
	CHECK(stat("/sys/cdev", &st) && errno == ENOENT,
	      "/sys/cdev exists on a kernel without sysfs cdevs");
	CHECK(!ctl("add 5 48 1 static"), "add failed");
	CHECK(stat("/sys/cdev", &st), "/sys/cdev appeared on cdev_add");
	CHECK(!ctl("del 5"), "del failed");
}

/* The 2004 layout: /sys/cdev/<dev> and /sys/cdev/major/<dev>. */
static void test_sys_cdev_entries(void)
{
	if (!expect_sys_cdev)
		SKIP("this kernel does not register cdevs in sysfs");
	CHECK(!ctl("add 5 48 1 static"), "add static failed");
	CHECK(!ctl("add 6 50 1 alloc"), "add alloc failed");
	CHECK(exists("/sys/cdev/%u:%u", 48), "/sys/cdev/%u:48 missing", major_nr);
	CHECK(exists("/sys/cdev/major/%u:%u", 50), "/sys/cdev/major/%u:50 missing",
	      major_nr);
	CHECK(!exists("/sys/cdev/%u:%u", 50), "cdev_alloc() cdev outside /sys/cdev/major");
	CHECK(!ctl("del 5") && !ctl("del 6"), "del failed");
	CHECK(!exists("/sys/cdev/%u:%u", 48), "/sys/cdev/%u:48 left after cdev_del",
	      major_nr);
	CHECK(!exists("/sys/cdev/major/%u:%u", 50),
	      "/sys/cdev/major/%u:50 left after cdev_del", major_nr);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "open_read_write", test_open_read_write },
	{ "cached_open", test_cached_open },
	{ "del_enxio_open_survives", test_del_enxio_open_survives },
	{ "minor_range", test_range },
	{ "overlap_narrowest_wins", test_overlap_narrowest },
	{ "overlap_single_minor", test_overlap_single },
	{ "failed_add_keeps_other", test_failed_add_keeps_other },
	{ "identical_del_older", test_identical_del_older },
	{ "unload_while_open", test_unload_while_open },
	{ "parent_finds_driver_data", test_parent_finds_driver_data },
	{ "parent_set_directly", test_parent_set_directly },
	{ "no_sys_cdev", test_no_sys_cdev },
	{ "sys_cdev_entries", test_sys_cdev_entries },
	{ "unregistered_asks_for_driver", test_unregistered_asks_for_driver },
	{ "race_cached_open_del", test_race_cached_open_del },
	{ "race_fresh_open_del", test_race_fresh_open_del },
	{ "race_evict_del", test_race_evict_del },
};

static const struct known_failure *known_failure(const char *name);

/* Add FILE's "CASE REASON" and "!CASE REASON" lines to known[]; -1 on an
 * unreadable file, an unknown case, a withdrawal of a case no earlier
 * line declared, or too many. */
static int read_known_failures(const char *file)
{
	char line[512];
	FILE *f = fopen(file, "r");
	int len, i, found, err = 0;

	if (!f) {
		fprintf(stderr, "cdev_selftest: %s: %m\n", file);
		return -1;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		struct known_failure *k = &known[nknown];

		line[strcspn(line, "#\n")] = '\0';
		if (sscanf(line, "%63s %n", k->name, &len) != 1)
			continue;	/* blank or a comment */
		k->withdrawn = k->name[0] == '!';
		if (k->withdrawn)
			memmove(k->name, k->name + 1, strlen(k->name));
		snprintf(k->reason, sizeof(k->reason), "%s", line + len);
		for (i = 0, found = 0; i < (int)ARRAY_SIZE(cases); i++)
			found |= !strcmp(cases[i].name, k->name);
		if (!found || !k->reason[0] || nknown == MAX_KNOWN_FAILURES - 1 ||
		    (k->withdrawn && !known_failure(k->name))) {
			fprintf(stderr, "cdev_selftest: %s: '%s': %s\n", file, k->name,
				!found ? "no such case" : !k->reason[0] ? "no reason given" :
				nknown == MAX_KNOWN_FAILURES - 1 ? "too many known failures" :
				"withdrawn, but no earlier file declares it");
			err = -1;
		}
		nknown++;
	}
	fclose(f);
	return err;
}

/* The case's declaration that holds: the last line naming it, unless
 * that line withdraws it. */
static const struct known_failure *known_failure(const char *name)
{
	int i;

	for (i = nknown - 1; i >= 0; i--)
		if (!strcmp(known[i].name, name))
			return known[i].withdrawn ? NULL : &known[i];
	return NULL;
}

/*
 * "ok N CASE # DIRECTIVE REASON", @count adding it to kselftest.h's totals:
 * KTAP's order, as 6.12's ksft_test_result_code() prints it.  6.1's
 * ksft_test_result_skip() and _xfail() put the name after the directive,
 * where KTAP has the reason (compare/sections.c and tests/test_90_smoke.sh
 * read it before), and neither tree has a result function for XPASS.
 */
static void __attribute__((format(printf, 4, 5)))
result_directive(void (*count)(void), const char *name, const char *directive,
		 const char *fmt, ...)
{
	va_list ap;

	count();
	printf("ok %u %s # %s ", ksft_test_num(), name, directive);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int main(int argc, char **argv)
{
	char path[256], saved_modprobe[256];
	unsigned int i;
	int slot;
	FILE *f;

	for (; argc > 1 && !strncmp(argv[1], "--", 2); argv++, argc--) {
		if (!strcmp(argv[1], "--expect-sys-cdev")) {
			expect_sys_cdev = true;
		} else if (argc > 2 && !strcmp(argv[1], "--race-rounds") &&
			   (race_rounds = strtol(argv[2], NULL, 10)) > 0) {
			argv++;
			argc--;
		} else if (argc > 2 && !strcmp(argv[1], "--known-failures")) {
			if (read_known_failures(argv[2]))
				return 2;
			argv++;
			argc--;
		} else {
			break;
		}
	}
	if (argc != 3) {
		fprintf(stderr, "usage: cdev_selftest [--expect-sys-cdev] [--race-rounds R]\n"
			"                     [--known-failures FILE]... FIXTURE_DIR NODE_DIR\n");
		return 2;
	}
	fixture_dir = argv[1];
	node_dir = argv[2];
	snprintf(path, sizeof(path), "%s/major", fixture_dir);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &major_nr) != 1) {
		fprintf(stderr, "cdev_selftest: cannot read %s: is cdev_fixture loaded?\n", path);
		return 2;
	}
	fclose(f);
	/*
	 * Every open of a removed cdev's number asks for a driver; with the
	 * host's modprobe that is an exec per open in the race cases.  The
	 * cases run with request_module() failing at once, and the one that
	 * tests it sets its own helper.
	 */
	f = fopen(modprobe, "r");
	if (!f || !fgets(saved_modprobe, sizeof(saved_modprobe), f) ||
	    set_modprobe("")) {
		fprintf(stderr, "cdev_selftest: cannot set %s: %m\n", modprobe);
		return 2;
	}
	fclose(f);
	saved_modprobe[strcspn(saved_modprobe, "\n")] = '\0';

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(cases));
	{
		struct utsname u;
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		bool preempt = !uname(&u) && strstr(u.version, "PREEMPT");

		races_in_kernel = cpus > 1 || preempt;
		/* what a pass can mean: kernel races need two CPUs or preemption */
		ksft_print_msg("environment: %ld CPU(s) online, %s kernel preemption: %s\n", cpus,
			       preempt ? "with" : "without",
			       races_in_kernel ? "the race cases can race inside the kernel" :
						 "the race cases cannot race inside the kernel");
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct known_failure *k = known_failure(cases[i].name);

		case_failed = 0;
		case_skipped = NULL;
		case_stuck = false;
		cases[i].fn();
		if (case_skipped)
			result_directive(ksft_inc_xskip_cnt, cases[i].name, "SKIP", "%s",
					 case_skipped);
		else if (k && case_failed)
			result_directive(ksft_inc_xfail_cnt, cases[i].name, "XFAIL", "%s",
					 k->reason);
		else if (k)
			result_directive(ksft_inc_xpass_cnt, cases[i].name, "XPASS",
					 "passes, but is declared a known failure: %s", k->reason);
		else if (case_failed)
			ksft_test_result_fail("%s\n", cases[i].name);
		else
			ksft_test_result_pass("%s\n", cases[i].name);
		if (case_stuck)
			end_guest_stuck(cases[i].name);
		/* A failed case may leave cdevs behind; later cases start clean. */
		for (slot = 0; slot < FIXTURE_SLOTS; slot++)
			ctl("del %d", slot);
	}
	set_modprobe(saved_modprobe);
	/* kselftest's "# Totals:" line; exit 1 on a failure (XFAIL and XPASS
	 * are none), else 0 */
	ksft_exit(!ksft_get_fail_cnt());
}
