#!/bin/bash
# An interactive shell in a guest on the built kernel of FLAVOUR (default: default), as
# virtme-ng's vng gives: the host's root read-only, the repository writable at its own
# path, this base's perf first in PATH, TOP, BASE, PERF and BIN set for the tests (run
# one with `TESTS=regexp sh $TOP/tests/run.sh` or `sh $TOP/tests/cases/NAME.sh`), a
# scratch directory to start in. `exit` (or Ctrl-A X) powers the guest off.
# Usage: [BASE=7.3] shell.sh [FLAVOUR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
f=${1:-default}
kernel=$top/build/kernel-$f$base_sfx/arch/x86/boot/bzImage
[ -f "$kernel" ] || { echo "shell: no $kernel: make kernel (or make check) first" >&2; exit 1; }
flavour_vm "$f"
perf=$(base_perf_dir "$f")
echo "shell: $f kernel of $BASE; the console is this terminal, exit powers the guest off" >&2
exec "$top/scripts/vm.sh" -s -k "$kernel" -o "$top/build/shell$base_sfx" -- \
	env TOP="$top" BASE="$BASE" FLAVOUR="$f" PERF="$perf/perf" BIN="$top/build/tests" \
	GUEST_OUT=/tmp/guest-out PATH="$perf:/usr/sbin:/usr/bin:/sbin:/bin" \
	PS1="guest-$f$base_sfx:\\w# " bash --norc -i
