// SPDX-License-Identifier: GPL-2.0
/*
 * The cache key of an ELF object (sfelf.h), without libelf, libdw or libc
 * (but memcpy(), memcmp()).
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include "sfelf.h"

int sfelf_check_header(const Elf64_Ehdr *eh)
{
	return !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_machine == EM_X86_64 &&
	       eh->e_phentsize == sizeof(Elf64_Phdr) &&
	       (!eh->e_shnum || eh->e_shentsize == sizeof(Elf64_Shdr));
}

/* Do @n bytes at @off fit in @size? */
static int within(uint64_t off, uint64_t n, uint64_t size)
{
	return off <= size && n <= size - off;
}

int sfelf_from_file(struct sfelf *e, const void *image, size_t size)
{
	const uint8_t *p = image;
	const Elf64_Ehdr *eh = image;
	const Elf64_Shdr *str;

	memset(e, 0, sizeof(*e));
	if (size < sizeof(*eh) || !sfelf_check_header(eh) ||
	    !within(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), size) ||
	    eh->e_phoff % 8)
		return -EINVAL;
	e->eh = eh;
	e->ph = (const Elf64_Phdr *)(p + eh->e_phoff);
	e->file = p;
	e->file_size = size;
	/* Section headers, if all there, with their names */
	if (!eh->e_shnum || eh->e_shoff % 8 || eh->e_shstrndx >= eh->e_shnum ||
	    !within(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size))
		return 0;
	str = (const Elf64_Shdr *)(p + eh->e_shoff) + eh->e_shstrndx;
	if (str->sh_type == SHT_NOBITS || !within(str->sh_offset, str->sh_size, size))
		return 0;
	e->sh = (const Elf64_Shdr *)(p + eh->e_shoff);
	e->shnum = eh->e_shnum;
	e->shstr = (const char *)p + str->sh_offset;
	e->shstr_size = str->sh_size;
	return 0;
}

/*
 * The @size bytes at address @vaddr of the object, if its file holds them
 * (in a PT_LOAD segment, readable if loaded); if @off is not NULL, they
 * must be those at file offset *@off. NULL if not.
 */
static const uint8_t *at(const struct sfelf *e, uint64_t vaddr, uint64_t size,
			 const uint64_t *off)
{
	unsigned int i;

	for (i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];
		uint64_t o;

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr ||
		    !within(vaddr - ph->p_vaddr, size, ph->p_filesz))
			continue;
		o = ph->p_offset + (vaddr - ph->p_vaddr);
		if (off && *off != o)
			return NULL;
		if (!e->file)
			return ph->p_flags & PF_R ? (const uint8_t *)(e->bias + vaddr) : NULL;
		return within(o, size, e->file_size) ? e->file + o : NULL;
	}
	return NULL;
}

/* The bytes of a segment (@ph) as in its file */
static const uint8_t *segment(const struct sfelf *e, const Elf64_Phdr *ph)
{
	if (!e->file)
		return at(e, ph->p_vaddr, ph->p_filesz, &ph->p_offset);
	return within(ph->p_offset, ph->p_filesz, e->file_size) ? e->file + ph->p_offset : NULL;
}

static const Elf64_Phdr *find_phdr(const struct sfelf *e, uint32_t type)
{
	unsigned int i;

	for (i = 0; i < e->eh->e_phnum; i++)
		if (e->ph[i].p_type == type)
			return &e->ph[i];
	return NULL;
}

int sfelf_text_range(const struct sfelf *e, uint64_t *vaddr, uint64_t *size)
{
	unsigned int i;

	for (i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && ph->p_memsz) {
			*vaddr = ph->p_vaddr;
			*size = ph->p_memsz;
			return 0;
		}
	}
	return -ENOENT;
}

int sfelf_has_sframe(const struct sfelf *e)
{
	return find_phdr(e, PT_GNU_SFRAME) != NULL;
}

int sfelf_build_id(const struct sfelf *e, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];
		const uint8_t *p = ph->p_type == PT_NOTE ? segment(e, ph) : NULL;
		uint64_t n = p ? ph->p_filesz : 0, off = 0;
		uint64_t align = ph->p_align == 8 ? 7 : 3;

		while (n - off >= sizeof(Elf64_Nhdr) && n - off <= n) {
			Elf64_Nhdr nh;
			uint64_t name, desc;
			size_t j;

			memcpy(&nh, p + off, sizeof(nh));
			name = off + sizeof(nh);
			desc = name + ((nh.n_namesz + align) & ~align);
			off = desc + ((nh.n_descsz + align) & ~align);
			if (off > n)
				break;
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp(p + name, "GNU", 4) || !nh.n_descsz)
				continue;
			if (nh.n_descsz * 2ULL + 1 > len)
				return -ENOENT;
			for (j = 0; j < nh.n_descsz; j++) {
				buf[2 * j] = hex[p[desc + j] >> 4];
				buf[2 * j + 1] = hex[p[desc + j] & 15];
			}
			buf[2 * j] = 0;
			return 0;
		}
	}
	return -ENOENT;
}

/* One step of a 64-bit hash: @w into @h */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

/*
 * A 64-bit hash of @n bytes at @p (not a cryptographic one): four lanes of
 * 8 bytes, so that their multiplications overlap (libc's 150 KB .eh_frame:
 * 15 us here)
 */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t lane[4] = { n, 1, 2, 3 }, h = 0, w;
	unsigned int i;

	for (; n >= sizeof(lane); p += sizeof(lane), n -= sizeof(lane)) {
		for (i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			lane[i] = mix(lane[i], w);
		}
	}
	for (i = 0; i < 4; i++)
		h = mix(h, lane[i]);
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = mix(h, w);
	}
	w = 0;
	memcpy(&w, p, n);
	return mix(h, w);
}

/* A little-endian value of @size bytes at @p */
static uint64_t get_le(const uint8_t *p, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * .eh_frame (and what follows it in its segment): where .eh_frame_hdr
 * (PT_GNU_EH_FRAME) points, up to the end of the segment holding it
 */
static int eh_frame_from_hdr(const struct sfelf *e, uint64_t *vaddr, const uint8_t **data,
			     uint64_t *size)
{
	const Elf64_Phdr *hdr = find_phdr(e, PT_GNU_EH_FRAME);
	const uint8_t *p = hdr ? segment(e, hdr) : NULL;
	uint64_t addr, v;
	unsigned int i, n;
	uint8_t enc;

	if (!hdr)
		return -ENOENT;
	if (!p || hdr->p_filesz < 4 || p[0] != 1)	/* version */
		return -EINVAL;
	enc = p[1];
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c:	/* absptr, udata8, sdata8 */
		n = 8;
		break;
	case 0x02: case 0x0a:			/* udata2, sdata2 */
		n = 2;
		break;
	case 0x03: case 0x0b:			/* udata4, sdata4 */
		n = 4;
		break;
	default:
		return -EINVAL;
	}
	if (hdr->p_filesz < 4 + n)
		return -EINVAL;
	v = get_le(p + 4, n);
	if ((enc & 0x0f) == 0x0a)
		v = (uint64_t)(int64_t)(int16_t)v;
	else if ((enc & 0x0f) == 0x0b)
		v = (uint64_t)(int64_t)(int32_t)v;
	switch (enc & 0x70) {
	case 0x00:		/* absolute */
		addr = v;
		break;
	case 0x10:		/* pc-relative */
		addr = v + hdr->p_vaddr + 4;
		break;
	case 0x30:		/* data-relative: to .eh_frame_hdr */
		addr = v + hdr->p_vaddr;
		break;
	default:
		return -EINVAL;
	}
	for (i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];

		if (ph->p_type != PT_LOAD || addr < ph->p_vaddr ||
		    addr - ph->p_vaddr >= ph->p_filesz)
			continue;
		*vaddr = addr;
		*size = ph->p_filesz - (addr - ph->p_vaddr);
		*data = at(e, addr, *size, NULL);
		return *data ? 0 : -EINVAL;
	}
	return -ENOENT;
}

int sfelf_cfi_id(const struct sfelf *e, struct sfconv_cfi_id *id, int hash)
{
	const uint8_t *data = NULL;
	uint64_t vaddr, size;
	unsigned int i;
	int ret;

	/* Where .eh_frame_hdr points: found in memory without the section headers */
	ret = eh_frame_from_hdr(e, &vaddr, &data, &size);
	for (i = 0; ret && e->sh && i < e->shnum; i++) {
		const Elf64_Shdr *sh = &e->sh[i];

		if (sh->sh_type == SHT_NOBITS || sh->sh_name >= e->shstr_size ||
		    e->shstr_size - sh->sh_name < sizeof(".eh_frame") ||
		    memcmp(e->shstr + sh->sh_name, ".eh_frame", sizeof(".eh_frame")))
			continue;
		vaddr = sh->sh_addr;
		size = sh->sh_size;
		if (!e->file)
			data = at(e, vaddr, size, &sh->sh_offset);
		else if (within(sh->sh_offset, size, e->file_size))
			data = e->file + sh->sh_offset;
		ret = data ? 0 : -EINVAL;
		break;
	}
	if (ret)
		return ret;
	id->eh_frame_vaddr = vaddr;
	id->eh_frame_size = size;
	id->eh_frame_hash = hash ? hash_bytes(data, size) : 0;
	return 0;
}

size_t sfconv_elf_image_size(const void *image)
{
	const Elf64_Ehdr *eh = image;
	const Elf64_Phdr *ph;
	size_t size, i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const Elf64_Phdr *)((const char *)image + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	return size;
}
