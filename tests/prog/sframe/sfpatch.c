// SPDX-License-Identifier: GPL-2.0
/*
 * Corrupt the .sframe section of an ELF file, for the guest tests.
 * Usage: sfpatch IN OUT VARIANT
 *   magic     wrong magic
 *   version   unknown version
 *   fdeoff    FDE array offset beyond the section
 *   freoff    every FDE's FRE offset beyond the FRE area
 *   fdestart  every FDE's function start replaced by garbage
 *   fres      FRE area filled with 0xff (invalid offset sizes)
 *   fregarb   FRE area filled with pseudo-random bytes
 * The section is found through the section headers; OUT keeps IN's mode.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void die(const char *msg)
{
	fprintf(stderr, "sfpatch: %s\n", msg);
	exit(1);
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

int main(int argc, char **argv)
{
	unsigned char *buf, *sf;
	const char *variant, *names;
	uint32_t num_fdes, fre_len, fdeoff, freoff, i, fde_size, hdr_end, seed = 12345;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	struct stat st;
	size_t size;
	FILE *f;

	if (argc != 4)
		die("usage: sfpatch IN OUT VARIANT");
	variant = argv[3];
	f = fopen(argv[1], "rb");
	if (!f || fstat(fileno(f), &st))
		die("cannot open input");
	size = st.st_size;
	buf = malloc(size);
	if (!buf || fread(buf, 1, size, f) != size)
		die("cannot read input");
	fclose(f);

	eh = (Elf64_Ehdr *)buf;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > size || eh->e_shstrndx >= eh->e_shnum)
		die("not a 64-bit ELF file with section headers");
	sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	names = (const char *)buf + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, ".sframe"))
			break;
	if (i == eh->e_shnum || sh[i].sh_offset + sh[i].sh_size > size || sh[i].sh_size < 28)
		die("no .sframe section");
	sf = buf + sh[i].sh_offset;

	/* The header: see the SFrame format description */
	fde_size = sf[2] == 1 ? 17 : 20;
	hdr_end = 28 + sf[7];
	num_fdes = get32(sf + 8);
	fre_len = get32(sf + 16);
	fdeoff = get32(sf + 20);
	freoff = get32(sf + 24);
	if ((uint64_t)hdr_end + fdeoff + (uint64_t)num_fdes * fde_size > sh[i].sh_size ||
	    (uint64_t)hdr_end + freoff + fre_len > sh[i].sh_size)
		die(".sframe header out of bounds already");

	if (!strcmp(variant, "magic")) {
		sf[0] ^= 0xff;
	} else if (!strcmp(variant, "version")) {
		sf[2] = 0x7f;
	} else if (!strcmp(variant, "fdeoff")) {
		put32(sf + 20, 0xfffffff0);
	} else if (!strcmp(variant, "freoff")) {
		for (i = 0; i < num_fdes; i++)
			put32(sf + hdr_end + fdeoff + i * fde_size + 8, 0xfffffff0 - i);
	} else if (!strcmp(variant, "fdestart")) {
		for (i = 0; i < num_fdes; i++)
			put32(sf + hdr_end + fdeoff + i * fde_size, 0x9e3779b9 * (i + 1));
	} else if (!strcmp(variant, "fres")) {
		memset(sf + hdr_end + freoff, 0xff, fre_len);
	} else if (!strcmp(variant, "fregarb")) {
		for (i = 0; i < fre_len; i++) {
			seed = seed * 1103515245 + 12345;
			sf[hdr_end + freoff + i] = seed >> 16;
		}
	} else {
		die("unknown variant");
	}

	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, size, f) != size || fclose(f))
		die("cannot write output");
	if (chmod(argv[2], st.st_mode & 07777))
		die("cannot chmod output");
	return 0;
}
