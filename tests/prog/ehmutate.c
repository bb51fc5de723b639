// SPDX-License-Identifier: GPL-2.0
/*
 * Write a copy of an x86-64 ELF object with its unwind tables made hostile,
 * for the fuzz of the kernel's .eh_frame reader (tests/cases/ehframe-fuzz.sh).
 * Only .eh_frame_hdr (PT_GNU_EH_FRAME) and .eh_frame change, so the copy
 * runs as the original does; the kernel reads those bytes from the process's
 * memory when it unwinds the object's frames.
 * Usage: ehmutate IN OUT SEED
 * SEED picks one mutation and its randomness; the mutation is printed:
 *   hdr-bytes      random bytes of .eh_frame_hdr
 *   hdr-count      the table's entry count huge
 *   hdr-unsorted   two table entries' locations swapped
 *   hdr-outside    a table entry's FDE offset pointing outside the mapping
 *   hdr-enc        the header's encodings changed
 *   cfi-bytes      random bytes of .eh_frame
 *   cfi-ops        a run of random CFA opcodes over an FDE's instructions
 *   cfi-leb        a run of 0x80 bytes (endless LEB128) in .eh_frame
 *   cfi-length     an FDE's or CIE's length zero, huge or 64-bit
 *   cfi-cie-loop   an FDE's CIE pointer pointing at the FDE itself
 *   cfi-expr       DW_CFA_def_cfa_expression with random expression bytes
 * Exits 0, or 1 with a message on stderr.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *img;
static size_t size;
static unsigned long long rnd_state;

static unsigned int rnd(void)
{
	/* xorshift64*: the same mutations for the same seed everywhere */
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return (unsigned int)((rnd_state * 2685821657736338717ULL) >> 32);
}

static void die(const char *what)
{
	fprintf(stderr, "ehmutate: %s\n", what);
	exit(1);
}

static uint32_t get32(size_t off)
{
	uint32_t v;

	memcpy(&v, img + off, 4);
	return v;
}

static void put32(size_t off, uint32_t v)
{
	memcpy(img + off, &v, 4);
}

/* The FDE (or CIE, @cie) records of .eh_frame at [@off, @end): a random one */
static size_t pick_record(size_t off, size_t end, int cie)
{
	size_t recs[4096], n = 0;

	while (off + 8 <= end && n < 4096) {
		uint32_t len = get32(off);

		if (!len || len == 0xffffffff || off + 4 + len > end)
			break;
		if ((get32(off + 4) == 0) == cie)
			recs[n++] = off;
		off += 4 + len;
	}
	if (!n)
		die("no record of that kind in .eh_frame");
	return recs[rnd() % n];
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"hdr-bytes", "hdr-count", "hdr-unsorted", "hdr-outside", "hdr-enc",
		"cfi-bytes", "cfi-ops", "cfi-leb", "cfi-length", "cfi-cie-loop", "cfi-expr",
	};
	size_t hdr = 0, hdr_size = 0, eh = 0, eh_size = 0, i, n, off;
	Elf64_Ehdr *eh64;
	Elf64_Shdr *sh;
	const char *strtab;
	unsigned int kind;
	uint32_t count;
	FILE *f;

	if (argc != 4)
		die("usage: ehmutate IN OUT SEED");
	rnd_state = strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ULL + 1;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		die("cannot read the input");
	img = malloc(size);
	if (!img || fread(img, 1, size, f) != size)
		die("cannot read the input");
	fclose(f);

	eh64 = (Elf64_Ehdr *)img;
	if (size < sizeof(*eh64) || memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64 ||
	    eh64->e_shoff > size || (size - eh64->e_shoff) / sizeof(*sh) < eh64->e_shnum ||
	    eh64->e_shstrndx >= eh64->e_shnum)
		die("not a 64-bit ELF object with section headers");
	sh = (Elf64_Shdr *)(img + eh64->e_shoff);
	if (sh[eh64->e_shstrndx].sh_offset > size ||
	    sh[eh64->e_shstrndx].sh_size > size - sh[eh64->e_shstrndx].sh_offset)
		die("section names outside the file");
	strtab = (const char *)img + sh[eh64->e_shstrndx].sh_offset;
	for (i = 0; i < eh64->e_shnum; i++) {
		const char *name = strtab + sh[i].sh_name;

		if (sh[i].sh_name >= sh[eh64->e_shstrndx].sh_size ||
		    !memchr(name, 0, sh[eh64->e_shstrndx].sh_size - sh[i].sh_name))
			continue;

		if (!strcmp(name, ".eh_frame_hdr")) {
			hdr = sh[i].sh_offset;
			hdr_size = sh[i].sh_size;
		} else if (!strcmp(name, ".eh_frame")) {
			eh = sh[i].sh_offset;
			eh_size = sh[i].sh_size;
		}
	}
	if (!hdr || hdr_size < 12 || !eh || eh_size < 16 || hdr + hdr_size > size || eh + eh_size > size)
		die("no .eh_frame_hdr and .eh_frame");
	/* version 1, pcrel|sdata4 eh_frame_ptr, udata4 count, datarel|sdata4 table */
	count = get32(hdr + 8);
	if (img[hdr] != 1 || img[hdr + 2] != 0x03 || img[hdr + 3] != 0x3b ||
	    12 + (size_t)count * 8 > hdr_size || count < 2)
		die("an .eh_frame_hdr of another layout");

	kind = rnd() % (sizeof(names) / sizeof(names[0]));
	switch (kind) {
	case 0:
		for (n = 1 + rnd() % 8; n--;)
			img[hdr + rnd() % hdr_size] = rnd();
		break;
	case 1:
		put32(hdr + 8, rnd() % 2 ? 0xffffffff : 0x7fffffff - rnd() % 1000);
		break;
	case 2:
		i = rnd() % count;
		n = rnd() % count;
		off = get32(hdr + 12 + i * 8);
		put32(hdr + 12 + i * 8, get32(hdr + 12 + n * 8));
		put32(hdr + 12 + n * 8, off);
		break;
	case 3:
		put32(hdr + 12 + (rnd() % count) * 8 + 4, rnd() % 2 ? 0x7ffffff0 : 0x80000000 + rnd());
		break;
	case 4:
		img[hdr + 1 + rnd() % 3] = rnd();
		break;
	case 5:
		for (n = 1 + rnd() % 16; n--;)
			img[eh + rnd() % eh_size] = rnd();
		break;
	case 6:
		/* after the FDE's length, CIE pointer, start and size (pcrel sdata4) */
		off = pick_record(eh, eh + eh_size, 0) + 17;
		for (n = 4 + rnd() % 24; n-- && off < eh + eh_size;)
			img[off++] = rnd();
		break;
	case 7:
		off = eh + rnd() % eh_size;
		for (n = 8 + rnd() % 24; n-- && off < eh + eh_size;)
			img[off++] = 0x80;
		break;
	case 8:
		off = pick_record(eh, eh + eh_size, rnd() % 2);
		put32(off, rnd() % 3 == 0 ? 0 : rnd() % 2 ? 0xffffffff : 0x7ffffff0);
		break;
	case 9:
		off = pick_record(eh, eh + eh_size, 0);
		put32(off + 4, 4);	/* the CIE is 4 bytes back from this field: the length */
		break;
	case 10:
		/* DW_CFA_def_cfa_expression, a length, random DW_OP bytes */
		off = pick_record(eh, eh + eh_size, 0) + 17;
		if (off + 3 < eh + eh_size) {
			img[off++] = 0x0f;
			img[off++] = n = 1 + rnd() % 16;
			while (n-- && off < eh + eh_size)
				img[off++] = rnd() % 2 ? 0x06 + rnd() % 0x9a : rnd();
		}
		break;
	}
	printf("%s\n", names[kind]);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(img, 1, size, f) != size || fclose(f))
		die("cannot write the output");
	return 0;
}
