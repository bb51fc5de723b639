# Sourced by the scripts: the kernel base they work on, from $BASE (default 6.12).
#   base_pkg      Debian's source package (linux-source-X.Y)
#   base_tar      its tarball, once fetched
#   base_tree     the working tree (a git repository, tag "base" = the pristine source)
#   base_patches  the series directory (its "series" file lists the patches of the
#                 postable series; "harness.series" those of the test harness, applied
#                 on top: the test interface the guest tests use, never posted)
#   base_sfx      the suffix of this base's outputs under build/ (kernel-FLAVOUR$sfx, ...)
#   base_perf     make variables its perf is built with (array)
# 6.12 is installed on the host by scripts/deps.sh; 7.3 is fetched by
# scripts/source-7.3.sh into build/apt-7.3/ (the host's APT configuration is not used).
# shellcheck shell=bash disable=SC2034,SC2154 # sets what the sourcing script uses; top is its own
BASE=${BASE:-6.12}
case $BASE in
6.12)
	base_pkg=linux-source-6.12
	base_tar=/usr/src/linux-source-6.12.tar.xz
	base_tree=$top/build/linux
	base_patches=$top/patches
	base_sfx=
	base_perf=() ;;
7.3)
	base_pkg=linux-source-7.3
	base_tar=$top/build/apt-7.3/usr/src/linux-source-7.3.tar.xz
	base_tree=$top/build/linux-7.3
	base_patches=$top/patches-7.3
	base_sfx=-7.3
	# the rustc here aborts on 7.3's Rust test workload of perf
	base_perf=(NO_RUST=1) ;;
*)
	echo "BASE=$BASE: the bases are 6.12 and 7.3" >&2
	exit 2 ;;
esac
export BASE

# base_series_list [FILE...]: the patches FILEs list (default: series harness.series), in order
base_series_list() {
	local f files=("$@")
	[ $# -gt 0 ] || files=(series harness.series)
	for f in "${files[@]}"; do
		[ ! -f "$base_patches/$f" ] || grep -v '^#' "$base_patches/$f" | sed '/^$/d'
	done
}
# base_series_end: the commit of the tree that ends the postable series (the series file;
# the harness's commits follow it)
base_series_end() {
	local c
	c=$(git -C "$base_tree" rev-list --reverse base..HEAD | sed -n "$(base_series_list series | wc -l)p")
	[ -n "$c" ] || { echo "$base_tree has fewer commits than the series (make tree)" >&2; return 1; }
	echo "$c"
}

# base_mainline SCRIPT ARG...: run SCRIPT again on the base as it is, none of the series
# (the flavour "mainline": 7.3 as it is, for comparison): the tree's tag "base" checked
# out in a worktree ($base_tree-base), mounted over the tree in a mount namespace of its
# own (root), so that ccache entries of the tree's own builds serve it (the sources'
# path is part of what ccache hashes); without mount namespaces, KERNEL_TREE names the
# worktree and the script goes on. The re-run has KERNEL_TREE set.
base_mainline() {
	local wt=$base_tree-base
	[ -e "$wt/.git" ] || git -C "$base_tree" worktree add -q --detach "$wt" base
	git -C "$wt" checkout -q -f --detach base
	if unshare -m true 2>/dev/null; then
		exec unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
			"$wt" "$base_tree" env KERNEL_TREE="$base_tree" "$@"
	fi
	export KERNEL_TREE=$wt
}

# base_perf_dir FLAVOUR: the perf build of this base that FLAVOUR's guests run
# (build/perf$base_sfx; for "mainline", the base's own perf: build/perf-mainline$base_sfx)
base_perf_dir() {
	echo "$top/build/perf$([ "$1" != mainline ] || echo -mainline)$base_sfx"
}

# check_outdir FLAVOUR: where make check keeps the results of FLAVOUR (build/check-FLAVOUR
# with the base's suffix; host: build/check-host, one for both bases)
check_outdir() {
	if [ "$1" = host ]; then echo "$top/build/check-host"; else echo "$top/build/check-$1$base_sfx"; fi
}

# flavour_vm FLAVOUR: the guest settings of a kernel flavour: VM_MACHINE and VM_NO_LA57
# exported for scripts/vm.sh, flavour_timeout (seconds) for a run of the whole suite.
# The debug kernel (kmemleak on) boots on q35: on pc (i440fx) ACPI's _PRT builds the PCI
# interrupt routing in an AML loop that, at kmemleak's cost per allocation under TCG,
# runs past ACPICA's 30 s loop timeout, and virtio gets no interrupt (boot hang); q35's
# _PRT is a static table. It runs without 5-level paging (KASAN at boot of 7.3:
# scripts/vm.sh). The time-outs are about 1.5x each guest's run on a slow machine (the
# default runs perf test, tests/cases/perf-test.sh; the debug kernel is slower): a guest
# that hangs still ends inside CI's 90 minutes.
flavour_vm() {
	case $1 in
	debug) VM_MACHINE=q35 VM_NO_LA57=1 flavour_timeout=3300 ;;
	*) VM_MACHINE=pc VM_NO_LA57= flavour_timeout=2400 ;;
	esac
	export VM_MACHINE VM_NO_LA57
}
