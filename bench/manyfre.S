/* SPDX-License-Identifier: GPL-2.0 */
/*
 * long manyfre_big(depth, calls, nr, a1, a2, a3): one function with about
 * 2 * MANYFRE_PAIRS FREs in its .sframe (push/pop pairs, each instruction
 * changing the CFA), that recurses DEPTH times, from one call site, and then
 * makes CALLS system calls NR(a1, a2, a3).
 *
 * Assembled with -Wa,--gsframe. bench/manyfre: 100000 pairs, a 1.2 MB
 * .sframe; the guest test sframe-index (tests/prog/sframe/sfbig) uses fewer.
 */
#ifndef MANYFRE_PAIRS
#define MANYFRE_PAIRS 100000
#endif
	.text
	.globl	manyfre_big
	.type	manyfre_big, @function
manyfre_big:
	.cfi_startproc
	.rept	MANYFRE_PAIRS
	push	%rbx
	.cfi_adjust_cfa_offset 8
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.endr
	test	%rdi, %rdi
	jz	2f
	dec	%rdi
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	manyfre_big
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
2:	push	%rbx
	.cfi_adjust_cfa_offset 8
	mov	%rsi, %rbx		/* calls */
	mov	%rdx, %r10		/* nr: the system call keeps r10 */
	mov	%rcx, %rdi
	mov	%r8, %rsi
	mov	%r9, %rdx
3:	mov	%r10, %rax
	syscall
	dec	%rbx
	jnz	3b
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	manyfre_big, .-manyfre_big

	.section .note.GNU-stack, "", @progbits
