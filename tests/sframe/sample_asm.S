/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions with a known layout and CFI, for exact SFrame expectations in
 * test_sframe.c (which hard-codes the offsets below).
 */
	.text

/* A frame-pointer function: push %rbp; mov %rsp,%rbp; push %rbx */
	.globl	sf_asm_fp
	.type	sf_asm_fp, @function
sf_asm_fp:
	.cfi_startproc
	pushq	%rbp			/* +0: CFA = SP + 8 */
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp		/* +1: CFA = SP + 16, FP at CFA - 16 */
	.cfi_def_cfa_register %rbp
	pushq	%rbx			/* +4: CFA = FP + 16 */
	.cfi_offset %rbx, -24
	movq	%rdi, %rax		/* +5 */
	popq	%rbx			/* +8 */
	popq	%rbp			/* +9 */
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret				/* +10: CFA = SP + 8, FP unchanged */
	.cfi_endproc
	.size	sf_asm_fp, . - sf_asm_fp

/* A function without frame pointer pushing callee-saved registers */
	.globl	sf_asm_push
	.type	sf_asm_push, @function
sf_asm_push:
	.cfi_startproc
	pushq	%r12			/* +0: CFA = SP + 8 */
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	pushq	%rbx			/* +2: CFA = SP + 16 */
	.cfi_def_cfa_offset 24
	.cfi_offset %rbx, -24
	subq	$8, %rsp		/* +3: CFA = SP + 24 */
	.cfi_def_cfa_offset 32
	addq	$8, %rsp		/* +7: CFA = SP + 32 */
	.cfi_def_cfa_offset 24
	popq	%rbx			/* +11: CFA = SP + 24 */
	.cfi_def_cfa_offset 16
	popq	%r12			/* +12: CFA = SP + 16 */
	.cfi_def_cfa_offset 8
	ret				/* +14: CFA = SP + 8 */
	.cfi_endproc
	.size	sf_asm_push, . - sf_asm_push

/* A long function: its FRE starts need 2 bytes */
	.globl	sf_asm_long
	.type	sf_asm_long, @function
sf_asm_long:
	.cfi_startproc
	pushq	%rbx			/* +0: CFA = SP + 8 */
	.cfi_def_cfa_offset 16
	.skip	1000, 0x90		/* +1: CFA = SP + 16 */
	popq	%rbx			/* +1001: CFA = SP + 16 */
	.cfi_def_cfa_offset 8
	ret				/* +1002: CFA = SP + 8 */
	.cfi_endproc
	.size	sf_asm_long, . - sf_asm_long

/* A very long function: its FRE starts need 4 bytes */
	.globl	sf_asm_huge
	.type	sf_asm_huge, @function
sf_asm_huge:
	.cfi_startproc
	pushq	%rbx			/* +0: CFA = SP + 8 */
	.cfi_def_cfa_offset 16
	.skip	70000, 0x90		/* +1: CFA = SP + 16 */
	popq	%rbx			/* +70001: CFA = SP + 16 */
	.cfi_def_cfa_offset 8
	ret				/* +70002: CFA = SP + 8 */
	.cfi_endproc
	.size	sf_asm_huge, . - sf_asm_huge

	.section .note.GNU-stack, "", @progbits
