/* SPDX-License-Identifier: GPL-2.0 */
/* Made-up SFrame v2 and v3 sections for the guest test programs (x86-64, little endian). */
#ifndef TESTS_SFBUILD_H
#define TESTS_SFBUILD_H

#define SFB_HDR_SIZE	28
#define SFB_FDE_SIZE	20
#define SFB_FRE_SIZE	6	/* 4-byte start, info, 1-byte offset */

static inline void sfb_put16(unsigned char *p, unsigned int v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline void sfb_put32(unsigned char *p, unsigned int v)
{
	sfb_put16(p, v);
	sfb_put16(p + 2, v >> 16);
}

/* A header of one FDE: x86-64, RA at CFA - 8, no auxiliary header, FDEs first */
static inline void sfb_header(unsigned char *p, int version, int flags, unsigned long nfres,
			      unsigned long fre_len, unsigned long fde_size)
{
	sfb_put16(p, 0xdee2);
	p[2] = version;
	p[3] = flags;
	p[4] = 3;		/* x86-64 */
	p[5] = 0;
	p[6] = (unsigned char)-8;
	p[7] = 0;
	sfb_put32(p + 8, 1);
	sfb_put32(p + 12, nfres);
	sfb_put32(p + 16, fre_len);
	sfb_put32(p + 20, 0);
	sfb_put32(p + 24, fde_size);
}

/* The size of a section sfb_one_fde() writes */
static inline unsigned long sfb_size(unsigned long nfres)
{
	return SFB_HDR_SIZE + SFB_FDE_SIZE + nfres * SFB_FRE_SIZE;
}

/*
 * Write at @sec a section of one FDE for a function @func_off bytes from the
 * section's start, @size bytes long, with @nfres FREs starting @step bytes
 * apart, each "CFA = SP + @cfa_off, return address at CFA - 8".
 */
static inline void sfb_one_fde(unsigned char *sec, long func_off, unsigned long size,
			       unsigned long nfres, unsigned long step, unsigned char cfa_off)
{
	unsigned char *p = sec;
	unsigned long i;

	sfb_header(p, 2, 1, nfres, nfres * SFB_FRE_SIZE, SFB_FDE_SIZE);	/* sorted FDEs */
	p += SFB_HDR_SIZE;
	sfb_put32(p, func_off);	/* function start, from the section start */
	sfb_put32(p + 4, size);
	sfb_put32(p + 8, 0);
	sfb_put32(p + 12, nfres);
	p[16] = 2;		/* 4-byte FRE starts */
	p[17] = p[18] = p[19] = 0;
	p += SFB_FDE_SIZE;
	for (i = 0; i < nfres; i++, p += SFB_FRE_SIZE) {
		sfb_put32(p, i * step);
		p[4] = 1 | 1 << 1;	/* SP based, one 1-byte offset */
		p[5] = cfa_off;
	}
}

/* Version 3: a 16-byte FDE index entry, a 5-byte attribute record */
#define SFB_V3_FDE_SIZE	16
#define SFB_V3_ATTR_SIZE	5

/* The size of a section sfb_one_fde_v3() writes */
static inline unsigned long sfb_size_v3(unsigned long nfres)
{
	return SFB_HDR_SIZE + SFB_V3_FDE_SIZE + SFB_V3_ATTR_SIZE + nfres * SFB_FRE_SIZE;
}

/*
 * sfb_one_fde() in SFrame version 3 (FDE_SORTED | FUNC_START_PCREL): the
 * function start is an s64 from the index entry, @nfres at most 65535
 */
static inline void sfb_one_fde_v3(unsigned char *sec, long func_off, unsigned long size,
				  unsigned long nfres, unsigned long step, unsigned char cfa_off)
{
	unsigned char *p = sec;
	unsigned long i;
	long rel = func_off - SFB_HDR_SIZE;

	/* Sorted FDEs, PC-relative starts */
	sfb_header(p, 3, 1 | 4, nfres, SFB_V3_ATTR_SIZE + nfres * SFB_FRE_SIZE, SFB_V3_FDE_SIZE);
	p += SFB_HDR_SIZE;
	sfb_put32(p, rel);	/* function start, from this field: s64 */
	sfb_put32(p + 4, rel >> 32);
	sfb_put32(p + 8, size);
	sfb_put32(p + 12, 0);	/* its attribute record */
	p += SFB_V3_FDE_SIZE;
	sfb_put16(p, nfres);
	p[2] = 2;		/* 4-byte FRE starts */
	p[3] = 0;		/* default FDE type */
	p[4] = 0;
	p += SFB_V3_ATTR_SIZE;
	for (i = 0; i < nfres; i++, p += SFB_FRE_SIZE) {
		sfb_put32(p, i * step);
		p[4] = 1 | 1 << 1;	/* SP based, one 1-byte offset */
		p[5] = cfa_off;
	}
}

#endif
