#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a test run's output (tests/run.sh) is KTAP that the kernel's own parser
reads without an error, and that its counts are those of the run's closing line.

Usage: ktap-check.py KUNIT_DIR FILE
  KUNIT_DIR  tools/testing/kunit of a kernel tree (kunit_parser.py)
  FILE       the output of tests/run.sh
Exit status 0 if the output parses and agrees, 1 otherwise (the reason on stdout).
"""
import inspect
import io
import re
import sys


def main():
	if len(sys.argv) != 3:
		print(__doc__.strip(), file=sys.stderr)
		return 2
	sys.path.insert(0, sys.argv[1])
	import kunit_parser
	import kunit_printer

	with open(sys.argv[2], errors='replace') as f:
		lines = f.read().splitlines()
	totals = [m for m in (re.fullmatch(r'(\d+) passed, (\d+) failed, (\d+) skipped', l)
			      for l in lines) if m]
	if not totals:
		print('no closing "N passed, N failed, N skipped" line')
		return 1
	want = tuple(int(x) for x in totals[-1].groups())
	# a run that selected no test: the empty plan, which the parser calls an error
	if want == (0, 0, 0) and 'KTAP version 1' in lines and '1..0' in lines:
		print('KTAP: no tests (plan 1..0)')
		return 0
	# the parser prints its own report: keep it for a failure. Its interface differs
	# between kernels: since 6.16 the printer is an argument (Printer(output=...)),
	# before it the module's stdout printer.
	report = io.StringIO()
	if 'printer' in inspect.signature(kunit_parser.parse_run_tests).parameters:
		test = kunit_parser.parse_run_tests(lines, kunit_printer.Printer(output=report))
	else:
		kunit_printer.stdout._output = report
		test = kunit_parser.parse_run_tests(lines)
	c = test.counts
	got = (c.passed, c.failed + c.crashed, c.skipped)
	if test.status == kunit_parser.TestStatus.FAILURE_TO_PARSE_TESTS or c.errors:
		print(f'{c.errors} parse errors:')
		print(report.getvalue())
		return 1
	if got != want:
		print(f'parsed passed/failed/skipped {got}, the closing line says {want}')
		return 1
	print(f'KTAP: {c.passed} passed, {c.failed} failed, {c.skipped} skipped')
	return 0


if __name__ == '__main__':
	sys.exit(main())
