/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured window as the TCG plugin (bench/plugin/tcg_pmu.c) sees it:
 * an 8-byte NOP, nopl 0xCDEB000T(%rax,%rax,1), that the plugin recognises
 * when it translates it and any CPU runs as a NOP.  T=1 starts counting on
 * this vCPU, 2 pauses (around the untimed parts between two operations),
 * 3 ends the window and writes its record.  No compiler pads with such a
 * displacement, so the rest of the boot cannot open a window.  Plain C and
 * asm: the kernel module and user space share it.
 */
#ifndef CDEVBENCH_PMU_WINDOW_H
#define CDEVBENCH_PMU_WINDOW_H

#define PMU_MARK(tag) \
	asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00, " #tag ", 0x00, 0xeb, 0xcd" ::: "memory")

static inline void pmu_count(void) { PMU_MARK(1); }
static inline void pmu_pause(void) { PMU_MARK(2); }
static inline void pmu_close(void) { PMU_MARK(3); }

#endif
