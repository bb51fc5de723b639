/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the cache of converted sections is keyed by, read from an x86-64 ELF
 * object without libelf or libdw (and without libc: libsframe-audit.so uses
 * it on the objects the dynamic linker mapped): its text range, GNU build
 * ID, whether it has SFrame of its own, and its .eh_frame's address, size
 * and hash. The converter (sfload.c) computes the key of a file with the
 * same code, so both agree on what a cache file is for.
 */
#ifndef SFELF_H
#define SFELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		0x6474e554
#endif

/**
 * struct sfelf - an ELF object to read
 * @eh: its ELF header
 * @ph: its program headers (@eh->e_phnum of them)
 * @sh: its section headers (@shnum of them), or NULL if not known
 * @shnum: their number
 * @shstr: the section names (@shstr_size bytes), or NULL
 * @shstr_size: their size
 * @file: the object's file, @file_size bytes (or the vDSO's image); if
 *	NULL, the object as loaded with @bias: the byte at address V of the
 *	object is at @bias + V; only what its PT_LOAD segments hold in the file
 *	(p_filesz) is read then, of readable ones only
 * @file_size: its size
 * @bias: the load bias of an object read in memory
 */
struct sfelf {
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	const Elf64_Shdr *sh;
	unsigned int shnum;
	const char *shstr;
	size_t shstr_size;
	const uint8_t *file;
	size_t file_size;
	uintptr_t bias;
};

/**
 * struct sfconv_cfi_id - what a conversion's result depends on, with the
 * text range: the object's .eh_frame, from where .eh_frame_hdr points to the
 * end of the segment holding it (what is in memory; usually .eh_frame and
 * .gcc_except_table); without .eh_frame_hdr (or if it points nowhere), the
 * section .eh_frame
 * @eh_frame_vaddr: its address
 * @eh_frame_size: its size
 * @eh_frame_hash: a 64-bit hash of its bytes (not a cryptographic one)
 */
struct sfconv_cfi_id {
	uint64_t eh_frame_vaddr;
	uint64_t eh_frame_size;
	uint64_t eh_frame_hash;
};

/* Is @eh the header of a 64-bit little-endian x86-64 ELF object? */
int sfelf_check_header(const Elf64_Ehdr *eh);

/*
 * @e for a file (or a whole image, the vDSO's) of @size bytes at @image:
 * 0, or -EINVAL if it is not one to read (the section headers are left out
 * if they are not in it)
 */
int sfelf_from_file(struct sfelf *e, const void *image, size_t size);

/* Text range: the first executable PT_LOAD (as the kernel's): 0 or -ENOENT */
int sfelf_text_range(const struct sfelf *e, uint64_t *vaddr, uint64_t *size);

/* Has the object an SFrame section of its own (PT_GNU_SFRAME)? */
int sfelf_has_sframe(const struct sfelf *e);

/* The GNU build ID (PT_NOTE) as a hex string: 0, or -ENOENT if none */
int sfelf_build_id(const struct sfelf *e, char *buf, size_t len);

/*
 * Identify the CFI (its hash only if @hash, else 0): 0, -ENOENT if there
 * is no .eh_frame, -EINVAL. Without .eh_frame_hdr, the section headers are
 * needed (@e->sh).
 */
int sfelf_cfi_id(const struct sfelf *e, struct sfconv_cfi_id *id, int hash);

/*
 * Size of an ELF object mapped whole in memory (the vDSO): up to the end of
 * its last segment or of its section headers. 0 if it is not a 64-bit ELF
 * object.
 */
size_t sfconv_elf_image_size(const void *image);

#endif /* SFELF_H */
