/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab memory from the guest's counters, read exactly enough to divide by
 * a few hundred registrations.
 *
 * SLUB counts the free objects of per-CPU slabs as active in
 * /proc/slabinfo, so every cache is shrunk first (which flushes them); and
 * one process does both readings with files it opened beforehand, so the
 * reader's own objects are the same on both sides.
 * Objects freed after an RCU grace period (maple tree nodes, kfree_rcu(),
 * which batches for up to 5 s in 6.1) would land in whichever reading
 * comes after their free, so before each reading the slab shrinkers run
 * (drop_caches 2, which also hands kfree_rcu() batches to RCU) and the
 * counters are read until two readings 20 ms apart agree.
 */
#ifndef SLAB_COUNTERS_H
#define SLAB_COUNTERS_H

struct slab_totals {
	long long bytes;	/* sum of active_objs x objsize */
	long long kernfs_nodes;
};

/* Open every file the readings use; call once, before the first reading. */
int slab_open_counters(void);
/* The totals once deferred frees have settled; -1 with a message if not. */
int slab_read_settled(struct slab_totals *t);
/* Write @value at offset 0 of @fd (proc and debugfs files). */
int write_fd(int fd, const char *value);

#endif
