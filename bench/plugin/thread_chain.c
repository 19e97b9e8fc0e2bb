// SPDX-License-Identifier: GPL-2.0
/*
 * A host program for the plugin's test under qemu-x86_64
 * (tests/test_55_pmu_rows.sh): thread_chain THREADS ALIVE creates THREADS
 * threads, one after another, at most ALIVE of them alive at once
 * besides the main thread: thread k starts once thread k - ALIVE has
 * exited.  Each runs one window (bench/lib/pmu_window.h) of one
 * operation that loads each of LINES lines of a buffer once, then waits
 * until it is let go.
 *
 * QEMU's user mode numbers a new thread's vCPU the highest live index + 1
 * (cpus-common.c, cpu_get_free_index), so with ALIVE=2 thread k is QEMU's
 * vCPU k + 1 although three vCPUs at most are alive.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include "pmu_window.h"

#define LINES 16

static volatile unsigned char buf[LINES * 64] __attribute__((aligned(64)));
static sem_t *go;

static void *thread(void *arg)
{
	long k = (long)arg;
	unsigned int i, sum = 0;

	pmu_count();
	for (i = 0; i < LINES; i++)
		sum += buf[i * 64];
	pmu_close();
	while (sem_wait(&go[k]))
		;
	return (void *)(unsigned long)sum;
}

int main(int argc, char **argv)
{
	long threads, alive, k;
	pthread_t *t;

	if (argc != 3 || (threads = atol(argv[1])) < 1 || (alive = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: thread_chain THREADS ALIVE\n");
		return 2;
	}
	t = calloc(threads, sizeof(*t));
	go = calloc(threads, sizeof(*go));
	if (!t || !go) {
		fprintf(stderr, "thread_chain: out of memory\n");
		return 1;
	}
	for (k = 0; k < threads; k++) {
		if (sem_init(&go[k], 0, 0)) {
			perror("thread_chain: sem_init");
			return 1;
		}
		if (k >= alive) {
			sem_post(&go[k - alive]);
			pthread_join(t[k - alive], NULL);
		}
		if (pthread_create(&t[k], NULL, thread, (void *)k)) {
			fprintf(stderr, "thread_chain: thread %ld not created\n", k);
			return 1;
		}
	}
	for (k = threads > alive ? threads - alive : 0; k < threads; k++) {
		sem_post(&go[k]);
		pthread_join(t[k], NULL);
	}
	free(t);
	free(go);
	return 0;
}
