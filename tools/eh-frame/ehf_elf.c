// SPDX-License-Identifier: GPL-2.0
/* An ELF file as a process would map it, for the reader's user-space tests */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ehf_elf.h"

int ehf_image_open(struct ehf_image *img, const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	struct stat st;
	void *p;
	int fd, i;

	memset(img, 0, sizeof(*img));
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return -1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror(path);
		return -1;
	}
	img->file = p;
	img->file_size = st.st_size;
	eh = p;
	if ((size_t)st.st_size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > (size_t)st.st_size) {
		fprintf(stderr, "%s: not a 64-bit ELF file\n", path);
		return -1;
	}
	ph = (const Elf64_Phdr *)(img->file + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_GNU_EH_FRAME) {
			img->hdr = ph[i].p_vaddr;
			img->hdr_size = ph[i].p_memsz;
		}
		if (ph[i].p_type != PT_LOAD || img->nsegs == EHF_MAX_SEGS ||
		    ph[i].p_offset + ph[i].p_filesz > img->file_size)
			continue;
		img->segs[img->nsegs++] = (struct ehf_seg){
			.vaddr = ph[i].p_vaddr, .size = ph[i].p_filesz,
			.data = img->file + ph[i].p_offset };
	}
	for (i = 0; i < img->nsegs; i++)
		if (img->hdr >= img->segs[i].vaddr &&
		    img->hdr < img->segs[i].vaddr + img->segs[i].size) {
			img->lo = img->segs[i].vaddr;
			img->hi = img->segs[i].vaddr + img->segs[i].size;
		}
	if (!img->hdr || !img->hi) {
		fprintf(stderr, "%s: no PT_GNU_EH_FRAME in a PT_LOAD\n", path);
		return -1;
	}
	return 0;
}

void ehf_image_close(struct ehf_image *img)
{
	if (img->file)
		munmap((void *)img->file, img->file_size);
	img->file = NULL;
}

int ehf_image_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	struct ehf_image *img = ctx;
	int i;

	img->reads++;
	for (i = 0; i < img->nsegs; i++) {
		const struct ehf_seg *s = &img->segs[i];

		if (addr >= s->vaddr && addr - s->vaddr <= s->size &&
		    len <= s->size - (addr - s->vaddr)) {
			memcpy(dst, s->data + (addr - s->vaddr), len);
			return 0;
		}
	}
	return -EFAULT;
}
