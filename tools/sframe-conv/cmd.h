/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of sframe-conv (main.c; attach.c: sections attached to
 * files) and what they share. Their usage is sframe-conv.1.
 */
#ifndef CMD_H
#define CMD_H

#include <stdbool.h>
#include "sfconv.h"

/**
 * struct cmd_args - a command's options and operands
 * @version: -2, -3 (convert)
 * @out: -o OUT (convert)
 * @scn: -S NAME (convert)
 * @dir: -d DIR, else the default cache directory (cache, attach, system)
 * @all: --all (detach)
 * @files: the operands
 * @nfiles: how many
 */
struct cmd_args {
	int version;
	const char *out;
	const char *scn;
	const char *dir;
	bool all;
	char **files;
	int nfiles;
};

/* Print the synopsis of command @cmd (NULL: all) on stderr and exit 2 */
void __attribute__((noreturn)) usage(const char *cmd);

/* Open @file as an ELF object; NULL (with a message) if it cannot be read */
Elf *open_elf(const char *file, int *fd);

/* attach.c */
int cmd_attach(struct cmd_args *a);
int cmd_detach(struct cmd_args *a);
int cmd_system(struct cmd_args *a);

#endif /* CMD_H */
