/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sfconv: SFrame sections from the DWARF CFI (.eh_frame) of x86-64 ELF
 * objects that were not built with SFrame (sfconv.c: the CFI reader
 * cfi_read.c, the SFrame writer sframe_write.c), cached and handed to the
 * kernel (sframe_register()) by sfload.c with what sfcache.h and sfelf.h
 * declare (which libsframe-audit.so uses without libc and libdw).
 *
 * The CIEs and FDEs are decoded, and each FDE's CFI program run once, by
 * the kernel's .eh_frame reader (tools/eh-frame/kernel/unwind/).
 */
#ifndef SFCONV_H
#define SFCONV_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sfcache.h"
#include "sfelf.h"

/*
 * Why a row of the CFI table does not fit SFrame v2 (and a V3 default FDE);
 * the first four a V3 flexible FDE (or signal FDE) may still express
 */
enum sfconv_why {
	SFCONV_CFA,		/* CFA not SP or FP plus an offset */
	SFCONV_RA,		/* return address not saved at CFA - 8 */
	SFCONV_FP,		/* FP neither unchanged nor saved at CFA + offset */
	SFCONV_SIGNAL,		/* signal frame */
	SFCONV_SP,		/* the caller's SP is not the CFA */
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
 * @rows_v3: rows v2 cannot express, converted in V3 (flexible or signal
 *	FDEs), by reason (enum sfconv_why)
 * @outermost: rows converted with an undefined return address
 * @cfi_insns: CFI instructions run (each FDE's once, with its CIE's)
 * @sframe_fdes: SFrame FDEs written
 * @sframe_fres: SFrame FREs written
 * @flex_fdes: of the SFrame FDEs, flexible ones (V3)
 * @signal_fdes: of the SFrame FDEs, signal trampolines (V3)
 * @empty_signal: of those, with no FREs (CFI not translatable)
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
	unsigned int rows_v3[SFCONV_NR_WHY];
	unsigned int outermost;
	unsigned long cfi_insns;
	unsigned int sframe_fdes;
	unsigned int sframe_fres;
	unsigned int flex_fdes;
	unsigned int signal_fdes;
	unsigned int empty_signal;
	size_t size;
};

/**
 * struct sfconv_opts - what section to write
 * @version: SFrame version, 3 or 2 (SFCONV_VERSION_DEFAULT: 3 unless built
 *	otherwise)
 * @pcrel: function starts relative to where they are written
 *	(SFRAME_F_FDE_FUNC_START_PCREL), for the section at @sframe_vaddr
 *	(a link-time address of the object: a section in the ELF file);
 *	else offsets from the start of the text (SFRAME_SETUP_TEXT_RELATIVE)
 * @sframe_vaddr: see @pcrel
 */
struct sfconv_opts {
	int version;
	bool pcrel;
	uint64_t sframe_vaddr;
};

/*
 * Called for each row of the CFI table met (for tests): @why < 0 if it fits
 * the version written
 */
typedef void (*sfconv_row_fn)(void *ctx, uint64_t start, uint64_t end, int why);

/* Text range of an object: its first executable PT_LOAD (as the kernel's) */
int sfconv_text_range(Elf *elf, uint64_t *vaddr, uint64_t *size);

/* Identify the CFI of @elf: 0, or -ENOENT if it has no .eh_frame */
int sfconv_cfi_id(Elf *elf, struct sfconv_cfi_id *id);

/* Section @name of @elf (its header in *@sh), or NULL */
Elf_Scn *sfconv_section(Elf *elf, const char *name, GElf_Shdr *sh);

/* Has the object an SFrame section of its own (PT_GNU_SFRAME)? */
int sfconv_has_sframe(Elf *elf);

/*
 * Convert the CFI of @elf for the code at [text_vaddr, text_vaddr +
 * text_size) into an SFrame section (malloc()ed, *@sframe, *@size) as @opts
 * say (NULL: version 3, function starts as offsets from @text_vaddr, for
 * SFRAME_SETUP_TEXT_RELATIVE). No section (*@sframe NULL, *@size 0) if no row
 * fits. Returns 0 or a negative errno value.
 */
int sfconv_convert(Elf *elf, uint64_t text_vaddr, uint64_t text_size,
		   const struct sfconv_opts *opts, void **sframe, size_t *size, struct sfconv_stats *st,
		   sfconv_row_fn row_fn, void *row_ctx);

/* The object's GNU build ID (PT_NOTE) as a hex string; 0, or -ENOENT if it has none */
int sfconv_build_id(Elf *elf, char *buf, size_t len);

/*
 * The cache directory: $SFRAME_CACHE_DIR, else $XDG_CACHE_HOME/sframe-conv,
 * else $HOME/.cache/sframe-conv (relative ones are not used). Returns 0,
 * -ENOENT for no cache (SFRAME_CACHE_DIR set to "", or no HOME), -EINVAL
 * if SFRAME_CACHE_DIR is relative, -ENAMETOOLONG.
 */
int sfconv_cache_dir(char *buf, size_t len);

/*
 * Get the section for @elf (read from the file @objfd, -1 if not known)
 * loaded with @bias: from the cache directory @cache_dir (NULL: none) by
 * build ID, if the file there is the user's and was made from the same CFI,
 * else converted (and then cached, with the identity of @objfd). It is
 * mapped read-only (shared if cached). Returns 0, or a negative errno value
 * (-EEXIST: the object has SFrame of its own).
 */
int sfconv_load(Elf *elf, int objfd, uint64_t bias, const char *cache_dir,
		struct sfconv_loaded *out);

/* For tests: write cache files under a temporary name, not with O_TMPFILE */
extern int sfconv_cache_no_tmpfile;

/*
 * For tests: at most this many FREs in an SFrame FDE, more are split
 * (0: as many as the version can count, 65535 in V3)
 */
extern unsigned int sfconv_max_fres;

/*
 * For libsframe-audit.so on a cache miss (sframe-conv audit-fill): convert @elf
 * (read from the file @objfd, -1 for the vDSO) and write the cache file's
 * bytes to @out (a new file of the caller's), and if @dirfd >= 0 and the
 * object has a build ID, into the cache directory open at @dirfd as well.
 * 0 or a negative errno value.
 */
int sfconv_fill(Elf *elf, int objfd, int out, int dirfd);

/* The file behind @elf (or the image elf_memory() was given), for sfelf: 0 or -EINVAL */
int sfconv_elf_view(Elf *elf, struct sfelf *e);

#endif /* SFCONV_H */
