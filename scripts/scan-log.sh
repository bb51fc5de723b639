#!/bin/bash
# Print the kernel splats found in a guest console log; exit 1 if there is any, 2 if the
# log cannot be read (a missing console is no proof of a clean run).
# The one list of splat patterns: the guest tests use it too (tests/lib.sh splats).
# Usage: scan-log.sh [CONSOLE_LOG]   (without one, standard input: dmesg | scan-log.sh)
set -u
pat='WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault|Kernel panic'
pat+='|possible circular locking|possible recursive locking|inconsistent lock state'
pat+='|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|INFO: lockdep|lock held when returning'
pat+='|sleeping function called from invalid context|detected stall|self-detected stall'
pat+='|blocked for more than|soft lockup|hard LOCKUP|list_add corruption|list_del corruption'
pat+='|refcount_t:|Call Trace:|unreferenced object'
grep -nE "$pat" "${1:--}"
case $? in
0) exit 1 ;;
1) exit 0 ;;
*) echo "scan-log: cannot read ${1:-standard input}" >&2; exit 2 ;;
esac
