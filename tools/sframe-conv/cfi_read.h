/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CFI reader of sfconv (cfi_read.c): the CIEs and FDEs of .eh_frame and
 * the rows of each FDE's CFI table, with what SFrame can say of them
 * (struct row), for the SFrame writer (sframe_write.h).
 */
#ifndef CFI_READ_H
#define CFI_READ_H

#include <linux/eh_frame_reader.h>
#include "sfconv.h"

/* DWARF register numbers on x86-64 */
#define DWARF_FP		6
#define DWARF_SP		7
#define DWARF_RA		16
/* The registers SFrame's flexible rules name: rax .. r15 */
#define DWARF_NR_GPR		16

static inline bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/*
 * A value as a V3 flexible rule says it (a control word and an offset):
 * register @reg or the CFA, plus @off, loaded from there if @deref
 */
struct loc {
	bool set;		/* else the default: RA at CFA - 8, FP unchanged */
	bool reg_p;		/* from register @reg, else from the CFA */
	bool deref;
	uint8_t reg;
	int32_t off;
};

/*
 * How to find the caller at the addresses of one row. Version 2 says a
 * CFA of SP or FP (@cfa.reg) plus an offset, the return address at its
 * default place and FP unchanged or at CFA + a non-zero offset.
 */
struct rule {
	struct loc cfa;		/* always from a register */
	struct loc ra;
	struct loc fp;
	bool outermost;
	/* A PLT: CFA = SP + cfa.off, + 8 from byte plt_push of each 16 */
	bool plt;
	uint8_t plt_push;
	bool flex;		/* only a V3 flexible FDE says it */
	bool v3;		/* a V3 FDE says it (flexible or not) */
};

struct row {
	uint64_t start;
	uint64_t end;
	int why;		/* < 0: fits v2, with @rule; else why not */
	struct rule rule;
};

/*
 * The rules of a row of the .eh_frame reader (eh_frame_reader.c) as SFrame
 * sees them: the CFA's rule, the return address's, FP's and SP's.
 */
enum reg_how {
	REG_UNSPEC,		/* no rule given */
	REG_SAME,		/* unchanged */
	REG_UNDEF,		/* undefined */
	REG_AT_CFA,		/* saved at CFA + off */
	REG_AT_REG,		/* saved at register reg + off (DW_CFA_expression) */
	REG_IS_REG,		/* register reg + off (DW_CFA_register, val_expression) */
	REG_OTHER,		/* anything else SFrame cannot say */
};

enum cfa_how {
	CFA_NONE,		/* no rule given */
	CFA_REG,		/* register cfa_reg + cfa_off */
	CFA_DEREF,		/* loaded from register cfa_reg + cfa_off */
	CFA_PLT,		/* the PLT's expression (plt_cfa()) */
	CFA_OTHER,		/* another expression */
};

struct reg_rule {
	uint8_t how;
	uint8_t reg;		/* REG_AT_REG, REG_IS_REG: < DWARF_NR_GPR */
	int64_t off;
};

/* The rules of one row of a CFI table */
struct state {
	uint8_t cfa;
	uint8_t plt_push;
	uint64_t cfa_reg;
	int64_t cfa_off;
	struct reg_rule ra;
	struct reg_rule fp;
	struct reg_rule sp;	/* SFrame's is the CFA (sp_is_cfa()) */
};

/* An FDE: its code, where it is, what the .eh_frame reader decoded */
struct fde {
	uint64_t start;
	uint64_t end;
	uint64_t addr;		/* of its length field */
	struct eh_frame_fde ehf;
};

/* What a conversion has read and made so far */
struct conv {
	struct eh_frame_hdr hdr;	/* bounds: .eh_frame */
	struct eh_frame_mem mem;	/* reads .eh_frame */
	const Elf_Data *data;
	unsigned long cie_prog;		/* the last CIE run, */
	bool cie_ok;			/* and whether it ran */
	struct fde *fdes;
	size_t nfdes, fdes_cap;
	struct row *rows;		/* of the FDE being converted */
	size_t nrows, rows_cap;
	struct sfconv_stats *st;
};

/* The object's .eh_frame: its section, else what .eh_frame_hdr points to */
int sfconv_find_eh_frame(Elf *elf, Elf_Data **data, uint64_t *vaddr);

/*
 * Read every FDE of .eh_frame @d (at @vaddr) into @cv, in the order of the
 * section (the .eh_frame reader decodes them); a malformed length ends it.
 */
int sfconv_read_cfi(struct conv *cv, Elf_Data *d, uint64_t vaddr);

/* qsort() order of FDEs: by start address, then in the order of the section */
int sfconv_cmp_fde(const void *a, const void *b);

/*
 * The rows of FDE @f, into cv->rows: 0, -EINVAL if the FDE cannot be used
 * at all, or -ENOMEM
 */
int sfconv_fde_rows(struct conv *cv, const struct fde *f);

#endif /* CFI_READ_H */
