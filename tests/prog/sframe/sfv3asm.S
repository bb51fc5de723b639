/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code for sfv3.c, described by a hand-built SFrame version 3 section: a
 * label at every FRE start. v3_outer(fd, buf, len) -> v3_mid -> v3_drap ->
 * v3_leaf, which writes buf to fd (the deferred unwind request); the
 * arguments pass through untouched. Stacks grow down, CFA = caller's SP.
 */
	.text
	.globl	v3_text_start
	.p2align 6
v3_text_start:

/* The outermost function: a default FDE without FREs */
	.globl	v3_outer, v3_outer_ret, v3_outer_end
v3_outer:
	sub	$8, %rsp
	call	v3_mid
v3_outer_ret:
	add	$8, %rsp
	ret
v3_outer_end:

/* A default FDE, SP based */
	.globl	v3_mid, v3_mid_1, v3_mid_2, v3_mid_ret, v3_mid_3, v3_mid_4, v3_mid_end
	.p2align 4
v3_mid:
	push	%rbx
v3_mid_1:				/* CFA = SP + 16 */
	sub	$16, %rsp
v3_mid_2:				/* CFA = SP + 32 */
	call	v3_drap
v3_mid_ret:
	add	$16, %rsp
v3_mid_3:				/* CFA = SP + 16 */
	pop	%rbx
v3_mid_4:				/* CFA = SP + 8 */
	ret
v3_mid_end:

/*
 * A flexible FDE: gcc's DRAP frame of a realigned stack. The CFA is in r10,
 * then (r10 being caller-saved) loaded from where it was pushed, below the
 * saved FP: CFA = *(FP - 8), FP = *(FP).
 */
	.globl	v3_drap, v3_drap_1, v3_drap_2, v3_drap_3, v3_drap_ret, v3_drap_4
	.globl	v3_drap_5, v3_drap_6, v3_drap_end
	.p2align 4
v3_drap:
	lea	8(%rsp), %r10
v3_drap_1:				/* CFA = r10 */
	and	$-32, %rsp
	push	-8(%r10)
	push	%rbp
	mov	%rsp, %rbp
v3_drap_2:				/* CFA = r10, FP = *(FP) */
	push	%r10
v3_drap_3:				/* CFA = *(FP - 8), FP = *(FP) */
	sub	$8, %rsp
	call	v3_leaf
v3_drap_ret:
	add	$8, %rsp
	pop	%r10
v3_drap_4:				/* CFA = r10, FP = *(FP) */
	pop	%rbp
v3_drap_5:				/* CFA = r10 */
	lea	-8(%r10), %rsp
v3_drap_6:				/* CFA = SP + 8 */
	ret
v3_drap_end:

/*
 * A flexible FDE: the CFA in r10 while the stack is realigned and FP holds
 * nothing; the caller's FP is saved at CFA - 16. The request is made there.
 */
	.globl	v3_leaf, v3_leaf_1, v3_leaf_2, v3_leaf_sys, v3_leaf_3, v3_leaf_4, v3_leaf_end
	.p2align 4
v3_leaf:
	push	%rbp
v3_leaf_1:				/* CFA = SP + 16, FP = *(CFA - 16) */
	lea	16(%rsp), %r10
v3_leaf_2:				/* CFA = r10, FP = *(CFA - 16) */
	and	$-64, %rsp
	xor	%ebp, %ebp
	mov	$1, %eax		/* write(fd, buf, len) */
	syscall
v3_leaf_sys:
	lea	-16(%r10), %rsp
v3_leaf_3:				/* CFA = SP + 16, FP = *(CFA - 16) */
	pop	%rbp
v3_leaf_4:				/* CFA = SP + 8 */
	ret
v3_leaf_end:

	.globl	v3_text_end
	.p2align 4
v3_text_end:
	.section .note.GNU-stack,"",@progbits
