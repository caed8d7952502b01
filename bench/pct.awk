# Percentiles of the numbers on stdin, one a line, sorted ascending (pipe
# them through `sort -g`), by xrlm's method (merge/stats.c: linear
# interpolation between closest ranks, Hyndman-Fan type 7), so the bench
# scripts' figures and xrlm's summaries of the same samples agree.
#   -v q="0.5 0.99"  the fractions wanted, printed in this order
#   -v fmt="%.3f"    printf format of one value (default %g)
#   -v scale=1000    every result divided by this (default 1)
#   -v empty=nan     printed for each value when there is no number (default nan)
#   -v count=1       the number of values is printed last
{ v[NR] = $1 }

function pct(p,    h, k) {
	h = (NR - 1) * p
	k = int(h)
	if (k + 1 >= NR)
		return v[NR]
	return v[k + 1] + (h - k) * (v[k + 2] - v[k + 1])
}

END {
	if (fmt == "")
		fmt = "%g"
	if (scale == "")
		scale = 1
	if (empty == "")
		empty = "nan"
	n = split(q, qs, " ")
	for (i = 1; i <= n; i++) {
		if (i > 1)
			printf " "
		if (NR)
			printf fmt, pct(qs[i]) / scale
		else
			printf "%s", empty
	}
	if (count)
		printf " %d", NR
	printf "\n"
}
