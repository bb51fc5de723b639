# SPDX-License-Identifier: GPL-2.0
# usage.h of sframe-conv from its manual page rendered as plain text
# (sframe-conv.mk): sfconv_synopsis, the SYNOPSIS lines; sfconv_help, what
# --help prints: the synopsis, COMMANDS and OPTIONS, indented 5 columns less.
function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\t\"" s "\\n\""
}
function flush(   i) {
	# a section's text without its trailing blank lines
	while (n && lines[n] == "")
		n--
	for (i = 1; i <= n; i++)
		help = help "\n" cstr(lines[i])
	n = 0
}
/^[A-Z][A-Z ]*[A-Z]$/ {
	flush()
	sec = $0
	if (sec == "COMMANDS" || sec == "OPTIONS") {
		lines[++n] = ""
		lines[++n] = substr(sec, 1, 1) tolower(substr(sec, 2)) ":"
	}
	next
}
sec == "SYNOPSIS" && /^ +sframe-conv / {
	sub(/^ +/, "")
	syn = syn "\n" cstr($0)
	lines[++n] = (nsyn++ ? "       " : "usage: ") $0
	next
}
sec == "COMMANDS" || sec == "OPTIONS" {
	sub(/^     /, "")
	lines[++n] = $0
}
END {
	flush()
	if (!nsyn || help !~ /Commands:/ || help !~ /Options:/) {
		print "man2usage.awk: no SYNOPSIS, COMMANDS or OPTIONS" > "/dev/stderr"
		exit 1
	}
	print "/* Made from sframe-conv.1 by man2usage.awk: do not edit */"
	print "static const char sfconv_synopsis[] =" syn ";"
	print "static const char sfconv_help[] =" help "\n" cstr("") "\n" \
		cstr("See sframe-conv(1) for the rest.") ";"
}
