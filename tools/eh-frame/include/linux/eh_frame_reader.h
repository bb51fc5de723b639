/* SPDX-License-Identifier: GPL-2.0 */
/*
 * .eh_frame reader core: find the FDE of an instruction pointer through
 * .eh_frame_hdr, decode its CIE and FDE, run the CFA program, and say how
 * to unwind one frame (x86-64).
 *
 * This header and kernel/unwind/eh_frame_reader.c depend on nothing but
 * plain C types, so the same code builds in the kernel and in user space
 * (unit tests, the libdw cross-check, fuzzing). All memory is read through
 * struct eh_frame_mem: in the kernel a copy_from_user() reader in task
 * context (it may fault and sleep), in user space a buffer reader. The
 * memory is hostile and may change under us: every length, offset and
 * count is checked before use, and every loop is bounded by a field of
 * struct eh_frame_limits.
 *
 * Only what compilers and hand-written assembly emit for x86-64 is
 * understood; the rest makes the row (or the FDE) unusable, never wrong.
 */
#ifndef _LINUX_EH_FRAME_READER_H
#define _LINUX_EH_FRAME_READER_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
/* The same definitions as the kernel's <asm-generic/int-ll64.h> */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef signed short s16;
typedef signed int s32;
typedef signed long long s64;
#endif

/* DWARF register numbers of x86-64 that an unwind of user stacks uses */
#define EH_FRAME_REG_FP		6
#define EH_FRAME_REG_SP		7
#define EH_FRAME_REG_IP		16

/**
 * struct eh_frame_mem - how the reader reads memory
 * @read: copy @len bytes at @addr to @dst; 0, or -EFAULT if any byte
 *	cannot be read. Never called with @len above 64.
 * @ctx: passed to @read
 */
struct eh_frame_mem {
	int (*read)(void *ctx, unsigned long addr, void *dst, unsigned int len);
	void *ctx;
};

/**
 * struct eh_frame_limits - the bounds of the work of one lookup
 * @max_prog: bytes of one CFA program (a CIE's initial instructions, an
 *	FDE's instructions); a longer program fails with -E2BIG
 * @max_state: DW_CFA_remember_state nesting, at most EH_FRAME_MAX_STATE
 * @max_expr: bytes of one DWARF expression, at most EH_FRAME_MAX_EXPR
 * @max_aug: bytes of augmentation data of a CIE or an FDE
 * @max_fdes: entries of the .eh_frame_hdr table (the search takes at most
 *	32 steps whatever the count)
 *
 * Fixed bounds: LEB128 numbers of at most 10 bytes whose value fits 32
 * bits, augmentation strings of at most 7 characters, an expression stack
 * of EH_FRAME_EXPR_DEPTH values.
 */
struct eh_frame_limits {
	u32 max_prog;
	u32 max_state;
	u32 max_expr;
	u32 max_aug;
	u32 max_fdes;
};

#define EH_FRAME_MAX_STATE	4	/* Debian 12 nests 1 deep at most */
#define EH_FRAME_MAX_EXPR	64
#define EH_FRAME_EXPR_DEPTH	4

/* Defaults: above what Debian 12 needs (cc1: a program of 20 058 bytes) */
#define EH_FRAME_LIMITS_DEFAULT {					\
	.max_prog = 32768, .max_state = EH_FRAME_MAX_STATE,		\
	.max_expr = 32, .max_aug = 64, .max_fdes = 1 << 20,		\
}

/**
 * struct eh_frame_hdr - a checked .eh_frame_hdr
 * @start: address of the section (the base of its table's offsets)
 * @table: address of the first table entry
 * @count: table entries
 * @lo: lowest address a CIE or an FDE may be read at
 * @hi: end (exclusive) of the memory they may be read in
 */
struct eh_frame_hdr {
	unsigned long start;
	unsigned long table;
	u32 count;
	unsigned long lo;
	unsigned long hi;
};

/**
 * struct eh_frame_fde - a decoded FDE with what its CIE says
 * @pc_start: first instruction it describes
 * @pc_end: end (exclusive) of its code
 * @prog: its CFA program
 * @prog_end: end (exclusive) of the program
 * @cie_prog: its CIE's initial instructions
 * @cie_prog_end: end (exclusive) of those
 * @code_align: code alignment factor
 * @data_align: data alignment factor
 * @ra_col: the return address column
 * @signal: the CIE says 'S': a signal frame (its return address is an
 *	exact pc: the caller's lookup is at that pc, not one before)
 */
struct eh_frame_fde {
	unsigned long pc_start;
	unsigned long pc_end;
	unsigned long prog;
	unsigned long prog_end;
	unsigned long cie_prog;
	unsigned long cie_prog_end;
	u32 code_align;
	s32 data_align;
	u32 ra_col;
	bool signal;
};

/* How the CFA is computed (struct eh_frame_cfa.how) */
enum eh_frame_cfa_how {
	EH_FRAME_CFA_UNSET,	/* no rule yet */
	EH_FRAME_CFA_REG,	/* @reg + @off */
	EH_FRAME_CFA_DEREF,	/* the word at @reg + @off, + @add */
	/* @reg + @off, + (1 << @shift) if ((ip + @ipoff) & @mask) >= @thr */
	EH_FRAME_CFA_PLT,
	EH_FRAME_CFA_BAD,	/* an expression this reader does not take */
};

/**
 * struct eh_frame_cfa - the rule of the CFA
 * @off: offset from the base register
 * @add: (DEREF) added to the word loaded
 * @ipoff: (PLT) added to ip before the mask
 * @reg: base register (DWARF number)
 * @mask: (PLT) mask of ip
 * @thr: (PLT) the first masked ip with the step
 * @how: enum eh_frame_cfa_how
 * @shift: (PLT) the size of the step
 */
struct eh_frame_cfa {
	s64 off;
	s64 add;
	s64 ipoff;
	u32 reg;
	u32 mask;
	u32 thr;
	u8 how;
	u8 shift;
};

/* The rule of a register (struct eh_frame_reg.how) */
enum eh_frame_reg_how {
	EH_FRAME_RULE_UNSPEC,	/* none given */
	EH_FRAME_RULE_SAME,	/* unchanged */
	EH_FRAME_RULE_UNDEF,	/* lost (the return address: outermost frame) */
	EH_FRAME_RULE_AT_CFA,	/* saved at CFA + @off */
	EH_FRAME_RULE_VAL_CFA,	/* is CFA + @off */
	EH_FRAME_RULE_AT_REG,	/* saved at register @reg + @off (an expression) */
	EH_FRAME_RULE_IN_REG,	/* in register @reg (DW_CFA_register) */
	EH_FRAME_RULE_BAD,	/* an expression this reader does not take */
};

/**
 * struct eh_frame_reg - the rule of one register
 * @off: offset of AT_CFA, VAL_CFA, AT_REG
 * @reg: register of AT_REG, IN_REG
 * @how: enum eh_frame_reg_how
 */
struct eh_frame_reg {
	s64 off;
	u32 reg;
	u8 how;
};

/**
 * struct eh_frame_row - the rules at the addresses of one row
 * @start: first address of the row
 * @end: end (exclusive) of the row
 * @cfa: the CFA
 * @ra: the return address (the CIE's return address column)
 * @fp: the caller's frame pointer (rbp)
 * @sp: the caller's stack pointer (unspecified: the CFA)
 * @signal: from a CIE with 'S'
 * @insns: CFA instructions run up to this row, the CIE's included (the
 *	work of a lookup, for measurements)
 */
struct eh_frame_row {
	unsigned long start;
	unsigned long end;
	struct eh_frame_cfa cfa;
	struct eh_frame_reg ra;
	struct eh_frame_reg fp;
	struct eh_frame_reg sp;
	bool signal;
	u32 insns;
};

/*
 * Called by eh_frame_run() for each row of an FDE, in address order:
 * return 0 to go on, anything else to stop the run with that value.
 */
typedef int (*eh_frame_row_fn)(void *arg, const struct eh_frame_row *row);

/* Why a row cannot be used (eh_frame_row_usable()) */
enum eh_frame_why {
	EH_FRAME_OK,
	EH_FRAME_WHY_CFA_NONE,	/* no CFA rule */
	EH_FRAME_WHY_CFA_REG,	/* CFA based on another register than SP, FP */
	EH_FRAME_WHY_CFA_EXPR,	/* a CFA expression not taken */
	EH_FRAME_WHY_RA,	/* the return address in a register, or lost */
	EH_FRAME_WHY_FP,	/* FP restored from another register */
	EH_FRAME_WHY_SP,	/* SP restored otherwise than to the CFA */
	EH_FRAME_WHY_NR,
};

/* eh_frame_eval(): the frame is the outermost one (return address undefined) */
#define EH_FRAME_OUTERMOST	1

/**
 * struct eh_frame_regs - the registers an unwind of user stacks knows
 * @ip: instruction pointer
 * @sp: stack pointer
 * @fp: frame pointer (rbp)
 */
struct eh_frame_regs {
	unsigned long ip;
	unsigned long sp;
	unsigned long fp;
};

int eh_frame_hdr_init(struct eh_frame_hdr *hdr, unsigned long start,
		      unsigned long size, unsigned long lo, unsigned long hi,
		      const struct eh_frame_limits *lim,
		      const struct eh_frame_mem *mem);

int eh_frame_hdr_entry(const struct eh_frame_hdr *hdr, u32 i,
		       unsigned long *pc, unsigned long *fde_addr,
		       const struct eh_frame_mem *mem);

int eh_frame_decode_fde(const struct eh_frame_hdr *hdr, unsigned long addr,
			struct eh_frame_fde *fde,
			const struct eh_frame_limits *lim,
			const struct eh_frame_mem *mem);

int eh_frame_find_fde(const struct eh_frame_hdr *hdr, unsigned long pc,
		      struct eh_frame_fde *fde,
		      const struct eh_frame_limits *lim,
		      const struct eh_frame_mem *mem);

int eh_frame_run(const struct eh_frame_fde *fde, unsigned long pc,
		 eh_frame_row_fn emit, void *arg, struct eh_frame_row *row,
		 const struct eh_frame_limits *lim,
		 const struct eh_frame_mem *mem);

int eh_frame_lookup(const struct eh_frame_hdr *hdr, unsigned long pc,
		    struct eh_frame_row *row, const struct eh_frame_limits *lim,
		    const struct eh_frame_mem *mem);

int eh_frame_row_usable(const struct eh_frame_row *row);

int eh_frame_eval(const struct eh_frame_row *row,
		  const struct eh_frame_regs *regs, unsigned long limit,
		  struct eh_frame_regs *caller, const struct eh_frame_mem *mem);

#endif /* _LINUX_EH_FRAME_READER_H */
