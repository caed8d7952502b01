#!/bin/sh
# Tests of `xrlm compare` on synthetic merged files with known shifts:
#   compare_test.sh XRLM GEN_MERGED CASE
# GEN_MERGED is tests/merge/tm_gen_merged.c (autocorrelated, long-tailed
# frame times). Each case exits non-zero with a line saying why.
set -u
xrlm=$1
gen=$2
case_name=$3

. "$(dirname "$0")/cli_lib.sh"

# compare ARGS...: runs xrlm compare through cli_lib.sh's run
compare() {
	run compare "$@"
}

gen() { # gen NAME ARGS...: a synthetic merged file $work/NAME.csv
	name=$1
	shift
	"$gen" "$work/$name.csv" "$@" || fail "generator failed"
	# A file xrlm merge could have written: xrlm stats, the strictest
	# reader of the layout, takes it (one with phases lacked
	# target_gpu_raw_us and gate_tripped, and only compare read it).
	case " $* " in
	*" --hostile "*) ;;
	*) "$xrlm" stats "$work/$name.csv" >/dev/null 2>"$work/gen.err" ||
		fail "xrlm stats refuses the generated $name.csv: $(cat "$work/gen.err")" ;;
	esac
}

# verdict METRIC: the verdict line's verdict for METRIC in $work/out
verdict() {
	sed -n "s/^$1 ([^)]*): \([a-z ]*\).*/\1/p" "$work/out"
}

expect_verdict() { # expect_verdict METRIC VERDICT
	v=$(verdict "$1")
	[ "$v" = "$2" ] || fail "$1: verdict '$v', expected '$2'"
}

# change METRIC: the change line printed under METRIC's verdict in $work/out
change() {
	sed -n "/^$1 (/{n;n;p;}" "$work/out"
}

case "$case_name" in
bounds)
	# A change is judged as printed (the medians are read at 0.001 us,
	# their difference not exact in binary): 1.000 us meets the CPU floor,
	# 1.00 % the noise threshold; 3.00 % is not more than --fail-above 3.
	# As printed also where the change rounds onto a bound: 0.9995 %
	# reads +1.00 %, 3.004 % reads +3.00 %; a growth of exactly the
	# floor (1.000 us, +14.28 %) fails --fail-above 10. Each line: A's and B's
	# target_us, --fail-above's PCT or -, the verdict or the status.
	while read -r ua ub pct want; do
		constant a "$ua" 100 50
		constant b "$ub" 100 50
		if [ "$pct" = - ]; then
			compare "$work/a.csv" "$work/b.csv"
			expect_verdict target_us "$want"
		else
			compare "$work/a.csv" "$work/b.csv" --fail-above "$pct"
			[ "$rc" -eq "$want" ] ||
				fail "$ua -> $ub us, --fail-above $pct: status $rc: $(change target_us)"
		fi
	done <<-EOF
	7.001 8.001 - slower
	7.001 8.001 10 1
	531 536.31 - slower
	200 201.999 - slower
	100 103 3 0
	100 103 2.99 1
	300 309.012 3 0
	1000000 1000005 - no change
	1000000 999995 - no change
	EOF
	# The gate's percentage in the JSON as given, not rounded to 0.
	compare "$work/a.csv" "$work/b.csv" --fail-above 0.0004 --json
	python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))["fail_above_pct"]; assert v == 0.0004, v' \
		"$work/out" || fail "fail_above_pct in the JSON"
	;;
often_zero)
	# GPU time 0 on nearly half of A's frames (a target with GPU work on
	# some frames only), so some resamples of A have a median of 0: the
	# change from A's median of 1000 us is still +0.50 %, below the noise
	# threshold and --fail-above 3, though its relative interval has no
	# value (then the absolute one says where it lies).
	constant a 50 1000/0 99
	constant b 50 1005 99
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "a change of +0.5 % failed --fail-above 3: $(change target_gpu_us)"
	expect_verdict target_gpu_us "no change"
	change target_gpu_us | grep -q "  +0\.50 % \[n/a %, n/a %\]" || fail "the change: $(change target_gpu_us)"
	compare "$work/a.csv" "$work/b.csv" --json
	python3 -c 'import json, sys
m = {x["metric"]: x for x in json.load(open(sys.argv[1]))["metrics"]}["target_gpu_us"]
assert m["change_pct"] == 0.5 and m["change_ci95_pct"] == [None, None], m' "$work/out" ||
		fail "the JSON's change_pct"
	;;
few)
	# Two frames a side give a bootstrap "interval" of zero width: not
	# compared, and a gate with nothing compared fails as trouble (2).
	constant a 10 100 2
	constant b 101 100 25
	compare "$work/a.csv" "$work/b.csv" --fail-above 1
	[ "$rc" -eq 2 ] || fail "2 frames with --fail-above: status $rc"
	grep -q "^target_us: not compared (fewer than 20 values in A: too few for an interval)$" "$work/out" ||
		fail "2 frames not said too few"
	constant a 10 100 25
	constant b 101 100 19
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "19 frames without --fail-above: status $rc"
	grep -q "^target_gpu_us: not compared (fewer than 20 values in B: too few for an interval)$" "$work/out" ||
		fail "19 frames not said too few"
	constant b 101 100 20
	compare "$work/a.csv" "$work/b.csv" --fail-above 1
	[ "$rc" -eq 1 ] || fail "25 and 20 frames: status $rc"
	grep -q "^target_us (.*): slower  \[FAIL" "$work/out" || fail "25 and 20 frames: target_us did not fail the gate"
	;;
zero_end)
	# An interval that ends on 0 does not exclude 0. GPU time 0 on every
	# frame of A, 0 and 1000 us in turn on B's: B's median is 500 us, but
	# a resample of B with more zeros than not has a median of 0, so the
	# change's interval is [+0.000, +1000.000] (from a median of 0 the
	# relative one has no value). Not slower and no gate failed; the
	# other way round, [-1000.000, +0.000], not faster. Constant columns
	# (interval [+0.000, +0.000], +0.00 %) are no significant change.
	constant a 50 0 100
	constant b 50 0/1000 100
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "an interval from 0 failed --fail-above 3: status $rc: $(change target_gpu_us)"
	change target_gpu_us | grep -q "^    change  +500\.000 us \[+0\.000, +1000\.000\]   n/a %" ||
		fail "the change from a median of 0: $(change target_gpu_us)"
	expect_verdict target_gpu_us "no significant change"
	expect_verdict target_us "no significant change"
	compare "$work/b.csv" "$work/a.csv"
	change target_gpu_us | grep -q "^    change  -500\.000 us \[-1000\.000, +0\.000\]" ||
		fail "the change down to a median of 0: $(change target_gpu_us)"
	expect_verdict target_gpu_us "no significant change"
	# A change past --fail-above whose interval holds 0 does not fail it:
	# A's GPU time 100 and 1000 us in turn (median 550, a resample's 100,
	# 550 or 1000), B's 600: +9.09 % [-40.00 %, +500.00 %].
	constant c 50 100/1000 100
	constant d 50 600 100
	compare "$work/c.csv" "$work/d.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "+9.09 % with an interval holding 0 failed --fail-above 3: status $rc"
	change target_gpu_us | grep -q "  +9\.09 % \[-40\.00 %, +500\.00 %\]" ||
		fail "the change of 550 to 600 us: $(change target_gpu_us)"
	expect_verdict target_gpu_us "no significant change"
	# An end is judged as printed: A's target_us 10.000 us on every frame,
	# B's 10.001 but 10.000 on 46 frames in 100, spread out. The lower
	# end, a fraction of 0.001 us and of 0.01 %, prints +0.000 us and
	# +0.00 %: the interval holds 0; the other way round its upper end.
	constant e 10 100 100
	awk -F, -v OFS=, '/^#/ || /^display_time/ { print; next }
		{ if (n++ * 19 % 100 >= 46) { $4 = "310.001"; $6 = "10.001" }; print }' "$work/e.csv" >"$work/f.csv"
	compare "$work/e.csv" "$work/f.csv"
	change target_us | grep -q "^    change  +0\.001 us \[+0\.000, +0\.001\]   +0\.01 % \[+0\.00 %, +0\.01 %\]" ||
		fail "the change of 10.000 to 10.001 us: $(change target_us)"
	expect_verdict target_us "no significant change"
	compare "$work/f.csv" "$work/e.csv"
	change target_us | grep -q "^    change  -0\.001 us \[-0\.001, +0\.000\]   -0\.01 % \[-0\.01 %, +0\.00 %\]" ||
		fail "the change of 10.001 to 10.000 us: $(change target_us)"
	expect_verdict target_us "no significant change"
	;;
shift0)
	gen a --seed 1 --frames 4000
	gen b --seed 2 --frames 4000
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	for m in target_us target_gpu_us frame_interval_us; do
		v=$(verdict $m)
		case "$v" in "no change"|"no significant change") ;; *) fail "$m: '$v' for identical distributions" ;; esac
	done
	;;
shift2)
	gen a --seed 1 --frames 4000
	gen b --seed 2 --frames 4000 --shift-pct 2
	compare "$work/a.csv" "$work/b.csv"
	expect_verdict target_us slower
	expect_verdict target_gpu_us slower
	grep -q "^    change .* +[12]\.[0-9][0-9] % \[+" "$work/out" || fail "no +1..2 % change printed"
	;;
shift10)
	gen a --seed 1 --frames 2000
	gen b --seed 2 --frames 2000 --shift-pct 10
	compare "$work/a.csv" "$work/b.csv"
	expect_verdict target_us slower
	gen c --seed 3 --frames 2000 --shift-pct -10
	compare "$work/a.csv" "$work/c.csv"
	expect_verdict target_us faster
	expect_verdict frame_interval_us "no significant change"
	;;
below_noise)
	# +0.5 %: real (the interval excludes 0 with this many frames) but below
	# the 1 % noise threshold.
	gen a --seed 1 --frames 100000 --ar 0
	gen b --seed 2 --frames 100000 --ar 0 --shift-pct 0.5
	compare "$work/a.csv" "$work/b.csv"
	expect_verdict target_us "no change"
	;;
bimodal)
	# Identical 50/50 mixtures: the median sits between the modes and
	# wanders; this must not be called a change.
	gen a --seed 1 --frames 3000 --bimodal 0.5:40
	gen b --seed 2 --frames 3000 --bimodal 0.5:40
	compare "$work/a.csv" "$work/b.csv"
	v=$(verdict target_us)
	case "$v" in "no change"|"no significant change") ;; *) fail "identical bimodal: '$v'" ;; esac
	# A second mode that appears in 30 % of B's frames moves the median.
	gen c --seed 3 --frames 3000
	gen d --seed 4 --frames 3000 --bimodal 0.3:30
	compare "$work/c.csv" "$work/d.csv"
	expect_verdict target_us slower
	;;
lengths)
	gen a --seed 1 --frames 5000
	gen b --seed 2 --frames 300 --shift-pct 10
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	expect_verdict target_us slower
	grep -q "A 5000 frames" "$work/out" 2>/dev/null || grep -q "(5000 frames)" "$work/out" || fail "A's length not shown"
	grep -q "(300 frames)" "$work/out" || fail "B's length not shown"
	# Each side's own block length, ceil(n^(1/3)): 18 frames for A, 7 for B.
	compare "$work/a.csv" "$work/b.csv" --json
	python3 -c 'import json, sys
t = [m for m in json.load(open(sys.argv[1]))["metrics"] if m["metric"] == "target_us"][0]
assert t["a"]["block_length"] == 18 and t["b"]["block_length"] == 7, t' "$work/out" ||
		fail "the JSON's block lengths"
	;;
empty)
	gen a --seed 1 --frames 1000
	gen b --seed 2 --frames 0
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "status $rc for an empty side"
	grep -q "^target_us: not compared (no values in B)" "$work/out" || fail "empty side not reported"
	# A gate does not pass on a run that recorded nothing; that is trouble
	# (2), not a regression (1).
	compare "$work/a.csv" "$work/b.csv" --fail-above 1
	[ "$rc" -eq 2 ] || fail "--fail-above with nothing compared: status $rc, expected 2"
	grep -q "nothing compared, the gate fails" "$work/err" || fail "no reason given: $(cat "$work/err")"
	compare "$work/b.csv" "$work/a.csv" --json
	[ "$rc" -eq 0 ] || fail "status $rc"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["metrics"][0]; assert not m["compared"] and m["reason"]=="no values in A", m' "$work/out" || fail "JSON for an empty side"
	;;
absent)
	gen a --seed 1 --frames 1000 --phases --no-gpu
	gen b --seed 2 --frames 1000
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "status $rc"
	grep -q "^target_wait_us: not compared (column absent in B)" "$work/out" || fail "absent column not reported"
	grep -q "^target_gpu_us: not compared (no values in A)" "$work/out" || fail "blank GPU column not reported"
	expect_verdict target_us "no significant change"
	;;
phases)
	# 200 us a frame: +10 % of target_wait_us (10 % of the frame) is 2 us,
	# clear of the 1 us floor.
	gen a --seed 1 --frames 2000 --phases --cpu-us 200
	gen b --seed 2 --frames 2000 --phases --cpu-us 200 --shift-pct 10
	compare "$work/a.csv" "$work/b.csv"
	for m in target_wait_us target_end_us target_total_us; do
		expect_verdict $m slower
	done
	;;
paced)
	# A paced app (90 Hz): B's target is 10x cheaper, and the time it saves
	# is spent waiting in xrWaitFrame. That longer wait is headroom, not a
	# regression: app_wait_us reads "more", never "slower", and never fails
	# the gate.
	gen a --seed 1 --frames 2000 --phases --paced --cpu-us 1000
	gen b --seed 2 --frames 2000 --phases --paced --cpu-us 100
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "a faster target with --fail-above 3: status $rc: $(grep FAIL "$work/out")"
	expect_verdict target_us faster
	expect_verdict app_wait_us more
	grep -q "^app_wait_us .*FAIL" "$work/out" && fail "app_wait_us marked as failing"
	compare "$work/b.csv" "$work/a.csv" --fail-above 3
	[ "$rc" -eq 1 ] || fail "a slower target with --fail-above 3: status $rc"
	expect_verdict app_wait_us less
	compare "$work/a.csv" "$work/b.csv" --json
	python3 - "$work/out" <<'EOF' || fail "JSON of a column that is not a cost"
import json, sys
m = {x["metric"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
w, t = m["app_wait_us"], m["target_us"]
assert w["verdict"] == "more" and w["larger_is_worse"] is False and w["fails"] is False, w
assert t["verdict"] == "faster" and t["larger_is_worse"] is True, t
EOF
	;;
floor)
	# Every column differs by less than its measurement resolves (1 us of
	# CPU time, 2 us of GPU time), though by 10 % and significantly: a
	# target of 5 us against 5.5 us, its phases 0.25 to 3 us, GPU 10 against
	# 11 us. No verdict of a change, and the gate passes.
	gen a --seed 1 --frames 4000 --phases --cpu-us 5 --gpu-us 10
	gen b --seed 2 --frames 4000 --phases --cpu-us 5 --gpu-us 10 --shift-pct 10
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "sub-floor differences with --fail-above 3: status $rc: $(grep FAIL "$work/out")"
	for m in target_us target_gpu_us target_locate_views_us target_end_us target_total_us; do
		expect_verdict $m "no change"
	done
	grep -q "^    change .*  floor 1 us$" "$work/out" || fail "the CPU floor not shown"
	grep -q "^    change .*  floor 2 us$" "$work/out" || fail "the GPU floor not shown"
	compare "$work/a.csv" "$work/b.csv" --json
	python3 - "$work/out" <<'EOF' || fail "JSON floors"
import json, sys
m = {x["metric"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
assert m["target_us"]["floor_us"] == 1 and m["target_gpu_us"]["floor_us"] == 2, m["target_us"]
assert m["target_us"]["change_ci95_pct"][0] > 3, m["target_us"]
EOF
	;;
app_and_sums)
	# Identical runs of a light app differ by more than 1 us where the
	# monitor sums many calls or the app times itself (a loaded VM: +1.3 us
	# in target_total_us, +1.4 us, 20 %, in app_cpu_us). B is A with
	# target_total_us +2.5 us, target_sync_actions_us +1.5 us and every
	# app_* cost +50 %: the sums are below their floors (3 and 2 us), the
	# app's columns read slower, and none fails the gate.
	gen a --seed 1 --frames 2000 --phases --cpu-us 5
	awk -F, -v OFS=, '
		/^#/ || !h { if (!/^#/) { h = 1; for (i = 1; i <= NF; i++) c[$i] = i }; print; next }
		{ $c["target_total_us"] += 2.5; $c["target_sync_actions_us"] += 1.5
		  $c["app_cpu_us"] *= 1.5; $c["app_render_us"] *= 1.5; $c["app_submit_us"] *= 1.5; print }
	' "$work/a.csv" >"$work/b.csv"
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 0 ] || fail "sums below their floors and app columns with --fail-above 3: status $rc: $(grep FAIL "$work/out")"
	expect_verdict target_total_us "no change"
	expect_verdict target_sync_actions_us "no change"
	for m in app_cpu_us app_render_us app_submit_us; do
		expect_verdict $m slower
	done
	grep -q "^target_total_us .*" "$work/out" && grep -A2 "^target_total_us " "$work/out" | grep -q "floor 3 us$" ||
		fail "target_total_us's floor of 3 us not shown"
	grep -A4 "^app_cpu_us " "$work/out" | grep -q "never fails --fail-above" || fail "app_cpu_us not said to never gate"
	compare "$work/a.csv" "$work/b.csv" --json
	python3 - "$work/out" <<'PY' || fail "JSON of the app and sum columns"
import json, sys
m = {x["metric"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
assert m["target_total_us"]["floor_us"] == 3 and m["target_sync_actions_us"]["floor_us"] == 2, m["target_total_us"]
assert m["app_cpu_us"]["gates"] is False and m["app_cpu_us"]["larger_is_worse"] is True, m["app_cpu_us"]
assert m["target_us"]["gates"] is True and m["frame_interval_us"]["gates"] is True, m["target_us"]
PY
	# A sum grown past its floor still fails: the total +10 us.
	awk -F, -v OFS=, '
		/^#/ || !h { if (!/^#/) { h = 1; for (i = 1; i <= NF; i++) c[$i] = i }; print; next }
		{ $c["target_total_us"] += 10; print }
	' "$work/a.csv" >"$work/c.csv"
	compare "$work/a.csv" "$work/c.csv" --fail-above 3
	[ "$rc" -eq 1 ] || fail "target_total_us +10 us with --fail-above 3: status $rc"
	;;
regression)
	# Real regressions still fail the gate: the target's CPU time 200 ->
	# 300 us, and a phase of 5 -> 8 us (target_locate_views_us, 10 % of
	# 50 -> 80 us), 3 us above the floor.
	gen a --seed 1 --frames 2000 --phases --paced --cpu-us 200
	gen b --seed 2 --frames 2000 --phases --paced --cpu-us 300
	compare "$work/a.csv" "$work/b.csv" --fail-above 3
	[ "$rc" -eq 1 ] || fail "200 -> 300 us with --fail-above 3: status $rc"
	grep -q "^target_us (.*): slower  \[FAIL: above --fail-above\]" "$work/out" || fail "target_us not failing"
	gen c --seed 3 --frames 2000 --phases --paced --cpu-us 50
	gen d --seed 4 --frames 2000 --phases --paced --cpu-us 80
	compare "$work/c.csv" "$work/d.csv" --fail-above 3
	[ "$rc" -eq 1 ] || fail "a phase 5 -> 8 us with --fail-above 3: status $rc"
	grep -q "^target_locate_views_us (.*): slower  \[FAIL: above --fail-above\]" "$work/out" ||
		fail "target_locate_views_us 5 -> 8 us not failing"
	;;
fail_above)
	gen a --seed 1 --frames 2000
	gen b --seed 2 --frames 2000 --shift-pct 10
	gen c --seed 3 --frames 2000 --shift-pct -10
	compare "$work/a.csv" "$work/b.csv" --fail-above 5
	[ "$rc" -eq 1 ] || fail "+10 % with --fail-above 5: status $rc, expected 1"
	grep -q "FAIL: above --fail-above" "$work/out" || fail "failing metric not marked"
	compare "$work/a.csv" "$work/b.csv" --fail-above 20
	[ "$rc" -eq 0 ] || fail "+10 % with --fail-above 20: status $rc"
	compare "$work/a.csv" "$work/c.csv" --fail-above 5
	[ "$rc" -eq 0 ] || fail "-10 % (faster) with --fail-above 5: status $rc"
	compare "$work/a.csv" "$work/b.csv"
	[ "$rc" -eq 0 ] || fail "without --fail-above: status $rc"
	# From a median of 0 (a GPU column of a target with no GPU work), any
	# growth whose interval lies above zero is past every percentage.
	awk -F, -v OFS=, '/^#/ { print; next } !h { h = 1; for (i = 1; i <= NF; i++) if ($i == "target_gpu_us") c = i; print; next }
		{ $c = "0.000"; print }' "$work/a.csv" >"$work/z.csv"
	compare "$work/z.csv" "$work/a.csv" --fail-above 1000
	[ "$rc" -eq 1 ] || fail "target_gpu_us from a median of 0 with --fail-above 1000: status $rc, expected 1"
	grep -q "FAIL: above --fail-above" "$work/out" || fail "the column grown from 0 not marked"
	compare "$work/a.csv" "$work/z.csv" --fail-above 5
	[ "$rc" -eq 0 ] || fail "down to a median of 0 with --fail-above 5: status $rc"
	;;
json)
	gen a --seed 1 --frames 1000
	gen b --seed 2 --frames 800 --shift-pct 10
	cp "$work/b.csv" "$work/b \"q\" <x>.csv"
	compare "$work/a.csv" "$work/b \"q\" <x>.csv" --json --fail-above 5
	[ "$rc" -eq 1 ] || fail "status $rc"
	python3 - "$work/out" <<'EOF' || fail "JSON check"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["b"]["path"].endswith('b "q" <x>.csv'), d["b"]
assert d["failed"] is True and d["seed"] == 1 and d["fail_above_pct"] == 5
m = {x["metric"]: x for x in d["metrics"]}
t = m["target_us"]
assert t["verdict"] == "slower" and t["fails"] is True, t
assert t["change_ci95_pct"][0] > 0 and 5 < t["change_pct"] < 15, t
assert t["a"]["n"] == 1000 and t["b"]["n"] == 800 and t["a"]["block_length"] == 10, t
assert 0 <= t["p_value"] < 1e-6, t
EOF
	grep -q '<x>' "$work/out" && fail "'<' not escaped in JSON"
	;;
seed)
	gen a --seed 1 --frames 1000
	gen b --seed 2 --frames 1000 --shift-pct 3
	compare "$work/a.csv" "$work/b.csv"
	cp "$work/out" "$work/first"
	compare "$work/a.csv" "$work/b.csv" --seed 1
	cmp -s "$work/out" "$work/first" || fail "default seed is not 1 or output not reproducible"
	compare "$work/a.csv" "$work/b.csv" --seed 99
	cmp -s "$work/out" "$work/first" && fail "--seed 99 gave the same intervals"
	grep -q "seed 99" "$work/out" || fail "seed not shown"
	;;
trials)
	# Identical distributions, 40 seeded trials: "slower"/"faster" for
	# target_us at most twice (the bound is >= 95 % "no change").
	i=0 wrong=0
	while [ $i -lt 40 ]; do
		gen a --seed $((2 * i + 1000)) --frames 1500
		gen b --seed $((2 * i + 1001)) --frames 1500
		compare "$work/a.csv" "$work/b.csv" --seed $i
		v=$(verdict target_us)
		[ -n "$v" ] || fail "no verdict for target_us"
		case "$v" in slower|faster) wrong=$((wrong + 1)) ;; esac
		i=$((i + 1))
	done
	echo "identical distributions called a change in $wrong of 40 trials"
	[ $wrong -le 2 ] || fail "$wrong of 40 trials called identical distributions a change"
	;;
bad_input)
	gen a --seed 1 --frames 10
	compare "$work/a.csv"
	[ "$rc" -eq 2 ] || fail "one file: status $rc"
	compare "$work/a.csv" "$work/a.csv" --fail-above x
	[ "$rc" -eq 2 ] || fail "--fail-above x: status $rc"
	compare "$work/a.csv" "$work/a.csv" --fail-above 1e15
	[ "$rc" -eq 2 ] && grep -q "a percentage from 0 to 1e9: 1e15" "$work/err" || fail "--fail-above 1e15: status $rc: $(cat "$work/err")"
	compare "$work/a.csv" "$work/a.csv" --seed -1
	[ "$rc" -eq 2 ] || fail "--seed -1: status $rc"
	compare "$work/a.csv" "$work/a.csv" --bogus
	[ "$rc" -eq 2 ] || fail "--bogus: status $rc"
	compare "$work/a.csv" "$work/missing.csv"
	[ "$rc" -eq 2 ] || fail "missing file: status $rc"
	grep -q "missing.csv: error: cannot open" "$work/err" || fail "missing file message"
	printf 'target_us,frame_interval_us\n1,x\n' >"$work/bad.csv"
	compare "$work/a.csv" "$work/bad.csv"
	[ "$rc" -eq 2 ] || fail "bad number: status $rc"
	grep -q "bad.csv:2: error: column 2 (frame_interval_us) is not a number" "$work/err" || fail "bad number message"
	# A file with no column to compare (any CSV, a per-side frames file) is
	# not a merged file: an error naming it, not a --fail-above that passes.
	printf 'a,b\n1,2\n' >"$work/j.csv"
	compare "$work/j.csv" "$work/j.csv" --fail-above 0
	expect_error 2 "j.csv: error: not a merged file"
	printf 'display_time,thread_id,t_entry,t_exit\n1000,7,1100,1200\n' >"$work/frames-x-pre.csv"
	compare "$work/a.csv" "$work/frames-x-pre.csv" --fail-above 0
	expect_error 2 "frames-x-pre.csv: error: not a merged file"
	# A column named twice: refused at the header, not the first one taken
	# (pre_us compared as target_us).
	sed -E '/^display_time/s/,pre_us,/,target_us,/' "$work/a.csv" >"$work/dup.csv"
	compare "$work/a.csv" "$work/dup.csv"
	line=$(grep -n '^display_time' "$work/dup.csv" | cut -d: -f1)
	expect_error 2 "dup.csv:$line: error: column 6 has the name of column 4, \"target_us\": a header names each column once"
	# A stray '"' mid-file: an error at its line, not a garbled row at the end.
	printf 'target_us,frame_interval_us\n1,2\n"3,4\n5,6\n7,8\n' >"$work/bad.csv"
	compare "$work/a.csv" "$work/bad.csv"
	[ "$rc" -eq 2 ] || fail "stray quote: status $rc"
	[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "bad.csv:3: error: a field opened by '\"'" "$work/err" ||
		fail "stray quote message: $(cat "$work/err")"
	# Values whose difference overflows (no merge writes them): trouble,
	# not "no significant change" and a gate that passes.
	constant lo -1e308 100 50
	constant hi 1e308 100 50
	for gate in "" "--fail-above 1"; do
		# shellcheck disable=SC2086
		compare "$work/lo.csv" "$work/hi.csv" $gate
		expect_error 2 "error: a column's values are out of range"
		grep -q "^target_us: not compared (values out of range" "$work/out" ||
			fail "out of range ${gate:-without a gate}: $(cat "$work/out")"
	done
	;;
exit_status)
	# As diff(1) and cmp(1): 0 no regression, 1 a regression past
	# --fail-above, 2 trouble, so that a CI gate can tell a slower build
	# from a broken one. Trouble prints no report (no JSON to misread),
	# one line on stderr.
	gen a --seed 1 --frames 2000
	gen b --seed 2 --frames 2000 --shift-pct 10
	gen e --seed 3 --frames 0
	compare "$work/a.csv" "$work/b.csv" --fail-above 20
	[ "$rc" -eq 0 ] || fail "no regression: status $rc, expected 0"
	compare "$work/a.csv" "$work/b.csv" --fail-above 5
	[ "$rc" -eq 1 ] || fail "regression: status $rc, expected 1"
	[ -s "$work/err" ] && fail "a regression printed on stderr: $(cat "$work/err")"
	compare "$work/a.csv" "$work/b.csv" --fail-above 5 --json
	[ "$rc" -eq 1 ] || fail "regression with --json: status $rc, expected 1"
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["failed"] is True' "$work/out" ||
		fail "regression: JSON without failed=true"
	for j in "" --json; do
		compare "$work/a.csv" "$work/missing.csv" --fail-above 5 $j
		expect_error 2 "missing.csv: error: cannot open"
		[ -s "$work/out" ] && fail "missing file $j: a report on stdout"
		printf 'a,b\n1,2\n' >"$work/j.csv"
		compare "$work/a.csv" "$work/j.csv" --fail-above 5 $j
		expect_error 2 "j.csv: error: not a merged file"
		[ -s "$work/out" ] && fail "not a merged file $j: a report on stdout"
		compare "$work/a.csv" "$work/b.csv" --fail-above 5 --bogus $j
		expect_error 2 "unknown option: --bogus"
		[ -s "$work/out" ] && fail "bad option $j: a report on stdout"
	done
	# Nothing compared: the report says so (JSON failed=true), status 2.
	compare "$work/a.csv" "$work/e.csv" --fail-above 5 --json
	expect_error 2 "nothing compared, the gate fails"
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["failed"] is True' "$work/out" ||
		fail "nothing compared: JSON without failed=true"
	# A report that cannot be written is trouble too, even for a regression.
	if [ -w /dev/full ]; then
		"$xrlm" compare "$work/a.csv" "$work/b.csv" --fail-above 5 >/dev/full 2>"$work/err"
		rc=$?
		expect_error 2 "cannot write the output"
		# Its help too: 1 would read as a regression.
		"$xrlm" compare --help >/dev/full 2>"$work/err"
		rc=$?
		expect_error 2 "cannot write the output"
	fi
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
