/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sfconv: SFrame sections from the DWARF CFI (.eh_frame) of x86-64 ELF
 * objects that were not built with SFrame, and their hand-over to the
 * kernel (PR_REGISTER_SFRAME).
 *
 * The CIEs and FDEs are read with elfutils' libdw (dwarf_next_cfi()), and
 * each FDE's CFI program is run once by the converter's own interpreter.
 */
#ifndef SFCONV_H
#define SFCONV_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/* Why a row of the CFI table does not fit SFrame */
enum sfconv_why {
	SFCONV_CFA,		/* CFA not SP or FP plus an offset */
	SFCONV_RA,		/* return address not saved at CFA - 8 */
	SFCONV_FP,		/* FP neither unchanged nor saved at CFA + offset */
	SFCONV_SIGNAL,		/* signal frame */
	SFCONV_OVERLAP,		/* the FDE overlaps another one */
	SFCONV_ERROR,		/* the FDE's CFI program is not understood */
	SFCONV_NR_WHY
};

extern const char *const sfconv_why_name[SFCONV_NR_WHY];

/**
 * struct sfconv_stats - what a conversion found
 * @fdes: FDEs describing code in the text range
 * @full: FDEs whose every row fits SFrame: converted whole
 * @partial: FDEs converted in part (the rows that fit, as separate ranges)
 * @empty: FDEs of no code (not in @fdes)
 * @outside: FDEs outside the text range (not in @fdes)
 * @rows: rows of the CFI tables of the @fdes
 * @unreadable: CIEs and FDEs that could not be read (not in @fdes)
 * @rows_out: rows left out, by reason (enum sfconv_why)
 * @cfi_insns: CFI instructions run (of the CIEs once, of each FDE once)
 * @sframe_fdes: SFrame FDEs written
 * @sframe_fres: SFrame FREs written
 * @size: size of the section
 */
struct sfconv_stats {
	unsigned int fdes;
	unsigned int full;
	unsigned int partial;
	unsigned int empty;
	unsigned int outside;
	unsigned int unreadable;
	unsigned int rows;
	unsigned int rows_out[SFCONV_NR_WHY];
	unsigned long cfi_insns;
	unsigned int sframe_fdes;
	unsigned int sframe_fres;
	size_t size;
};

/* Called for each row of the CFI table met (for tests): @why < 0 if it fits */
typedef void (*sfconv_row_fn)(void *ctx, uint64_t start, uint64_t end, int why);

/* Text range of an object: its first executable PT_LOAD (as the kernel's) */
int sfconv_text_range(Elf *elf, uint64_t *vaddr, uint64_t *size);

/*
 * Size of an ELF object mapped whole in memory (the vDSO), for
 * elf_memory(): up to the end of its last segment or of its section
 * headers. 0 if it is not a 64-bit ELF object.
 */
size_t sfconv_elf_image_size(const void *image);

/**
 * struct sfconv_cfi_id - what a conversion's result depends on, with the
 * text range: the object's .eh_frame
 * @eh_frame_vaddr: its address
 * @eh_frame_size: its size
 * @eh_frame_hash: a 64-bit hash of its bytes (not a cryptographic one)
 */
struct sfconv_cfi_id {
	uint64_t eh_frame_vaddr;
	uint64_t eh_frame_size;
	uint64_t eh_frame_hash;
};

/* Identify the CFI of @elf: 0, or -ENOENT if it has no .eh_frame */
int sfconv_cfi_id(Elf *elf, struct sfconv_cfi_id *id);

/* Has the object an SFrame section of its own (PT_GNU_SFRAME)? */
int sfconv_has_sframe(Elf *elf);

/*
 * Convert the CFI of @elf for the code at [text_vaddr, text_vaddr +
 * text_size) into an SFrame v2 section (malloc()ed, *@sframe, *@size)
 * whose function addresses are relative to the section placed at address
 * 0 of the object: see sfconv_relocate(). No section (*@sframe NULL, *@size
 * 0) if no row fits. Returns 0 or a negative errno value.
 */
int sfconv_convert(Elf *elf, uint64_t text_vaddr, uint64_t text_size,
		   void **sframe, size_t *size, struct sfconv_stats *st,
		   sfconv_row_fn row_fn, void *row_ctx);

/*
 * Make a section from sfconv_convert(), now at address @sframe_addr, describe
 * the object loaded with bias @bias: add @bias - @sframe_addr to every
 * function start. Returns 0, or -ERANGE if a start no longer fits 32 bits
 * (the section must be within 2 GiB of the code), -EINVAL if corrupt.
 */
int sfconv_relocate(void *sframe, size_t size, uint64_t bias, uint64_t sframe_addr);

/* The object's GNU build ID as a hex string; 0, or -ENOENT if it has none */
int sfconv_build_id(Elf *elf, char *buf, size_t len);

/* The PR_REGISTER_SFRAME interface (include/uapi/linux/prctl.h) */
#ifndef PR_REGISTER_SFRAME
#define PR_REGISTER_SFRAME	0x53465247	/* "SFRG" */
struct prctl_sframe {
	uint64_t sframe_start;
	uint64_t sframe_size;
	uint64_t text_start;
	uint64_t text_size;
	uint64_t flags;
};
#endif

/**
 * struct sfconv_loaded - a converted section mapped for an object
 * @map: the mapping holding it (a private copy of the cache file, or
 *	anonymous memory without a cache)
 * @map_len: its length
 * @sframe: the section, relocated for the object
 * @sframe_size: its size (0: nothing converted, nothing to register)
 * @text_start: the object's code, at run time
 * @text_size: its size
 * @cached: the section came from the cache
 * @cache_why: else why not (a static string), e.g. "no cache file"
 * @fdes: FDEs of the object (from the conversion, or the cache)
 * @converted: FDEs converted whole
 */
struct sfconv_loaded {
	void *map;
	size_t map_len;
	void *sframe;
	size_t sframe_size;
	uint64_t text_start;
	uint64_t text_size;
	int cached;
	const char *cache_why;
	unsigned int fdes;
	unsigned int converted;
};

/*
 * The cache directory: $SFRAME_CACHE_DIR, else $XDG_CACHE_HOME/sframe-conv,
 * else $HOME/.cache/sframe-conv (relative ones are not used). Returns 0,
 * -ENOENT for no cache (SFRAME_CACHE_DIR set to "", or no HOME), -EINVAL
 * if SFRAME_CACHE_DIR is relative, -ENAMETOOLONG.
 */
int sfconv_cache_dir(char *buf, size_t len);

/*
 * Get the section for @elf loaded with @bias: from the cache directory
 * @cache_dir (NULL: none) by build ID, if the file there is the user's and
 * was made from the same CFI, else converted (and then cached). It is
 * mapped near the code and relocated. Returns 0, or a negative errno value
 * (-EEXIST: the object has SFrame of its own).
 */
int sfconv_load(Elf *elf, uint64_t bias, const char *cache_dir,
		struct sfconv_loaded *out);

/* For tests: write cache files under a temporary name, not with O_TMPFILE */
extern int sfconv_cache_no_tmpfile;

/* Hand a loaded section to the kernel: 0, or a negative errno value */
int sfconv_register(const struct sfconv_loaded *l);

/* Unmap a loaded section */
void sfconv_unload(struct sfconv_loaded *l);

#endif /* SFCONV_H */
