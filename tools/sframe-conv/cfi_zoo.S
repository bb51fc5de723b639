/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CFI for the converter's tests (make sframe-conv-test): functions whose
 * .eh_frame uses every CFI instruction the .eh_frame reader takes
 * (the assembler's directives, the others written with .cfi_escape) and
 * some it must refuse, and the rules only SFrame V3's flexible and signal
 * FDEs say, for test_sfconv to check against libdwfl at every address.
 * The code is only nops (one a row): it is never run. cfi_raw.S has what
 * the assembler cannot write.
 */
	.text

	/* A frame pointer frame; returns between remembered states */
	.p2align 4
fp_frame:
	.cfi_startproc
	nop
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	nop
	.cfi_def_cfa_register %rbp
	nop
	.cfi_remember_state
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	nop
	.cfi_restore_state
	nop
	.cfi_remember_state
	.cfi_def_cfa %rsp, 8
	.cfi_same_value %rbp
	nop
	.cfi_remember_state
	.cfi_undefined %rbp
	nop
	.cfi_restore_state
	nop
	.cfi_restore_state
	nop
	.cfi_endproc

	/* The return address: outermost, saved elsewhere, restored */
	.p2align 4
ra_rules:
	.cfi_startproc
	nop
	.cfi_undefined %rip
	nop
	.cfi_restore %rip
	nop
	.cfi_offset %rip, -16
	nop
	.cfi_register %rip, %rax
	nop
	.cfi_same_value %rip
	nop
	.cfi_escape 0x06, 0x10			/* restore_extended rip */
	nop
	.cfi_escape 0x05, 0x10, 0x02		/* offset_extended rip, cfa-16 */
	nop
	.cfi_escape 0x11, 0x10, 0x01		/* offset_extended_sf rip, cfa-8 */
	nop
	.cfi_escape 0x14, 0x10, 0x01		/* val_offset rip */
	nop
	.cfi_escape 0x15, 0x10, 0x7f		/* val_offset_sf rip */
	nop
	.cfi_escape 0x16, 0x10, 0x02, 0x77, 0x00	/* val_expression rip: rsp */
	nop
	.cfi_escape 0x10, 0x10, 0x02, 0x77, 0x00	/* expression rip: [rsp] */
	nop
	.cfi_restore %rip
	nop
	.cfi_endproc

	/* FP: saved, at offset 0, undefined, in a register, computed */
	.p2align 4
fp_rules:
	.cfi_startproc
	nop
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	nop
	.cfi_offset %rbp, 0
	nop
	.cfi_rel_offset %rbp, 8
	nop
	.cfi_undefined %rbp
	nop
	.cfi_register %rbp, %rbx
	nop
	.cfi_val_offset %rbp, -16
	nop
	.cfi_escape 0x10, 0x06, 0x02, 0x77, 0x08	/* expression rbp: [rsp+8] */
	nop
	.cfi_escape 0x2f, 0x06, 0x02		/* GNU_negative_offset_extended rbp, cfa+16 */
	nop
	.cfi_escape 0x11, 0x06, 0x7d		/* offset_extended_sf rbp, cfa+24 */
	nop
	.cfi_escape 0x05, 0x06, 0x01		/* offset_extended rbp, cfa-8 */
	nop
	.cfi_same_value %rbp
	nop
	.cfi_offset %rbp, -16
	nop
	.cfi_escape 0x06, 0x06			/* restore_extended rbp */
	nop
	.cfi_endproc

	/* The CFA: other registers, factored offsets, too large, expressions */
	.p2align 4
cfa_rules:
	.cfi_startproc
	nop
	.cfi_def_cfa %rbx, 16
	nop
	.cfi_def_cfa %rsp, 24
	nop
	.cfi_escape 0x12, 0x07, 0x7e		/* def_cfa_sf rsp, 16 */
	nop
	.cfi_escape 0x13, 0x7d			/* def_cfa_offset_sf 24 */
	nop
	.cfi_escape 0x12, 0x06, 0x7f		/* def_cfa_sf rbp, 8 */
	nop
	.cfi_escape 0x0d, 0x07			/* def_cfa_register rsp */
	nop
	.cfi_escape 0x0e, 0x80, 0x80, 0x80, 0x80, 0x08	/* def_cfa_offset 2^31 */
	nop
	.cfi_escape 0x0c, 0x07, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01
	nop					/* def_cfa rsp, 2^63 */
	.cfi_escape 0x0f, 0x03, 0x77, 0x08, 0x06	/* def_cfa_expression [rsp+8] */
	nop
	.cfi_escape 0x0e, 0x10			/* def_cfa_offset: still an expression */
	nop
	.cfi_escape 0x0c, 0x07, 0x08		/* def_cfa rsp, 8 */
	nop
	.cfi_endproc

	/* Advances of every size, nops, zero advances, GNU_args_size */
	.p2align 4
advances:
	.cfi_startproc
	nop
	.cfi_adjust_cfa_offset 8
	.skip 100, 0x90
	.cfi_adjust_cfa_offset 8
	.skip 1000, 0x90
	.cfi_escape 0x00, 0x40, 0x2e, 0x10	/* nop, advance_loc 0, GNU_args_size */
	.cfi_adjust_cfa_offset -8
	.skip 70000, 0x90
	.cfi_adjust_cfa_offset -8
	nop
	.cfi_endproc

	/* Two PLT entries: the linkers' CFA expression */
	.p2align 4
plt:
	.cfi_startproc
	.cfi_escape 0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22
	.skip 32, 0x90
	.cfi_endproc

	/* The same, not 16-byte aligned: no PCMASK FDE then */
	.p2align 4
	.skip 8, 0x90
plt_misaligned:
	.cfi_startproc
	.cfi_escape 0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22
	.skip 16, 0x90
	.cfi_endproc

	/* A signal frame */
	.p2align 4
signal:
	.cfi_startproc
	.cfi_signal_frame
	nop
	.cfi_adjust_cfa_offset 8
	nop
	.cfi_endproc

	/*
	 * What only SFrame V3's flexible FDEs say (v2 leaves it out): a stack
	 * realigned through a DRAP register as gcc writes it (CFA = %r10, then
	 * *(%rbp - 8), FP = *(%rbp)), with the return address undefined at the
	 * end (an outermost row in a flexible FDE)
	 */
	.p2align 4
drap:
	.cfi_startproc
	nop					/* lea 8(%rsp), %r10 */
	.cfi_def_cfa %r10, 0
	nop					/* and $-32, %rsp; push -8(%r10) */
	nop					/* push %rbp */
	.cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00	/* expression rbp: [rbp] */
	nop					/* mov %rsp, %rbp; push %r10 */
	.cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06	/* def_cfa_expression [rbp-8] */
	nop
	.cfi_escape 0x0f, 0x05, 0x92, 0x0c, 0x90, 0x03, 0x06
	nop					/* def_cfa_expression [r12+400] (bregx) */
	.cfi_def_cfa %r10, 0
	.cfi_restore %rbp
	nop
	.cfi_undefined %rip
	nop
	.cfi_endproc

	/*
	 * ld.so's _dl_runtime_resolve*: the CFA in %rbx once the stack is
	 * realigned, FP saved; then offsets that need 2- and 4-byte words
	 */
	.p2align 4
cfa_rbx:
	.cfi_startproc
	nop
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -16
	nop
	.cfi_def_cfa_register %rbx
	nop
	.cfi_offset %rbp, -24
	nop
	.cfi_def_cfa %rbx, 1000
	nop
	.cfi_def_cfa %rbx, 100000
	.cfi_offset %rip, -100008
	nop
	.cfi_register %rip, %r11
	.cfi_register %rbp, %r15
	nop
	.cfi_endproc

	/*
	 * Rules of the caller's SP: only the CFA's is SFrame's (SP = CFA);
	 * longjmp's, in another register, is not
	 */
	.p2align 4
sp_rules:
	.cfi_startproc
	nop
	.cfi_def_cfa %rdi, 0
	.cfi_register %rsp, %r8
	.cfi_register %rip, %rdx
	nop
	.cfi_restore %rsp
	nop
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rip
	.cfi_escape 0x16, 0x07, 0x02, 0x77, 0x08	/* val_expression rsp: rsp+8 */
	nop
	.cfi_escape 0x16, 0x07, 0x02, 0x77, 0x10	/* val_expression rsp: rsp+16 */
	nop
	.cfi_endproc

	/* A signal trampoline as libc's __restore_rt: all from the sigcontext */
	.p2align 4
	nop					/* the FDE starts a byte early */
restore_rt:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_escape 0x0f, 0x04, 0x77, 0xa0, 0x01, 0x06	/* def_cfa_expression [rsp+160] */
	.cfi_escape 0x10, 0x06, 0x03, 0x77, 0xf8, 0x00	/* expression rbp: [rsp+120] */
	.cfi_escape 0x10, 0x07, 0x03, 0x77, 0xa0, 0x01	/* expression rsp: [rsp+160] */
	.cfi_escape 0x10, 0x10, 0x03, 0x77, 0xa8, 0x01	/* expression rip: [rsp+168] */
	nop
	nop
	.cfi_endproc

	/*
	 * Signal trampolines V3 cannot say all of: an FDE without FREs (a CFA
	 * expression it does not read; an instruction not understood)
	 */
	.p2align 4
signal_other:
	.cfi_startproc
	.cfi_signal_frame
	nop
	.cfi_escape 0x0f, 0x02, 0x77, 0x08	/* def_cfa_expression rsp+8: not loaded */
	nop
	.cfi_endproc

	.p2align 4
signal_error:
	.cfi_startproc
	.cfi_signal_frame
	nop
	.cfi_escape 0x2d			/* GNU_window_save (SPARC) */
	nop
	.cfi_endproc

	/* Instructions not understood, or wrong: the FDE is left out */
	.p2align 4
window_save:
	.cfi_startproc
	nop
	.cfi_escape 0x2d			/* GNU_window_save (SPARC) */
	nop
	.cfi_endproc

	.p2align 4
restore_unremembered:
	.cfi_startproc
	nop
	.cfi_escape 0x0b			/* restore_state */
	nop
	.cfi_endproc

	.p2align 4
deep_remember:
	.cfi_startproc
	nop
	.rept 33
	.cfi_remember_state
	.endr
	nop
	.cfi_endproc

	/* No code at all */
	.p2align 4
empty:
	.cfi_startproc
	.cfi_endproc
	nop
