// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the .eh_frame reader: the input is the memory at
 * EHF_BASE (.eh_frame_hdr in its first EHF_HDR_SIZE bytes; see ehf_test.h),
 * and also the stack the rows are evaluated on. Every FDE of the table is
 * decoded, run row by row and looked up at some pcs; every row found is
 * evaluated. Besides ASan/UBSan, the reader's promises are checked: reads of
 * 1..64 bytes (ehf_space_read()), rows in order and inside their FDE, the
 * row of a pc holding it, a CFA and a return address below the limit.
 */
#include <stdint.h>

#include "ehf_test.h"

#define MAX_ENTRIES	32

static const struct eh_frame_limits lim = EH_FRAME_LIMITS_DEFAULT;

struct run_check {
	const struct eh_frame_fde *fde;
	unsigned long last;
	unsigned int rows;
};

static int check_row(void *arg, const struct eh_frame_row *row)
{
	struct run_check *rc = arg;

	if (row->start >= row->end || row->start < rc->last ||
	    row->start < rc->fde->pc_start || row->end > rc->fde->pc_end)
		abort();
	rc->last = row->end;
	rc->rows++;
	return 0;
}

static void eval(const struct eh_frame_row *row, unsigned long pc,
		 struct ehf_space *sp, const struct eh_frame_mem *mem)
{
	struct eh_frame_regs regs = { .ip = pc, .sp = EHF_STACK + 0x800,
				      .fp = EHF_STACK + 0x900 }, caller;
	int ret = eh_frame_eval(row, &regs, EHF_LIMIT, &caller, mem);

	if (ret == 0 && (caller.sp >= EHF_LIMIT || caller.ip >= EHF_LIMIT))
		abort();
	if (ret == 0 && eh_frame_row_usable(row))
		abort();
	(void)sp;
}

static void lookup(const struct eh_frame_hdr *hdr, unsigned long pc,
		   struct ehf_space *sp, const struct eh_frame_mem *mem)
{
	struct eh_frame_row row;

	if (eh_frame_lookup(hdr, pc, &row, &lim, mem))
		return;
	if (pc < row.start || pc >= row.end)
		abort();
	eval(&row, pc, sp, mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ehf_space sp;
	struct eh_frame_mem mem = { .read = ehf_space_read, .ctx = &sp };
	struct eh_frame_hdr hdr;
	struct eh_frame_fde fde;
	struct run_check rc;
	unsigned long pc, addr;
	size_t i;
	u32 n;

	sp.image = data;
	sp.image_size = size;
	for (i = 0; i < EHF_STACK_SIZE; i++)
		sp.stack[i] = size ? data[(i * 7) % size] : 0;
	if (eh_frame_hdr_init(&hdr, EHF_BASE, size < EHF_HDR_SIZE ? size : EHF_HDR_SIZE,
			      EHF_BASE, EHF_BASE + size, &lim, &mem))
		return 0;
	for (n = 0; n < hdr.count && n < MAX_ENTRIES; n++) {
		if (eh_frame_hdr_entry(&hdr, n, &pc, &addr, &mem))
			abort();	/* inside the checked table */
		lookup(&hdr, pc, &sp, &mem);
		if (eh_frame_decode_fde(&hdr, addr, &fde, &lim, &mem))
			continue;
		rc = (struct run_check){ .fde = &fde, .last = fde.pc_start };
		eh_frame_run(&fde, 0, check_row, &rc, NULL, &lim, &mem);
		lookup(&hdr, fde.pc_start, &sp, &mem);
		lookup(&hdr, fde.pc_start + (fde.pc_end - fde.pc_start) / 2, &sp, &mem);
		lookup(&hdr, fde.pc_end - 1, &sp, &mem);
	}
	return 0;
}
