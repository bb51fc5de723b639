/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal ELF64 reader for the SFrame tests: the .sframe bytes and symbols. */
#ifndef SFELF_H
#define SFELF_H

#include <stddef.h>

struct elf_image {
	unsigned char *data;		/* the whole file */
	size_t size;
	const unsigned char *sframe;	/* PT_GNU_SFRAME contents, in data */
	size_t sframe_size;
	unsigned long sframe_addr;	/* its p_vaddr */
	unsigned long text_start;	/* the first executable PT_LOAD */
	unsigned long text_end;
};

/* Load @path; 0 on success, else -1 with a message in @err */
int elf_load(const char *path, struct elf_image *img, char *err, size_t errlen);
void elf_free(struct elf_image *img);

/* Call @fn for each defined STT_FUNC symbol of non-zero size in .symtab */
void elf_for_each_func(const struct elf_image *img,
		       void (*fn)(void *arg, const char *name,
				  unsigned long addr, unsigned long size),
		       void *arg);

/* Address of the function symbol @name; 0 if not found */
unsigned long elf_func_addr(const struct elf_image *img, const char *name);

#endif
