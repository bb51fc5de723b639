#!/bin/bash
# Print "ADDED CHANGED" for one commit of $BASE's tree (scripts/base.sh): the lines it adds, and the lines
# it changes (added + removed) outside tests (tools/testing, tools/perf/tests, tests).
# The one count of a patch's size: churn.sh and series-check.sh use it.
# Usage: patch-lines.sh COMMIT
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
git -C "$base_tree" show --format= --numstat "${1:?usage: patch-lines.sh COMMIT}" |
	awk '{ a += $1 } $3 !~ /^(tools\/testing|tools\/perf\/tests|tests)\// { p += $1 + $2 }
	END { print a + 0, p + 0 }'
