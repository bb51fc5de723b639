// SPDX-License-Identifier: GPL-2.0
/* Minimal ELF64 reader for the SFrame tests. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sfelf.h"

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME 0x6474e554
#endif

static int read_file(const char *path, struct elf_image *img)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	img->size = (size_t)len;
	img->data = malloc(img->size ? img->size : 1);
	if (!img->data || fread(img->data, 1, img->size, f) != img->size) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Is [off, off + len) inside the file? */
static int in_file(const struct elf_image *img, unsigned long off, unsigned long len)
{
	return off <= img->size && len <= img->size - off;
}

static const Elf64_Ehdr *ehdr(const struct elf_image *img)
{
	return (const Elf64_Ehdr *)img->data;
}

int elf_load(const char *path, struct elf_image *img, char *err, size_t errlen)
{
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	int i;

	memset(img, 0, sizeof(*img));
	if (read_file(path, img)) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	eh = ehdr(img);
	if (img->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
	    eh->e_phentsize != sizeof(*ph) ||
	    !in_file(img, eh->e_phoff, (unsigned long)eh->e_phnum * sizeof(*ph))) {
		snprintf(err, errlen, "%s: not a usable x86-64 ELF file", path);
		return -1;
	}
	ph = (const Elf64_Phdr *)(img->data + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) && !img->text_end) {
			img->text_start = ph[i].p_vaddr;
			img->text_end = ph[i].p_vaddr + ph[i].p_memsz;
		}
		if (ph[i].p_type == PT_GNU_SFRAME && in_file(img, ph[i].p_offset, ph[i].p_filesz)) {
			img->sframe = img->data + ph[i].p_offset;
			img->sframe_size = ph[i].p_filesz;
			img->sframe_addr = ph[i].p_vaddr;
		}
	}
	if (!img->sframe || !img->text_end) {
		snprintf(err, errlen, "%s: no PT_GNU_SFRAME or no executable PT_LOAD", path);
		return -1;
	}
	return 0;
}

void elf_free(struct elf_image *img)
{
	free(img->data);
	memset(img, 0, sizeof(*img));
}

void elf_for_each_func(const struct elf_image *img,
		       void (*fn)(void *arg, const char *name,
				  unsigned long addr, unsigned long size),
		       void *arg)
{
	const Elf64_Ehdr *eh = ehdr(img);
	const Elf64_Shdr *sh, *strtab;
	const Elf64_Sym *sym;
	unsigned long i, j, n;

	if (eh->e_shentsize != sizeof(*sh) ||
	    !in_file(img, eh->e_shoff, (unsigned long)eh->e_shnum * sizeof(*sh)))
		return;
	sh = (const Elf64_Shdr *)(img->data + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    !in_file(img, sh[i].sh_offset, sh[i].sh_size))
			continue;
		strtab = &sh[sh[i].sh_link];
		if (!in_file(img, strtab->sh_offset, strtab->sh_size) || !strtab->sh_size)
			continue;
		sym = (const Elf64_Sym *)(img->data + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		for (j = 0; j < n; j++) {
			const char *name;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_size ||
			    sym[j].st_shndx == SHN_UNDEF || sym[j].st_name >= strtab->sh_size)
				continue;
			name = (const char *)img->data + strtab->sh_offset + sym[j].st_name;
			if (!memchr(name, 0, strtab->sh_size - sym[j].st_name))
				continue;
			fn(arg, name, sym[j].st_value, sym[j].st_size);
		}
	}
}

struct find_arg {
	const char *name;
	unsigned long addr;
};

static void match_name(void *arg, const char *name, unsigned long addr, unsigned long size)
{
	struct find_arg *fa = arg;

	(void)size;
	if (!strcmp(name, fa->name))
		fa->addr = addr;
}

unsigned long elf_func_addr(const struct elf_image *img, const char *name)
{
	struct find_arg fa = { name, 0 };

	elf_for_each_func(img, match_name, &fa);
	return fa.addr;
}
