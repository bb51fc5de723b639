/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz input format, shared by fuzz_sframe.c and the seed writer in
 * test_sframe.c: an 8-byte prefix, then the section image.
 *   s32 text_off   text_start = FUZZ_SFRAME_BASE + text_off
 *   u32 text_len   text_end = text_start + text_len
 * Both little-endian.  The section is at FUZZ_SFRAME_BASE.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#define FUZZ_SFRAME_BASE	0x10000000UL
#define FUZZ_PREFIX_SIZE	8
#define FUZZ_MAX_LEN		65536

#endif
