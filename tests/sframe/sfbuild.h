/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build SFrame sections by hand for the tests (versions 1, 2 and 3, both
 * func_start encodings, PCMASK, v3 FDE types and signal trampolines),
 * independently of the reader's code.
 */
#ifndef SFBUILD_H
#define SFBUILD_H

#include <stddef.h>
#include <stdint.h>

#define SB_MAGIC	0xdee2
#define SB_SORTED	0x1
#define SB_FP		0x2
#define SB_PCREL	0x4
#define SB_HDR_SIZE	28
#define SB_MAX_FRES	16

struct sb_fre {
	uint32_t start;		/* from the function start */
	int base_sp;		/* CFA base: 1 = SP, 0 = FP */
	int count;		/* number of offsets (N) */
	int size_code;		/* 0, 1, 2: 1, 2, 4 bytes; 3 (invalid) is written as 4 */
	int32_t off[15];	/* v3 flexible FDEs: control words too */
};

struct sb_fde {
	unsigned long func;	/* absolute start address */
	uint32_t size;
	int fre_type;		/* 0, 1, 2: 1, 2, 4-byte starts; others written as 1 */
	int pcmask;
	uint8_t rep_size;	/* versions 2 and 3 */
	int type;		/* version 3: FDE type (info2), 0 default, 1 flexible */
	int signal;		/* version 3: signal trampoline (info bit 7) */
	int nfres;
	struct sb_fre fres[SB_MAX_FRES];
};

struct sb_section {
	int version;
	int flags;
	int abi;
	int fp_fixed;
	int ra_fixed;
	int auxhdr_len;
	int nfdes;
	int reverse_blobs;	/* version 3: FRE blobs in reverse index order */
	struct sb_fde *fdes;
};

/* Where things went in the image */
struct sb_layout {
	size_t len;		/* total bytes */
	size_t hdr_end;		/* header + auxiliary header */
	size_t fdes;		/* first FDE */
	size_t fde_size;
	size_t fres;		/* FRE area */
	size_t attr[64];	/* version 3: attribute record of FDE i (i < 64) */
};

/* A valid empty section of @version (flags: sorted, plus @flags) */
void sb_init(struct sb_section *s, int version, int flags, struct sb_fde *fdes);

/* Append an FDE with FRE type @fre_type; return it */
struct sb_fde *sb_add_fde(struct sb_section *s, unsigned long func, uint32_t size, int fre_type);

/* Append an FRE: CFA = (sp ? SP : FP) + cfa; FP saved at CFA + fp if fp != 0 */
struct sb_fre *sb_add_fre(struct sb_fde *f, uint32_t start, int sp, int32_t cfa, int32_t fp);

/*
 * Append an FRE of a v3 flexible FDE with the @n words @w (control words
 * and offsets, in that order), each of @size_code (0: 1 byte, 1: 2, 2: 4)
 */
struct sb_fre *sb_add_words(struct sb_fde *f, uint32_t start, int size_code, int n,
			    const int32_t *w);

/*
 * Encode @s for a section at address @base into @out (@cap bytes); return the
 * layout (len 0 if it does not fit).
 */
struct sb_layout sb_build(const struct sb_section *s, unsigned long base,
			  unsigned char *out, size_t cap);

void sb_put16(unsigned char *p, uint16_t v);
void sb_put32(unsigned char *p, uint32_t v);
void sb_put64(unsigned char *p, uint64_t v);

#endif
