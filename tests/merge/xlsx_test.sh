#!/bin/sh
# Tests of `xrlm xlsx`: xlsx_test.sh XRLM DATA_DIR CASE GEN_SESSION
# The workbook is converted back to CSV by LibreOffice (headless, one
# conversion per case) and compared value by value with the merged CSV.
set -u
xrlm=$1
data=$2
case_name=$3
gen=$4

. "$(dirname "$0")/cli_lib.sh"

# export XLSX: every sheet to $work/csv/<name>-<Sheet>.csv (LibreOffice >= 7.2),
# raw values (not as shown), with a private profile so no user state is touched.
export_sheets() {
	mkdir -p "$work/csv" "$work/home"
	HOME=$work/home soffice -env:UserInstallation=file://"$work/lo-profile" --headless \
		--convert-to 'csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1' \
		--outdir "$work/csv" "$1" >"$work/soffice.log" 2>&1 ||
		fail "soffice failed: $(cat "$work/soffice.log")"
}

sheet() { # SHEET: the exported CSV of that sheet
	f=$(ls "$work"/csv/*-"$1".csv 2>/dev/null | head -n 1)
	[ -n "$f" ] || fail "no sheet '$1' in the workbook (have: $(ls "$work/csv"))"
	echo "$f"
}

# same EXPECTED GOT: the two CSV texts hold the same values, cell by cell.
# Integers (no '.') must match digit for digit (a double would round past
# 2^53); decimals within 1e-9 relative; "N%" as N; text and blanks exactly.
same() {
	awk -F, -v what="$3" '
	function num(s) { return s ~ /^-?[0-9]+(\.[0-9]*)?([Ee][-+]?[0-9]+)?%?$/ }
	function eq(a, b,   x, y, d) {
		if (a == b) return 1
		if (a !~ /\./ || !num(a) || !num(b)) return 0
		sub(/%$/, "", a); sub(/%$/, "", b)
		x = a + 0; y = b + 0; d = x - y; if (d < 0) d = -d
		return d <= 1e-9 * (x < 0 ? -x : x) + 1e-12
	}
	NR == FNR { want[FNR] = $0; n = FNR; next }
	{
		if (!(FNR in want)) { print what ": extra line " FNR ": " $0; bad = 1; exit }
		k = split(want[FNR], w, ","); m = split($0, g, ",")
		if (k != m) { print what ": line " FNR ": " m " cells, expected " k; bad = 1; exit }
		for (i = 1; i <= k; i++)
			if (!eq(w[i], g[i])) {
				print what ": line " FNR " cell " i ": \"" g[i] "\", expected \"" w[i] "\""
				bad = 1; exit
			}
		seen = FNR
	}
	END { if (!bad && seen != n) { print what ": " seen " lines, expected " n; bad = 1 } exit bad }
	' "$1" "$2" >"$work/diff" || fail "$(cat "$work/diff")"
}

summary_of() { sed -n 's/^# \([^=]*\)=/\1,/p' "$1"; }  # the summary as key,value lines
table_of() { grep -v '^#' "$1"; }                      # header and rows

# check_histogram CHARTS MERGED COL CHART_COL: every bin of the chart table
# (from, to, frames) holds exactly the merged file's values of column COL
# in [from, to) (the last, overflow, bin: >= from), and all of them.
check_histogram() {
	table_of "$2" | tail -n +2 | cut -d, -f"$3" | grep -v '^$' >"$work/values"
	tail -n +2 "$1" | cut -d, -f"$4"-"$(($4 + 2))" | grep -v '^,*$' >"$work/bins"
	[ -s "$work/bins" ] || fail "no histogram bins in column $4"
	awk -F, '
	NR == FNR { v[++n] = $1 + 0; next }
	{
		lo = $1 + 0; hi = $2; c = 0
		for (i = 1; i <= n; i++)
			if (v[i] >= lo && (hi == "" || v[i] < hi + 0)) c++
		if (c != $3) { print "bin [" $1 ", " $2 "): " $3 " frames, the data has " c; exit 1 }
		total += $3
	}
	END { if (total != n) { print "bins hold " total " frames, the data " n; exit 1 } }
	' "$work/values" "$work/bins" >"$work/diff" || fail "$(cat "$work/diff")"
}

case "$case_name" in
roundtrip)
	# A generated session with GPU files, merged by xrlm; a Functions fixture
	# next to it. Every sheet converts back to the same values.
	"$gen" "$work" t1 2000 >/dev/null || fail "generator"
	"$xrlm" merge "$work/frames-t1-pre.csv" "$work/frames-t1-post.csv" >/dev/null 2>&1 ||
		fail "merge"
	m=$work/frames-merged-t1.csv
	# (its frame count the merged file's: the fixture is that session's table)
	{ echo "# frame_count=2000"; cat "$data/functions-merged-x1.csv"; } >"$work/functions-merged-t1.csv"
	run xlsx "$m"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(cat "$work/out")" = "wrote $work/frames-merged-t1.xlsx: 2000 frames, 3 functions" ] ||
		fail "unexpected report"
	[ ! -s "$work/err" ] || fail "unexpected stderr"
	no_leftovers "$work"
	export_sheets "$work/frames-merged-t1.xlsx"
	summary_of "$m" >"$work/want.summary"
	same "$work/want.summary" "$(sheet Summary)" Summary
	table_of "$m" >"$work/want.frames"
	same "$work/want.frames" "$(sheet Frames)" Frames
	same "$data/functions-merged-x1.csv" "$(sheet Functions)" Functions
	charts=$(sheet Charts)
	[ "$(head -n 1 "$charts" | cut -d, -f1-4)" = "target_us_from,target_us_to,target_us_frames,target_us_bin" ] ||
		fail "Charts header: $(head -n 1 "$charts")"
	check_histogram "$charts" "$m" 6 1
	check_histogram "$charts" "$m" 8 6
	;;
fixture)
	# Blank summary values, text, negative values, integers past 2^53,
	# blank cells; no Functions file and no GPU histogram's empty bins.
	cp "$data/frames-merged-x1.csv" "$work/m.csv"
	run xlsx "$work/m.csv" -o "$work/book.xlsx"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(cat "$work/out")" = "wrote $work/book.xlsx: 5 frames" ] || fail "unexpected report"
	export_sheets "$work/book.xlsx"
	summary_of "$work/m.csv" >"$work/want.summary"
	same "$work/want.summary" "$(sheet Summary)" Summary
	grep -q '^target_gpu_ms_mean,$' "$(sheet Summary)" || fail "an empty value is not an empty cell"
	table_of "$work/m.csv" >"$work/want.frames"
	same "$work/want.frames" "$(sheet Frames)" Frames
	! ls "$work"/csv/*-Functions.csv >/dev/null 2>&1 || fail "a Functions sheet without a file"
	check_histogram "$(sheet Charts)" "$work/m.csv" 6 1
	check_histogram "$(sheet Charts)" "$work/m.csv" 8 6
	# A frame far above the others: the overflow bin, ">= from" with no
	# upper edge (the third sheet, Charts, read without LibreOffice).
	constant a 10 100 200
	awk -F, -v OFS=, 'NR == 50 { $6 = "5000.000" } 1' "$work/a.csv" >"$work/o.csv"
	run xlsx "$work/o.csv" -o "$work/o.xlsx"
	[ "$rc" -eq 0 ] || fail "a frame far above the others: status $rc"
	python3 - "$work/o.xlsx" <<'EOF' || fail "the overflow bin"
import re, sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("xl/worksheets/sheet3.xml").decode()
row = re.search(r'<row r="3">.*?</row>', s).group(0)
assert '<c r="A3"><v>10.001</v></c><c r="C3"><v>1</v></c><c r="D3" t="inlineStr"><is><t>&gt;= 10.001</t></is></c>' in row, row
assert '<c r="D2" t="inlineStr"><is><t>10.000 to 10.001</t></is></c>' in s, s
assert '<row r="4"' not in s, s
EOF
	# The Frames sheet's formats: microseconds with 3 decimals, shares
	# with 4; -(2^53 - 1), exact in a double, a number, not text.
	awk -F, -v OFS=, 'NR == 3 { $1 = "-9007199254740991"; $7 = "0.09" } 1' "$work/a.csv" >"$work/f.csv"
	run xlsx "$work/f.csv" -o "$work/f.xlsx"
	[ "$rc" -eq 0 ] || fail "formats: status $rc"
	python3 - "$work/f.xlsx" <<'EOF' || fail "the Frames sheet's formats"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sheet = z.read("xl/worksheets/sheet2.xml").decode()
styles = z.read("xl/styles.xml").decode()
codes = dict(re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles))
xfs = re.findall(r'<xf numFmtId="(\d+)"', re.search(r"<cellXfs.*?</cellXfs>", styles, re.S).group(0))
def code(col):
    m = re.search(r'<col min="%d" max="%d"[^>]* style="(\d+)"' % (col, col), sheet)
    return codes.get(xfs[int(m.group(1))], "General") if m else "General"
assert [code(c) for c in (1, 2, 6, 7, 8, 9)] == ["General", "General", "0.000", "0.0000", "0.000", "0.0000"], \
    [code(c) for c in range(1, 10)]
assert '<c r="A2"><v>-9007199254740991</v></c>' in sheet, re.search(r'<row r="2".*?</row>', sheet).group(0)
EOF
	;;
split)
	# More frames than --rows-per-sheet: Frames, Frames 2, Frames 3, each
	# with the header; together the same rows in the same order.
	"$gen" "$work" t2 250 --no-gpu >/dev/null || fail "generator"
	"$xrlm" merge "$work/frames-t2-pre.csv" "$work/frames-t2-post.csv" >/dev/null 2>&1 ||
		fail "merge"
	run xlsx "$work/frames-merged-t2.csv" --rows-per-sheet 100 -o "$work/s.xlsx"
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ "$(cat "$work/out")" = "wrote $work/s.xlsx: 250 frames on 3 Frames sheets" ] ||
		fail "unexpected report"
	export_sheets "$work/s.xlsx"
	{
		cat "$(sheet Frames)"
		tail -n +2 "$(sheet 'Frames 2')"
		tail -n +2 "$(sheet 'Frames 3')"
	} >"$work/got.frames"
	[ "$(head -n 1 "$(sheet 'Frames 3')")" = "$(head -n 1 "$work/got.frames")" ] ||
		fail "Frames 3 has no header"
	[ "$(wc -l <"$(sheet 'Frames 3')")" -eq 51 ] || fail "Frames 3 should hold 50 frames"
	table_of "$work/frames-merged-t2.csv" >"$work/want.frames"
	same "$work/want.frames" "$work/got.frames" Frames
	# The line chart spans the first Frames sheet's 100 rows of target_us
	# (column F), and has no GPU series (column H) without GPU values.
	python3 - "$work/s.xlsx" <<'EOF' || fail "the line chart's series"
import sys, zipfile
chart = zipfile.ZipFile(sys.argv[1]).read("xl/charts/chart1.xml").decode()
assert "<c:f>Frames!$F$2:$F$101</c:f>" in chart and "$H$" not in chart, chart
EOF
	;;
errors)
	cp "$data/frames-merged-x1.csv" "$work/m.csv"
	run xlsx "$work/missing.csv"
	expect_error 1 "missing.csv.*error"
	[ ! -e "$work/missing.xlsx" ] || fail "a workbook for a missing file"
	run xlsx
	expect_error 2 "needs MERGED.csv"
	run xlsx "$work/m.csv" --rows-per-sheet 0
	expect_error 2 "rows-per-sheet"
	run xlsx "$work/m.csv" --rows-per-sheet 1048576
	expect_error 2 "rows-per-sheet"
	run xlsx "$work/m.csv" --bogus
	expect_error 2 "unknown option"
	# A malformed row: file and line named, no workbook, no temporary file.
	sed 's/^2000,7,/2000,x7,/' "$data/frames-merged-x1.csv" >"$work/bad.csv"
	run xlsx "$work/bad.csv"
	expect_error 1 "bad.csv:23: error"
	[ ! -e "$work/bad.xlsx" ] || fail "a workbook from a bad file"
	no_leftovers "$work"
	# A merged file without frames: its Summary and a Frames sheet with
	# the header, no Charts.
	sed -e '/^[0-9-]/d' -e 's/^# frame_count=.*/# frame_count=0/' "$work/m.csv" >"$work/empty.csv"
	run xlsx "$work/empty.csv"
	[ "$rc" -eq 0 ] && [ ! -s "$work/err" ] || fail "a file without frames: status $rc"
	[ "$(cat "$work/out")" = "wrote $work/empty.xlsx: 0 frames" ] || fail "a file without frames: $(cat "$work/out")"
	no_leftovers "$work"
	python3 - "$work/empty.xlsx" <<'EOF' || fail "the workbook of a file without frames"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sheets = re.findall(r'<sheet name="([^"]*)"', z.read("xl/workbook.xml").decode())
assert sheets == ["Summary", "Frames"], sheets
assert "display_time" in z.read("xl/worksheets/sheet2.xml").decode(), "no header"
EOF
	# An existing output is never replaced.
	echo keep >"$work/m.xlsx"
	run xlsx "$work/m.csv"
	expect_error 1 "m.xlsx: error: already exists"
	[ "$(cat "$work/m.xlsx")" = keep ] || fail "the existing file was replaced"
	no_leftovers "$work"
	# A write error (file-size limit): one line, no file, no temporary file.
	"$gen" "$work" big 20000 >/dev/null || fail "generator"
	"$xrlm" merge "$work/frames-big-pre.csv" "$work/frames-big-post.csv" >/dev/null 2>&1 ||
		fail "merge"
	(ulimit -f 64 && "$xrlm" xlsx "$work/frames-merged-big.csv" >"$work/out" 2>"$work/err")
	rc=$?
	expect_error 1 "frames-merged-big.xlsx: error: .*File too large"
	[ ! -e "$work/frames-merged-big.xlsx" ] || fail "a workbook despite the write error"
	no_leftovers "$work"
	# Past the limit only as the zip is assembled (sheets of 1000 rows,
	# each well under 1 MiB; the workbook, 1.3 MB, over it): the same
	# reason, named.
	(ulimit -f 2048 && "$xrlm" xlsx "$work/frames-merged-big.csv" --rows-per-sheet 1000 >"$work/out" 2>"$work/err")
	rc=$?
	expect_error 1 "frames-merged-big.xlsx: error: cannot write: File too large$"
	[ ! -e "$work/frames-merged-big.xlsx" ] || fail "a workbook despite the write error"
	no_leftovers "$work"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
