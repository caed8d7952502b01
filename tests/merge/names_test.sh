#!/bin/sh
# Hostile file names in xrlm's messages and listings:
#   names_test.sh XRLM DATA_DIR CASE
# A file or directory name may hold an escape sequence or a line end.
# Copied raw to a terminal it would recolour it, retitle it or fake a line
# of its own; xrlm shows such a name escaped (\033, \n, \r: quote.h). Each
# case checks that no control byte but the line ends reaches stdout or
# stderr, that every message is one line starting with "xrlm: ", and that
# the names read in their escaped form. Each exits non-zero with a line
# saying why.
set -u
xrlm=$1
data=$2
case_name=$3

. "$(dirname "$0")/cli_lib.sh"

esc=$(printf '\033')
cr=$(printf '\r')
bel=$(printf '\007')
nl=$(printf '\nx')
nl=${nl%x}
# A colour, a window title and a line that says what it likes: each
# name below holds one, and a raw line end or carriage return.
red="${esc}[31m"
title="${esc}]0;pwned${bel}"
fake="${nl}xrlm: all good${cr}"

# clean: nothing in $work/out or $work/err holds a control byte but '\n'
# (a tab neither: the tables are padded with spaces).
clean() {
	for f in "$work/out" "$work/err"; do
		! LC_ALL=C tr -d '\n' <"$f" | LC_ALL=C grep -aq '[[:cntrl:]]' ||
			fail "a raw control byte in $(basename "$f"): $(od -c "$f" | head -20)"
	done
}

# clean_c1: nor a C1 control, in UTF-8 or as a bare byte (the cases below
# hold no other bytes 0x80 to 0x9f): CSI to many terminals, as ESC [ is.
clean_c1() {
	for f in "$work/out" "$work/err"; do
		! LC_ALL=C grep -aq "$(printf '[\200-\237]')" "$f" ||
			fail "a raw C1 control in $(basename "$f"): $(od -c "$f" | head -20)"
	done
}

# messages N: stderr is N lines, each one "xrlm: " message
messages() {
	[ "$(wc -l <"$work/err")" -eq "$1" ] || fail "expected $1 line(s) on stderr"
	[ "$(grep -vc '^xrlm: ' "$work/err")" -eq 0 ] || fail "a stderr line not starting with 'xrlm: '"
}

# shows FILE TEXT: FILE ($work/out or $work/err) holds TEXT literally
shows() {
	grep -qF -- "$2" "$1" || fail "$(basename "$1") does not show '$2'"
}

# hostile_dir: directory $d, its name holding a title and a fake line,
# with a good session $t and one whose pre file is malformed, $b.
hostile_dir() {
	d="$work/d${title}${fake}"
	mkdir "$d"
	t=999999001-20261101T100000 b=999999002-20261101T110000
	cp "$data/frames-s1-pre.csv" "$d/frames-$t-pre.csv"
	cp "$data/frames-s1-post.csv" "$d/frames-$t-post.csv"
	cp "$data/bad-row-pre.csv" "$d/frames-$b-pre.csv"
	cp "$data/frames-s1-post.csv" "$d/frames-$b-post.csv"
}

case "$case_name" in
merge_files)
	# Missing files with hostile names: one line naming the first, escaped.
	run merge "$work/pre${red}${fake}.csv" "$work/post${title}.csv" -o "$work/m${red}${nl}.csv"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1"
	clean
	messages 1
	shows "$work/err" 'pre\033[31m\nxrlm: all good\r.csv: error: cannot open'
	# The same files there: merged; "wrote" names the output escaped.
	cp "$data/frames-s1-pre.csv" "$work/pre${red}${fake}.csv"
	cp "$data/frames-s1-post.csv" "$work/post${title}.csv"
	run merge "$work/pre${red}${fake}.csv" "$work/post${title}.csv" -o "$work/m${red}${nl}.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	clean
	shows "$work/out" 'm\033[31m\n.csv'
	[ -e "$work/m${red}${nl}.csv" ] || fail "the output is not at the name given"
	# Written again: refused, one line.
	run merge "$work/pre${red}${fake}.csv" "$work/post${title}.csv" -o "$work/m${red}${nl}.csv"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1"
	clean
	messages 1
	shows "$work/err" 'm\033[31m\n.csv: error: already exists'
	# A usage error names its argument escaped too.
	run merge "$work/a.csv" "$work/b.csv" "$work/c${fake}"
	[ "$rc" -eq 2 ] || fail "status $rc, expected 2"
	clean
	messages 1
	shows "$work/err" 'unexpected argument: '
	;;
stats_bad)
	# A malformed file with a hostile name: its line-numbered error.
	cp "$data/bad-row-pre.csv" "$work/bad${red}${fake}.csv"
	run stats "$work/bad${red}${fake}.csv"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1"
	clean
	messages 1
	shows "$work/err" 'bad\033[31m\nxrlm: all good\r.csv:'
	# A name with a backslash and an escape: the backslash doubled, so
	# that "\033" typed in a name cannot pass for an ESC.
	cp "$data/bad-row-pre.csv" "$work/b\\033${esc}.csv"
	run stats "$work/b\\033${esc}.csv"
	clean
	messages 1
	shows "$work/err" 'b\\033\033.csv:'
	;;
ls_dir)
	# A directory with a hostile name: its sessions listed, its bad file
	# named on one escaped line, the listing's lines all clean.
	hostile_dir
	# Files of no session, whose names hold the same: not listed, not shown.
	cp "$data/frames-s1-pre.csv" "$d/frames-1${red}-pre.csv"
	: >"$d/x${fake}"
	run ls "$d"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1 (a malformed file)"
	clean
	messages 1
	shows "$work/err" 'd\033]0;pwned\007\nxrlm: all good\r/frames-'
	[ "$(wc -l <"$work/out")" -eq 3 ] || fail "expected a header and two sessions"
	grep -q "^$t .*not merged" "$work/out" || fail "the good session not listed"
	# An empty one, and one that is not there.
	mkdir "$work/e${red}${nl}"
	run ls "$work/e${red}${nl}"
	[ "$rc" -eq 0 ] || fail "status $rc"
	clean
	[ "$(wc -l <"$work/out")" -eq 1 ] || fail "'no sessions' is not one line"
	shows "$work/out" 'e\033[31m\n'
	run ls "$work/gone${fake}"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1"
	clean
	messages 1
	shows "$work/err" 'gone\nxrlm: all good\r: error: cannot open the directory'
	;;
merge_dir)
	# merge DIR on a hostile directory: one clean line per session.
	hostile_dir
	run merge "$d"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1 (a malformed file)"
	clean
	messages 1
	[ "$(wc -l <"$work/out")" -eq 1 ] || fail "expected one line on stdout"
	shows "$work/out" "$t: merged 3 frames into $work/d"
	shows "$work/out" 'd\033]0;pwned\007\nxrlm: all good\r/frames-merged-'
	[ -e "$d/frames-merged-$t.csv" ] || fail "not merged"
	rm "$d/frames-$b-pre.csv"
	run merge "$d"
	clean
	shows "$work/out" 'nothing to merge in '
	;;
compare)
	# compare names both files on its report's first lines; a bad one on
	# its one error line.
	cp "$data/merged-v2-s1.csv" "$work/a${red}${fake}.csv"
	run compare "$work/a${red}${fake}.csv" "$work/a${red}${fake}.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	clean
	shows "$work/out" 'A: '"$work"'/a\033[31m\nxrlm: all good\r.csv ('
	run compare "$work/a${red}${fake}.csv" "$work/missing${title}.csv"
	[ "$rc" -eq 2 ] || fail "status $rc, expected 2"
	clean
	messages 1
	shows "$work/err" 'missing\033]0;pwned\007.csv: error: cannot open'
	printf 'a,b\n1,2\n' >"$work/j${fake}.csv"
	run compare "$work/a${red}${fake}.csv" "$work/j${fake}.csv"
	clean
	messages 1
	shows "$work/err" 'j\nxrlm: all good\r.csv: error: not a merged file'
	;;
trace)
	# A session's tag is any name's middle: a hostile one, one side only.
	cp "$data/frames-s1-pre.csv" "$work/frames-t${red}${nl}-pre.csv"
	run trace "$work"
	[ "$rc" -eq 1 ] || fail "status $rc, expected 1"
	clean
	messages 1
	shows "$work/err" 'session t\033[31m\n has no post file: '
	;;
file_text)
	# A file's own text in a table (a function's name, a merged file's
	# frame count in xrlm ls) shows each control as '?', C1 ones too.
	t=999999001-20261101T100000
	for k in frames calls; do
		for side in pre post; do cp "$data/$k-s1-$side.csv" "$work/$k-$t-$side.csv"; done
	done
	run merge "$work/frames-$t-pre.csv" "$work/frames-$t-post.csv"
	[ "$rc" -eq 0 ] || fail "merge: status $rc"
	f="$work/functions-merged-$t.csv"
	sed "s/^xrWaitFrame,/xrWait$(printf '\302\233')2J$(printf '\233')3JFrame,/" "$f" >"$work/f" && mv "$work/f" "$f"
	run stats "$work/frames-merged-$t.csv" --all
	clean
	clean_c1
	shows "$work/out" 'xrWait?2J?3JFrame'
	mkdir "$work/l"
	sed "s/^# frame_count=/&$(printf '\302\233')2J/" "$work/frames-merged-$t.csv" >"$work/l/frames-merged-$t.csv"
	run ls "$work/l"
	clean
	clean_c1
	shows "$work/out" 'merged, ?2J'
	;;
ctl)
	# What a process sends over the control socket is shown as names are:
	# a raw ESC, U+009B and a bare 0x9b byte C-escaped, an escaped
	# backslash doubled; in values, in a key, in an ERR text.
	server hostile
	csi='\302\2332J'
	run ctl status "$srv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	clean
	clean_c1
	shows "$work/out" "A${csi}B"
	shows "$work/out" 'T\033[31m'
	shows "$work/out" 's\2332J'
	shows "$work/out" "/tmp/o${csi}"'\\x\033'
	shows "$work/out" 'k\033[31mey'
	run ctl list
	clean
	clean_c1
	shows "$work/out" "A${csi}B"
	run ctl start "$srv"
	[ "$rc" -eq 0 ] || fail "start: status $rc"
	clean
	clean_c1
	shows "$work/out" "session s${csi}; "'\033[31mended'"${csi}"
	run ctl stop "$srv"
	[ "$rc" -eq 0 ] || fail "stop: status $rc"
	clean
	clean_c1
	shows "$work/out" "merged CSV: /tmp/o${csi}/frames-merged-s.csv"
	run ctl mark "$srv" note
	[ "$rc" -eq 1 ] || fail "mark: status $rc, expected 1"
	clean
	clean_c1
	messages 1
	shows "$work/err" "no such request "'\033[31m'"${csi}"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
