// SPDX-License-Identifier: GPL-2.0
/*
 * compare --format posting --variant V: the body of V's cover letter
 * (scripts/posting.sh, docs/posting.md).  What the run measured of V, by
 * the code that writes the report's first screen, so that each figure of
 * the cover is the report's: the run and its base, V's answer and its
 * row of the matrix, its changes in kind (the lock census, the shared
 * cache lines), the race check and the kernel's checkers, and the
 * command that makes the run again; in lines of at most 72 columns, as
 * a mail's body is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

#define WIDTH 72

/* A shell command in lines of at most WIDTH columns, each but the last
 * ending in a backslash after a space outside single quotes (an escaped
 * one too: "a\ \" and "b" are "a\ b"), the next line from its first
 * column: the shell joins the lines into the command byte for byte.  A
 * word longer than a line stays whole.  The command is meta.json's
 * reproduce, quoted by printf %q: backslashes, and '' for nothing. */
static void print_command(FILE *out, const char *cmd)
{
	const char *line = cmd;

	while (strlen(line) > WIDTH) {
		const char *p, *cut = NULL;
		int quoted = 0;

		for (p = line; *p; p++) {
			if (*p == '\\' && !quoted && p[1])
				p++;
			else if (*p == '\'')
				quoted = !quoted;
			if (*p != ' ' || quoted)
				continue;
			if (cut && p + 1 - line > WIDTH - 1)
				break;
			cut = p + 1;
		}
		if (!cut)
			break;
		fprintf(out, "%.*s\\\n", (int)(cut - line), line);
		line = cut;
	}
	fprintf(out, "%s\n", line);
}

/* @vm's base in meta.json's bases, the one its arm was built on. */
static const json_t *base_of(const json_t *vm)
{
	const json_t *b;
	size_t i;

	json_array_foreach(json_object_get(in->metas[0].doc, "bases"), i, b)
		if (!strcmp(member_string(b, "name", ""), member_string(vm, "base", "")))
			return b;
	return NULL;
}

/* The variant asked for, or a refusal naming the run's. */
static void check_variant(void)
{
	char names[1024];
	size_t i, len = 0;

	for (i = 0; i < in->nvariants; i++)
		if (!strcmp(in->variants[i], opt.variant) && is_reported(opt.variant))
			return;
	names[0] = '\0';
	for (i = 0; i < in->nvariants && len < sizeof(names); i++)
		if (is_reported(in->variants[i]))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", in->variants[i]);
	die("the run did not measure '%s' against %s; its variants: %s", opt.variant,
	    opt.baseline, len ? names : "none");
}

void print_posting(const struct comparison *c, size_t n)
{
	const char *v = opt.variant, *path, *reproduce;
	const json_t *vm, *base, *bm;
	struct kind_change *k;
	struct paragraph p;
	char run[128], commit[128];
	size_t i;
	FILE *f;

	if (!in->nmetas)
		die("--format posting: no meta.json beside the samples");
	check_variant();
	vm = variant_meta(v, &path);
	bm = variant_meta(opt.baseline, &path);
	base = base_of(vm);
	reproduce = member_string(in->metas[0].doc, "reproduce", NULL);

	f = paragraph_begin(&p, stdout, WIDTH, "", "");
	fprintf(f, "Measured with cdevbench, run %s at rig commit %s: kernel %s, this series (sha256 %.12s of the run's copy) on ",
		meta_field("run_id", run, sizeof(run)), meta_field("rig_commit", commit, sizeof(commit)),
		member_string(vm, "kernel_release", "?"), member_string(vm, "series_sha256", "?"));
	if (base)
		write_base(f, base);
	else
		fprintf(f, "base %s", member_string(vm, "base", "?"));
	fprintf(f, ", against %s, kernel %s. ", opt.baseline, member_string(bm, "kernel_release", "?"));
	write_mode_note(f);
	paragraph_end(&p);

	printf("\n");
	paragraph(stdout, WIDTH, "", "", "Against %s (a -> b: %s's median of boots, then the variant's):",
		  opt.baseline, opt.baseline);
	print_answer(stdout, WIDTH, c, n, v);

	printf("\n");
	paragraph(stdout, WIDTH, "", "", "Headline metrics against %s: %s", opt.baseline,
		  MATRIX_LEGEND);
	for (i = 0; i < ndecls; i++)
		if (is_matrix_row(c, n, &decls[i])) {
			char cell[96];

			matrix_cell(cell, sizeof(cell), c, n, decls[i].name, v);
			printf("  %-21s %s\n", decls[i].name, cell);
		}

	printf("\n");
	if (kind_changes(c, n, v, &k))
		print_kind_changes(stdout, c, n, v, SIZE_MAX, WIDTH);
	else
		paragraph(stdout, WIDTH, "", "", "Changed in kind: nothing (no count per operation of the lock census or the shared cache lines moved by a whole number on every boot).");
	free(k);

	printf("\n");
	print_race_of(paragraph_begin(&p, stdout, WIDTH, "", ""), v);
	paragraph_end(&p);
	paragraph(stdout, WIDTH, "", "",
		  "Kernel checkers (lockdep, KCSAN, the debug lists): not run in this run; the rig does not run them yet.");

	printf("\n");
	if (!reproduce) {
		paragraph(stdout, WIDTH, "", "", "The run has no reproduce line (meta.json made before it).");
		return;
	}
	paragraph(stdout, WIDTH, "", "",
		  "The run made again at the rig's commit, from the run's own copy of the series (the lines join at their backslashes):");
	printf("\n");
	print_command(stdout, reproduce);
}
