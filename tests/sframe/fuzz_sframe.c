// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the SFrame reader core.  The input is a section
 * image with a text range in front (see fuzz_input.h).  It runs
 * sframe_section_init(), sframe_section_validate() and sframe_find() at ips
 * derived from the input (the edges of the text, around the functions the
 * FDEs name, and arbitrary words of the input), and aborts when a property
 * breaks:
 *  - no read outside the section (the read callback checks every read);
 *  - only the documented error codes, and no -EFAULT (reads never fail);
 *  - after a successful init, the FDE array and FRE area lie in the section;
 *  - a section that validates never makes sframe_find() return -EINVAL;
 *  - a frame is either outermost with all fields zero, or has ra_off -8,
 *    or (v3 flexible FDEs) has general rules with a register-based CFA;
 *  - a lookup through an FRE index (sframe_lookup() asking for one,
 *    sframe_fre_index(), sframe_find_fre() from the index point before the
 *    ip) gives what the full scan gives, whenever the index can be built,
 *    and it can always be built in a section that validates.
 */
#include <linux/sframe_reader.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

struct input {
	const unsigned char *sec;
	size_t len;
};

#define SFRAME_PCREL 0x4	/* FDE_FUNC_START_PCREL */

#define FAIL(...) do { fprintf(stderr, "fuzz_sframe: " __VA_ARGS__); abort(); } while (0)

static u32 get32(const unsigned char *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static int fuzz_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	const struct input *in = ctx;
	unsigned long off = addr - FUZZ_SFRAME_BASE;

	if (addr < FUZZ_SFRAME_BASE || off > in->len || len > in->len - off)
		FAIL("read of %u bytes at %#lx, outside the %zu-byte section\n", len, addr,
		     in->len);
	memcpy(dst, in->sec + off, len);
	return 0;
}

static void check_layout(const struct sframe_section *sec)
{
	if (sec->fdes_start < sec->sframe_start ||
	    sec->fdes_start + (u64)sec->num_fdes * sec->fde_size > sec->sframe_end ||
	    sec->fres_start < sec->sframe_start || sec->fres_end < sec->fres_start ||
	    sec->fres_end > sec->sframe_end)
		FAIL("init accepted a layout outside the section\n");
}

static struct sframe_fre_pos points[FUZZ_MAX_LEN / 2];

/* The lookup of @ip through an index of every @stride-th FRE */
static void probe_indexed(const struct sframe_section *sec, struct input *in, unsigned long ip,
			  int valid, int ret, const struct sframe_frame *f, u32 stride)
{
	struct sframe_fre_scan scan;
	struct sframe_frame g;
	struct sframe_fde fde;
	u32 lo, hi, mid, pc;
	int r = sframe_lookup(sec, ip, 0, &g, &fde, fuzz_read, in);

	if (r != SFRAME_NEED_INDEX) {
		if (r != ret)
			FAIL("lookup %#lx returned %d, find %d\n", ip, r, ret);
		return;
	}
	if (fde.num_fres > FUZZ_MAX_LEN / 2)
		FAIL("FDE of %u FREs in a %zu-byte section\n", fde.num_fres, in->len);
	scan = (struct sframe_fre_scan){ .off = fde.fre_off };
	r = sframe_fre_index(sec, &fde, &scan, fde.num_fres, stride, points, fuzz_read, in);
	if (r && r != -EINVAL)
		FAIL("index of %#lx returned %d\n", ip, r);
	if (r && !valid)
		FAIL("index of %#lx returned -EINVAL in a validated section\n", ip);
	if (r)
		return;
	pc = sframe_pc_offset(&fde, ip);
	for (lo = 0, hi = (fde.num_fres + stride - 1) / stride; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if (points[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	lo = lo ? lo - 1 : 0;
	r = sframe_find_fre(sec, &fde, ip, &points[lo], lo * stride, stride, &g, fuzz_read, in);
	if (r != ret)
		FAIL("indexed lookup %#lx returned %d, find %d\n", ip, r, ret);
	if (!r && (f->cfa_off != g.cfa_off || f->ra_off != g.ra_off || f->fp_off != g.fp_off ||
		   f->use_fp != g.use_fp || f->outermost != g.outermost || f->flex != g.flex ||
		   f->cfa_rule != g.cfa_rule || f->ra_rule != g.ra_rule || f->fp_rule != g.fp_rule))
		FAIL("indexed lookup %#lx found another frame\n", ip);
}

static void probe(const struct sframe_section *sec, struct input *in, unsigned long ip,
		  int valid)
{
	struct sframe_frame f;
	int ret = sframe_find(sec, ip, &f, fuzz_read, in);

	probe_indexed(sec, in, ip, valid, ret, &f, 1 + ip % 7);

	if (ret && ret != -ENOENT && ret != -EINVAL)
		FAIL("find %#lx returned %d\n", ip, ret);
	if (ret == -EINVAL && valid == 0)
		FAIL("find %#lx returned -EINVAL in a validated section\n", ip);
	if (ret)
		return;
	if (f.outermost && (f.cfa_off || f.ra_off || f.fp_off || f.use_fp || f.flex))
		FAIL("outermost frame with offsets at %#lx\n", ip);
	if (!f.outermost && !f.flex && f.ra_off != -8)
		FAIL("ra_off %d at %#lx\n", f.ra_off, ip);
	if (f.flex && (f.use_fp || !(f.cfa_rule & SFRAME_RULE_REG) || !f.ra_rule ||
		       SFRAME_RULE_REGNUM(f.cfa_rule) > SFRAME_RULE_MAX_REG ||
		       SFRAME_RULE_REGNUM(f.ra_rule) > SFRAME_RULE_MAX_REG ||
		       SFRAME_RULE_REGNUM(f.fp_rule) > SFRAME_RULE_MAX_REG))
		FAIL("flexible rules %#x %#x %#x at %#lx\n", f.cfa_rule, f.ra_rule, f.fp_rule, ip);
}

/* Probe in and around the function named by FDE @i */
static void probe_fde(const struct sframe_section *sec, struct input *in, u32 i, int valid)
{
	unsigned long addr = sec->fdes_start + (unsigned long)i * sec->fde_size;
	const unsigned char *fde = in->sec + (addr - FUZZ_SFRAME_BASE);
	unsigned long start = (sec->flags & SFRAME_PCREL) ? addr : FUZZ_SFRAME_BASE;
	int v3 = sec->version == 3;
	/* v3: s64 start, u32 size; v1/v2: s32 start, u32 size */
	u32 size = get32(fde + (v3 ? 8 : 4));
	unsigned long pick = fde[v3 ? 12 : 16] | (unsigned long)fde[i % sec->fde_size] << 8;

	start += v3 ? (long)((u64)get32(fde) | (u64)get32(fde + 4) << 32) : (long)(s32)get32(fde);
	probe(sec, in, start, valid);
	probe(sec, in, start + 1, valid);
	probe(sec, in, start - 1, valid);
	if (!size)
		return;
	probe(sec, in, start + size / 2, valid);
	probe(sec, in, start + size - 1, valid);
	probe(sec, in, start + size, valid);
	probe(sec, in, start + pick % size, valid);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sframe_section sec;
	struct input in;
	unsigned long text_start, text_end;
	u32 text_len, step;
	int ret, valid;

	if (size < FUZZ_PREFIX_SIZE)
		return 0;
	text_start = FUZZ_SFRAME_BASE + (long)(s32)get32(data);
	text_len = get32(data + 4);
	text_end = text_start + text_len;
	in.sec = data + FUZZ_PREFIX_SIZE;
	in.len = size - FUZZ_PREFIX_SIZE;

	ret = sframe_section_init(&sec, FUZZ_SFRAME_BASE, FUZZ_SFRAME_BASE + in.len, text_start,
				  text_end, fuzz_read, &in);
	if (ret && ret != -EINVAL)
		FAIL("init returned %d\n", ret);
	if (ret)
		return 0;
	check_layout(&sec);

	valid = sframe_section_validate(&sec, ~0U, fuzz_read, &in);
	if (valid && valid != -EINVAL)
		FAIL("validate returned %d\n", valid);

	probe(&sec, &in, text_start, valid);
	probe(&sec, &in, text_start - 1, valid);
	probe(&sec, &in, text_end - 1, valid);
	probe(&sec, &in, text_end, valid);

	step = sec.num_fdes / 64 + 1;
	for (u32 i = 0; i < sec.num_fdes; i += step)
		probe_fde(&sec, &in, i, valid);

	for (size_t off = 0; off + 4 <= in.len && off < 64; off += 4)
		probe(&sec, &in, text_start + get32(in.sec + off) % text_len, valid);
	return 0;
}
