/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A placeholder for an SFrame section the converter writes (bench.mk: the
 * -sfv3 and -sfv2 workloads): SFRAME_PH_SIZE zero bytes, which sframe-ph.ld
 * makes the output's .sframe, filled later (objcopy --update-section)
 */
	.section .sframe_ph, "a", @progbits
	.balign 8
	.skip SFRAME_PH_SIZE, 0
	.section .note.GNU-stack, "", @progbits
