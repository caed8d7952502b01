#!/bin/sh
# Tests of `xrlm report` in a real browser (Debian's chromium, headless):
#   report_test.sh XRLM GEN_MERGED CASE ARTEFACT_DIR
# The page is loaded from file://; its script marks <html> with
# data-xrlm-ready="N" once every chart is drawn (data-xrlm-error on a
# failure) and each chart's div with data-xrlm-drawn="WxH". Screenshots are
# kept in ARTEFACT_DIR. Each case exits non-zero with a line saying why.
set -u
xrlm=$1
gen=$2
case_name=$3
artefacts=$4

work=$(mktemp -d "${TMPDIR:-/tmp}/xrlm-report-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$artefacts"

fail() {
	echo "FAIL ($case_name): $*" >&2
	for f in out err dom.err shot.err; do
		[ -s "$work/$f" ] && { echo "--- $f" >&2; grep -v dbus "$work/$f" | tail -n 20 >&2; }
	done
	exit 1
}

command -v chromium >/dev/null || fail "chromium is not installed (scripts/setup-debian)"

# chromium ARGS... URL: headless, no network, no profile left behind
chromium_run() {
	timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile" --enable-logging=stderr --v=0 "$@"
}

report() { # report NAME GEN_ARGS...: generates $work/frames-merged-NAME.csv and its page
	name=$1
	shift
	"$gen" "$work/frames-merged-$name.csv" "$@" || fail "generator failed"
	"$xrlm" report "$work/frames-merged-$name.csv" >"$work/out" 2>"$work/err" || fail "xrlm report failed"
	page="$work/frames-merged-$name.html"
	[ -s "$page" ] || fail "no page written"
}

# load [#HASH]: dumps the page's DOM after its scripts ran into $work/dom.html
load() {
	chromium_run --dump-dom "file://$page${1:-}" >"$work/dom.html" 2>"$work/dom.err"
	[ -s "$work/dom.html" ] || fail "chromium dumped nothing"
}

# check_console: no uncaught error, no CSP violation, no failed load
check_console() {
	if grep -E "CONSOLE.*(Uncaught|Error|Refused|violat)|Failed to load" "$work/dom.err"; then
		fail "console errors"
	fi
}

# check_drawn MIN: the page says it is ready with at least MIN charts,
# and at least MIN chart divs carry a canvas of non-zero size.
check_drawn() {
	html=$(grep -o '<html[^>]*>' "$work/dom.html" | head -n 1)
	echo "$html" | grep -q 'data-xrlm-error' && fail "page error: $html"
	n=$(echo "$html" | sed -n 's/.*data-xrlm-ready="\([0-9]*\)".*/\1/p')
	[ -n "$n" ] || fail "page never became ready: $html"
	[ "$n" -ge "$1" ] || fail "$n charts, expected at least $1"
	drawn=$(grep -o 'data-xrlm-drawn="[1-9][0-9]*x[1-9][0-9]*"' "$work/dom.html" | wc -l)
	[ "$drawn" -ge "$1" ] || fail "$drawn charts drawn with a non-zero canvas, expected $1"
}

screenshot() { # screenshot NAME: keeps a 1400x1000 screenshot as an artefact
	chromium_run --screenshot="$artefacts/$1.png" --window-size=1400,1000 "file://$page" \
		>/dev/null 2>"$work/shot.err"
	[ -s "$artefacts/$1.png" ] || fail "no screenshot"
}

case "$case_name" in
basic)
	report basic --frames 20000 --phases --functions "$work/functions-merged-basic.csv"
	grep -q "^wrote $page\$" "$work/out" || fail "output path not printed"
	# Nothing is fetched: no URL is loaded from the page's markup.
	grep -aEq '<(script|link|img|iframe)[^>]* (src|href)=' "$page" && fail "the page loads another file"
	grep -aq "Content-Security-Policy\" content=\"default-src 'none'" "$page" || fail "no CSP"
	load "#selftest"
	check_console
	# 3 frame charts + phases + app timeline + 3 x (histogram, CDF)
	check_drawn 11
	# The overview has 2 x 1200 points (min and max per bucket) and still
	# shows the largest spike; a zoom to frames 1000-1100 shows every frame
	# of 900-1200 (the view and one view's width either side) exactly.
	grep -q 'data-xrlm-selftest="overview=2400 max=true zoom=301 exact=true range=1000-1100"' \
		"$work/dom.html" || fail "decimation self-test: $(grep -o 'data-xrlm-selftest="[^"]*"' "$work/dom.html")"
	# Elements, not text: the page's script (in the DOM too) holds these words.
	for text in "<h2>Per phase</h2>" "<h2>Per function ([^<]*/functions-merged-basic.csv)</h2>" \
		'<td class="name">xrAcquireSwapchainImage</td>' '<td class="name">target_locate_views_us</td>' \
		"<h1>xrlm report: XR_APILAYER_test_target</h1>" '<td class="name">llvmpipe (synthetic)</td>' \
		"histogram ([0-9]* frames above"; do
		grep -q "$text" "$work/dom.html" || fail "'$text' missing from the page"
	done
	screenshot report-basic
	;;
plain)
	# A file without phase columns, GPU values or functions file.
	report plain --frames 500 --no-gpu
	load
	check_console
	check_drawn 4
	grep -q "<h2>Frame by frame</h2>" "$work/dom.html" || fail "no frame charts"
	grep -q "<h2>Per phase</h2>" "$work/dom.html" && fail "a phase section without phase columns"
	grep -q "<h2>Per function" "$work/dom.html" && fail "a function section without a functions file"
	;;
empty)
	report empty --frames 0
	load
	check_console
	check_drawn 0
	grep -q "frames-merged-empty.csv — 0 frames" "$work/dom.html" || fail "frame count not shown"
	grep -q "<h2>Frame by frame</h2>" "$work/dom.html" && fail "charts for no frames"
	;;
hostile)
	report hostile --frames 3000 --phases --functions "$work/functions-merged-hostile.csv" --hostile
	# The escaping itself (not only the CSP): no session string can close
	# the data element or open a script.
	grep -aq "<script>document.title" "$page" && fail "a session string reached the markup unescaped"
	grep -a 'id="xrlm-data"' "$page" | grep -aq "$(printf '\342\200\250')" &&
		fail "U+2028 written raw into the data block"
	load
	check_console
	check_drawn 11
	grep -q "<title>PWNED" "$work/dom.html" && fail "an injected script ran (document.title changed)"
	# Shown as text: the target layer (title and table), the marker, the
	# extra column's and the function's names.
	n=$(grep -o "&lt;/script&gt;&lt;script&gt;document.title='PWNED'" "$work/dom.html" | wc -l)
	[ "$n" -ge 5 ] || fail "the hostile names are shown as text $n times, expected 5 or more"
	screenshot report-hostile
	;;
million)
	# 10^6 frames: the page must load and draw; the time is printed for
	# bench/RESULTS.md (the bound here only catches a broken page).
	report million --frames 1000000
	size=$(stat -c %s "$page")
	start=$(date +%s%N)
	chromium_run --screenshot="$artefacts/report-million.png" --window-size=1400,1000 \
		"file://$page" >/dev/null 2>"$work/dom.err"
	end=$(date +%s%N)
	check_console
	line=$(grep -o "xrlm report ready: [0-9]* charts, 1000000 frames, [0-9]* ms" "$work/dom.err")
	[ -n "$line" ] || fail "the page never became ready"
	ms=$(echo "$line" | sed 's/.* \([0-9]*\) ms$/\1/')
	echo "10^6 frames: page $size bytes; $line; chromium run $(((end - start) / 1000000)) ms"
	[ "$ms" -le 60000 ] || fail "ready after $ms ms (bound 60000)"
	;;
bad_input)
	"$xrlm" report >"$work/out" 2>"$work/err"
	[ $? -eq 2 ] || fail "no file: not status 2"
	"$xrlm" report "$work/missing.csv" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "missing file: not status 1"
	grep -q "missing.csv: error: cannot open" "$work/err" || fail "missing file message"
	"$gen" "$work/frames-merged-x.csv" --frames 10 || fail "generator failed"
	"$xrlm" report "$work/frames-merged-x.csv" --functions "$work/none.csv" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "missing --functions file: not status 1"
	# A functions file is checked as xrlm stats checks it: --functions with
	# another file (a per-side frames file) is refused, no page; a sibling
	# functions-merged-<tag>.csv that is not one costs its table, with the
	# same one line.
	printf '# fn=xrEndFrame\ndisplay_time,thread_id,t_entry,t_exit\n1000,7,1100,1200\n' \
		>"$work/frames-x-pre.csv"
	"$xrlm" report "$work/frames-merged-x.csv" --functions "$work/frames-x-pre.csv" -o "$work/f.html" \
		>"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "--functions with a frames file: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "frames-x-pre.csv:2: error: wrong column header: column 1 is \"display_time\", expected \"fn\"" "$work/err" ||
		fail "--functions with a frames file: $(cat "$work/err")"
	[ ! -e "$work/f.html" ] || fail "a page with a frames file as its functions"
	printf 'fn,phase,calls\nxrLocateViews,locate_views,5\n' >"$work/functions-merged-x.csv"
	"$xrlm" report "$work/frames-merged-x.csv" -o "$work/g.html" >"$work/out" 2>"$work/err"
	[ $? -eq 0 ] || fail "a sibling that is no functions file: not status 0"
	[ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "functions-merged-x.csv:1: error: wrong column header: only 3 columns" "$work/err" ||
		fail "a sibling that is no functions file: $(cat "$work/err")"
	grep -q xrLocateViews "$work/g.html" && fail "a sibling that is no functions file shown as one"
	# --no-functions: the sibling is not read at all.
	"$xrlm" report "$work/frames-merged-x.csv" --no-functions -o "$work/g.html" >"$work/out" 2>"$work/err"
	[ $? -eq 0 ] && [ ! -s "$work/err" ] || fail "--no-functions: the sibling was read: $(cat "$work/err")"
	rm "$work/functions-merged-x.csv"
	# A CSV with no merged column (a per-side frames file): refused, no page.
	printf 'display_time,thread_id,t_entry,t_exit\n1000,7,1100,1200\n' >"$work/frames-x-pre.csv"
	"$xrlm" report "$work/frames-x-pre.csv" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "a per-side file: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "frames-x-pre.csv: error: not a merged file" "$work/err" ||
		fail "a per-side file: $(cat "$work/err")"
	[ ! -e "$work/frames-x-pre.html" ] || fail "a page for a per-side file"
	# A column named twice: refused, not the first one shown.
	sed -E '/^display_time/s/,pre_us,/,target_us,/' "$work/frames-merged-x.csv" >"$work/dup.csv"
	"$xrlm" report "$work/dup.csv" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "a column named twice: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "dup.csv:[0-9]*: error: column 6 has the name of column 4" "$work/err" ||
		fail "a column named twice: $(cat "$work/err")"
	[ ! -e "$work/dup.html" ] || fail "a page for a file with a column named twice"
	"$xrlm" report "$work/frames-merged-x.csv" -o "$work/nodir/x.html" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "unwritable output: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "nodir/x.html: error: cannot create a temporary file: No such file or directory$" "$work/err" ||
		fail "unwritable output: $(cat "$work/err")"
	"$xrlm" report "$work/frames-merged-x.csv" -o "$work/x.html" >"$work/out" 2>"$work/err" ||
		fail "-o failed"
	[ -s "$work/x.html" ] || fail "-o file not written"
	ls "$work" | grep -q tmp && fail "temporary file left behind"
	# Made again, the page replaces the user's own file, and nothing else:
	# not a link (nor what it points at), a FIFO, a device, another user's file.
	"$xrlm" report "$work/frames-merged-x.csv" -o "$work/x.html" >"$work/out" 2>"$work/err" ||
		fail "the user's own page was not replaced"
	echo victim >"$work/victim"
	ln -s "$work/victim" "$work/link.html"
	mkfifo "$work/fifo.html"
	# A device node of our own (as /dev/null would be, which a regression
	# must not get to replace): root only.
	dev=
	mknod "$work/null.html" c 1 3 2>/dev/null && dev=$work/null.html
	for o in "$work/link.html" "$work/fifo.html" $dev; do
		"$xrlm" report "$work/frames-merged-x.csv" -o "$o" >"$work/out" 2>"$work/err"
		[ $? -eq 1 ] || fail "-o $o: not status 1"
		[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "$o: error: exists and is not a regular file of this user" "$work/err" ||
			fail "-o $o: $(cat "$work/err")"
	done
	[ -z "$dev" ] || [ -c "$dev" ] || fail "a device node was replaced"
	[ -L "$work/link.html" ] && [ -p "$work/fifo.html" ] && [ "$(cat "$work/victim")" = victim ] ||
		fail "a link, a FIFO or its target was touched"
	if [ "$(id -u)" -eq 0 ]; then
		chown nobody "$work/x.html"
		"$xrlm" report "$work/frames-merged-x.csv" -o "$work/x.html" >"$work/out" 2>"$work/err"
		[ $? -eq 1 ] && [ "$(stat -c %U "$work/x.html")" = nobody ] || fail "another user's file was replaced"
	fi
	# Past a file size limit: one line, no file, no temporary file.
	(ulimit -f 16 && exec "$xrlm" report "$work/frames-merged-x.csv" -o "$work/big.html") \
		>"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "past ulimit -f: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "big.html: error: cannot write: File too large" "$work/err" ||
		fail "past ulimit -f: $(cat "$work/err")"
	ls -a "$work" | grep -q "tmp\|big.html" && fail "a file left behind past ulimit -f"
	# A stray '"' mid-file: an error at its line, not a garbled row at the end.
	sed '/^display_time,/{n;n;s/,/,"/}' "$work/frames-merged-x.csv" >"$work/quote.csv"
	line=$(grep -n '"' "$work/quote.csv" | cut -d: -f1)
	"$xrlm" report "$work/quote.csv" >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] || fail "stray quote: not status 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "quote.csv:$line: error: a field opened by '\"'" "$work/err" ||
		fail "stray quote at line $line: $(cat "$work/err")"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
