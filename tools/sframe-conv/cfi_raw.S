/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CFI written byte by byte, for what the assembler's directives cannot
 * write (see cfi_zoo.S): a CIE with a code alignment factor of 4 and no
 * rule for the return address, DW_CFA_set_loc and the advances with
 * operands larger than needed.
 */
	.text
	.p2align 4
raw:
	.skip 64, 0x90
raw_end:

	.section .eh_frame, "a", @progbits
cie:
	.long cie_end - cie_id
cie_id:
	.long 0			/* a CIE */
	.byte 1			/* version */
	.asciz "zR"
	.uleb128 4		/* code alignment factor */
	.sleb128 -8		/* data alignment factor */
	.byte 16		/* return address column */
	.uleb128 1		/* augmentation data: */
	.byte 0x1b		/* FDE addresses pcrel|sdata4 */
	.byte 0x0c, 7, 8	/* def_cfa rsp, 8 */
	.balign 8, 0
cie_end:

fde:
	.long fde_end - fde_cie
fde_cie:
	.long fde_cie - cie	/* the CIE */
	.long raw - .		/* code start */
	.long raw_end - raw	/* code size */
	.uleb128 0		/* no augmentation data */
	.byte 0x41		/* advance_loc 4: no rule for the return address */
	.byte 0x90, 1		/* offset rip, cfa-8 */
	.byte 0x02, 1		/* advance_loc1 4 */
	.byte 0x0e, 16		/* def_cfa_offset 16 */
	.byte 0x03, 1, 0	/* advance_loc2 4 */
	.byte 0x86, 2		/* offset rbp, cfa-16 */
	.byte 0x04, 1, 0, 0, 0	/* advance_loc4 4 */
	.byte 0xd0		/* restore rip: no rule again */
	.byte 0x01		/* set_loc raw + 24 */
	.long raw + 24 - .
	.byte 0x90, 1		/* offset rip, cfa-8 */
	.byte 0x0a		/* remember_state */
	.byte 0x0c, 6, 16	/* def_cfa rbp, 16 */
	.byte 0x42		/* advance_loc 8 */
	.byte 0x0b		/* restore_state */
	.byte 0x41		/* advance_loc 4 */
	.byte 0x07, 6		/* undefined rbp */
	.byte 0x41		/* advance_loc 4 */
	.byte 0xc6		/* restore rbp */
	.balign 8, 0
fde_end:
