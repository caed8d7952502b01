/*
 * `xrlm compare A.csv B.csv`: is run B faster or slower than run A?
 *
 * For each per-frame column both merged files share (metrics.h): the two
 * medians, their difference and relative change with block-bootstrap 95 %
 * intervals and the Mann–Whitney U p-value (abtest.h), and a verdict:
 *   slower / faster       the interval of the relative change excludes 0
 *                         and the change is at least the noise threshold
 *                         and the column's floor;
 *   more / less           the same, for a column that is not a cost;
 *   no change            the interval excludes 0 but the change is below
 *                         the threshold (1 %, as Criterion's default) or
 *                         the floor (the smallest change the layers
 *                         resolve: metrics.c);
 *   no significant change the interval includes 0.
 * The verdict rests on the bootstrap interval, not on the U test: the U
 * test takes frames as independent, which autocorrelated frame times are
 * not, so its p-value comes out too small; it is shown as a second view.
 * For every column but the app's wait in xrWaitFrame, larger is worse
 * (metrics.h, enum metrics_sense): in a paced app that wait is what the
 * rest of the frame leaves, so a cheaper target makes it longer.
 *
 * --fail-above PCT exits 1 when a cost's median grew by more than PCT %
 * and by at least its floor, and the interval of the change lies above
 * zero; the app's own columns never do (metrics_gates()).
 *
 * Exit status as diff(1) and cmp(1), not cmd.h's: 0 no regression (or no
 * --fail-above), 1 a regression past --fail-above, 2 trouble (bad
 * arguments, bad input, a failed operation, nothing to compare, values
 * out of range). A CI
 * gate must tell a slower build from a broken pipeline; with cmd.h's 1
 * for bad input it could not.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "abtest.h"
#include "cmd.h"
#include "fmt.h"
#include "jsonw.h"
#include "merged_read.h"
#include "metrics.h"
#include "ncsv.h"
#include "quote.h"
#include "u_parse.h"

#define COMPARE_RESAMPLES 2000
#define COMPARE_NOISE_PCT 1.0
/* The decimals a change is printed with, in us and in %: it is judged as printed. */
#define COMPARE_US_DECIMALS 3
#define COMPARE_PCT_DECIMALS 2
/*
 * Fewer values than this on a side leave a column not compared: with a
 * handful of blocks the resampled medians take a few values only, and
 * their "95 %" interval is too narrow to stand for anything (two frames
 * give one of zero width).
 */
#define COMPARE_MIN_VALUES 20
/* A macro's value as a string literal, for messages. */
#define XRLM_STR_(x) #x
#define XRLM_STR(x) XRLM_STR_(x)
#define COMPARE_DEFAULT_SEED 1

#define COMPARE_EXIT_REGRESSION 1
#define COMPARE_EXIT_TROUBLE 2
_Static_assert(CMD_EXIT_USAGE == COMPARE_EXIT_TROUBLE, "usage errors are trouble");

struct compare_args {
	const char *path[2];
	bool json;
	bool has_fail_above;
	double fail_above_pct;
	uint64_t seed;
};

/* One column's outcome. */
struct compare_metric {
	const struct metrics_column *col;
	const char *skipped; /* why it was not compared, or NULL */
	struct abtest_result r;
	const char *verdict;
	bool fails;        /* past --fail-above */
	bool out_of_range; /* values whose difference is no finite number */
};

static const char *const verdict_slower = "slower";
static const char *const verdict_faster = "faster";
static const char *const verdict_more = "more";
static const char *const verdict_less = "less";
static const char *const verdict_same = "no change";
static const char *const verdict_unsure = "no significant change";

static int parse_compare_args(int argc, char **argv, struct compare_args *a)
{
	int positional = 0, seed_given = 0;

	a->seed = COMPARE_DEFAULT_SEED;
	for (int i = 0; i < argc; i++) {
		const char *v = NULL;
		int m;
		if ((m = cmd_option_value(argc, argv, &i, "--fail-above", &v)) != 0) {
			if (a->has_fail_above)
				return cmd_usage_error("option given twice", "--fail-above");
			if (m < 0 || u_parse_double(v, 0, 1e9, &a->fail_above_pct) != U_PARSE_OK)
				return cmd_usage_error("--fail-above needs a percentage from 0 to 1e9", v);
			a->has_fail_above = true;
		} else if ((m = cmd_option_value(argc, argv, &i, "--seed", &v)) != 0) {
			if (seed_given++)
				return cmd_usage_error("option given twice", "--seed");
			if (m < 0 || u_parse_u64(v, 0, UINT64_MAX, &a->seed) != U_PARSE_OK)
				return cmd_usage_error("--seed needs an integer 0..2^64-1", v);
		} else if (strcmp(argv[i], "--json") == 0) {
			a->json = true;
		} else if (cmd_is_option(argv[i])) {
			return cmd_usage_error("unknown option", argv[i]);
		} else if (positional < 2) {
			a->path[positional++] = argv[i];
		} else {
			return cmd_usage_error("unexpected argument", argv[i]);
		}
	}
	if (positional < 2)
		return cmd_usage_error("compare needs A.csv and B.csv", NULL);
	return 0;
}

/* The present (non-blank) values of @p col in file order; *n = 0 for none. */
static double *present_values(const struct ncsv *t, const struct ncsv_col *col, size_t *n)
{
	double *v = malloc((t->nrows ? t->nrows : 1) * sizeof(double));
	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->nrows; i++)
		if (!isnan(col->v[i]))
			v[(*n)++] = col->v[i];
	return v;
}

/*
 * @p r's change and its intervals rounded as they are printed, so that
 * the verdict and the gate read what the user reads: a change printed
 * +1.00 % or +1.000 us meets a bound of 1 % or 1 us, one printed +3.00 %
 * is not more than --fail-above 3, whatever the binary rounding of the
 * medians' difference (8.001 - 7.001 = 0.99999...).
 */
static void as_printed(struct abtest_result *r)
{
	r->diff = fmt_round(r->diff, COMPARE_US_DECIMALS);
	r->diff_lo = fmt_round(r->diff_lo, COMPARE_US_DECIMALS);
	r->diff_hi = fmt_round(r->diff_hi, COMPARE_US_DECIMALS);
	r->rel_pct = fmt_round(r->rel_pct, COMPARE_PCT_DECIMALS);
	r->rel_lo_pct = fmt_round(r->rel_lo_pct, COMPARE_PCT_DECIMALS);
	r->rel_hi_pct = fmt_round(r->rel_hi_pct, COMPARE_PCT_DECIMALS);
}

/*
 * Whether the change in @p r is too small to tell from the measurement's
 * own error: below the noise threshold, or below the floor of @p col (a
 * phase of 1 us that reads 0.1 us more grew by 10 %, and by less than the
 * layers resolve).
 */
static bool below_noise(const struct abtest_result *r, const struct metrics_column *col)
{
	if (fabs(r->diff) < col->floor_us)
		return true;
	return !isnan(r->rel_pct) && fabs(r->rel_pct) < COMPARE_NOISE_PCT;
}

/*
 * Whether the 95 % interval of @p r's change lies above zero: the
 * relative one, or the absolute one where the relative has no value or
 * is printed as 0.00 % (a change of 5 us in a median of 1 s: the absolute
 * interval, printed too, tells).
 */
static bool interval_above(const struct abtest_result *r)
{
	return isnan(r->rel_lo_pct) || r->rel_lo_pct == 0 ? r->diff_lo > 0 : r->rel_lo_pct > 0;
}

/* Whether it lies below zero. */
static bool interval_below(const struct abtest_result *r)
{
	return isnan(r->rel_hi_pct) || r->rel_hi_pct == 0 ? r->diff_hi < 0 : r->rel_hi_pct < 0;
}

/*
 * The verdict on @p r, a comparison of column @p col: a change of a column
 * that is not a cost is told neutrally, as more or less.
 */
static const char *verdict_of(const struct abtest_result *r, const struct metrics_column *col)
{
	if (!interval_above(r) && !interval_below(r))
		return verdict_unsure;
	if (below_noise(r, col))
		return verdict_same;
	if (col->sense != METRICS_COST)
		return r->diff > 0 ? verdict_more : verdict_less;
	return r->diff > 0 ? verdict_slower : verdict_faster;
}

/*
 * Whether @p col is a cost whose median grew by more than @p pct % and by
 * at least its floor, its interval above zero. A column that is not a cost,
 * or is the app's own time (metrics_gates()), never fails the gate.
 * From a median of 0 or below the relative change has no value (rel_pct
 * is NaN), and any growth is more than every percentage: the absolute
 * interval above zero is the test (a GPU column reading 0 in gated mode,
 * then 500 us, must fail the gate).
 */
static bool grew_past(const struct abtest_result *r, const struct metrics_column *col, double pct)
{
	if (!metrics_gates(col) || !(r->diff >= col->floor_us))
		return false;
	if (isnan(r->rel_pct))
		return r->diff_lo > 0;
	return r->rel_pct > pct && interval_above(r);
}

/*
 * @p v, a number given on the command line, as a JSON number that reads
 * back as the same value: the fewest decimals (up to 9) that give it,
 * else 17 significant digits. The gate uses it whole (0.0004 is not 0).
 */
static void json_given(struct jsonw *w, double v)
{
	for (int d = 0; d <= 9; d++) {
		if (fmt_round(v, d) == v) {
			jsonw_fixed(w, v, d);
			return;
		}
	}
	jsonw_sci(w, v, 17);
}

/* Compares one column; fills @p m. Returns 0, or -1 when out of memory. */
static int compare_one(const struct ncsv *t[2], const struct compare_args *a,
                       struct compare_metric *m)
{
	const struct ncsv_col *col[2] = {ncsv_col(t[0], m->col->name), ncsv_col(t[1], m->col->name)};
	static const char *const absent[2] = {"column absent in A", "column absent in B"};
	static const char *const empty[2] = {"no values in A", "no values in B"};
	static const char *const few[2] = {
		"fewer than " XRLM_STR(COMPARE_MIN_VALUES) " values in A: too few for an interval",
		"fewer than " XRLM_STR(COMPARE_MIN_VALUES) " values in B: too few for an interval"};
	double *v[2] = {NULL, NULL};
	size_t n[2] = {0, 0};
	int ret = 0;

	for (int s = 0; s < 2 && !m->skipped; s++)
		if (!col[s] || col[s]->text)
			m->skipped = absent[s];
	for (int s = 0; s < 2 && !m->skipped; s++) {
		v[s] = present_values(t[s], col[s], &n[s]);
		if (!v[s])
			ret = -1;
		else if (n[s] == 0)
			m->skipped = empty[s];
		else if (n[s] < COMPARE_MIN_VALUES)
			m->skipped = few[s];
	}
	if (ret == 0 && !m->skipped) {
		ret = abtest_compare(v[0], n[0], v[1], n[1], a->seed, COMPARE_RESAMPLES, &m->r);
		if (ret == 0 && !(isfinite(m->r.diff) && isfinite(m->r.diff_lo) && isfinite(m->r.diff_hi))) {
			m->skipped = "values out of range: their difference is no finite number";
			m->out_of_range = true;
		}
	}
	if (ret == 0 && !m->skipped) {
		as_printed(&m->r);
		m->verdict = verdict_of(&m->r, m->col);
		m->fails = a->has_fail_above && grew_past(&m->r, m->col, a->fail_above_pct);
	}
	free(v[0]);
	free(v[1]);
	return ret;
}

static const char *signed_fixed(char *buf, double v, int decimals)
{
	char num[FMT_NUM_MAX];

	if (isnan(v))
		return "n/a";
	fmt_fixed_str(num, v, decimals);
	snprintf(buf, FMT_NUM_MAX + 1, "%s%s", num[0] == '-' ? "" : "+", num);
	return buf;
}

static void print_metric_text(FILE *f, const struct compare_metric *m)
{
	char a[FMT_NUM_MAX + 1], b[FMT_NUM_MAX + 1], c[FMT_NUM_MAX + 1];
	const struct abtest_result *r = &m->r;

	if (m->skipped) {
		fprintf(f, "%s: not compared (%s)\n\n", m->col->name, m->skipped);
		return;
	}
	fprintf(f, "%s (%s): %s%s\n", m->col->name, m->col->label, m->verdict,
	        m->fails ? "  [FAIL: above --fail-above]" : "");
	fprintf(f, "    median  A %s us (%zu frames)", fmt_fixed_str(a, r->median_a, 3), r->n_a);
	fprintf(f, "   B %s us (%zu frames)\n", fmt_fixed_str(b, r->median_b, 3), r->n_b);
	fprintf(f, "    change  %s us [%s, ", signed_fixed(a, r->diff, COMPARE_US_DECIMALS),
	        signed_fixed(b, r->diff_lo, COMPARE_US_DECIMALS));
	fprintf(f, "%s]", signed_fixed(c, r->diff_hi, COMPARE_US_DECIMALS));
	fprintf(f, "   %s %% [%s %%, ", signed_fixed(a, r->rel_pct, COMPARE_PCT_DECIMALS),
	        signed_fixed(b, r->rel_lo_pct, COMPARE_PCT_DECIMALS));
	fprintf(f, "%s %%]   floor %g us\n", signed_fixed(c, r->rel_hi_pct, COMPARE_PCT_DECIMALS),
	        m->col->floor_us);
	fprintf(f, "    Mann-Whitney U %s, p %.3g\n", fmt_fixed_str(a, r->mw.u, 1), r->mw.p_value);
	if (m->col->sense != METRICS_COST)
		fprintf(f, "    not a cost (a paced app's time to spare): never fails --fail-above\n");
	else if (!metrics_gates(m->col))
		fprintf(f, "    the app's own time, whose spread from run to run is the app's: "
		           "never fails --fail-above\n");
	fputc('\n', f);
}

static void print_text(FILE *f, const struct compare_args *a, const struct ncsv *t[2],
                       const struct compare_metric *m, size_t n)
{
	char qa[QUOTE_PATH_MAX], qb[QUOTE_PATH_MAX];

	fprintf(f, "A: %s (%zu frames)\nB: %s (%zu frames)\n", quote_path(qa, a->path[0]),
	        t[0]->nrows, quote_path(qb, a->path[1]), t[1]->nrows);
	fprintf(f, "medians; 95 %% intervals from %d circular block-bootstrap resamples "
	           "(block ceil(n^(1/3)) frames, seed %" PRIu64 "); noise threshold %g %% "
	           "and each column's floor\n\n",
	        COMPARE_RESAMPLES, a->seed, COMPARE_NOISE_PCT);
	for (size_t i = 0; i < n; i++)
		print_metric_text(f, &m[i]);
}

static void json_interval(struct jsonw *w, double lo, double hi, int decimals)
{
	jsonw_array(w);
	jsonw_fixed(w, lo, decimals);
	jsonw_fixed(w, hi, decimals);
	jsonw_end(w);
}

static void json_side(struct jsonw *w, const char *key, size_t n, size_t block, double median)
{
	jsonw_key(w, key);
	jsonw_object(w);
	jsonw_key(w, "n");
	jsonw_uint(w, n);
	jsonw_key(w, "block_length");
	jsonw_uint(w, block);
	jsonw_key(w, "median_us");
	jsonw_fixed(w, median, 3);
	jsonw_end(w);
}

static void json_metric(struct jsonw *w, const struct compare_metric *m)
{
	const struct abtest_result *r = &m->r;

	jsonw_object(w);
	jsonw_key(w, "metric");
	jsonw_string(w, m->col->name);
	jsonw_key(w, "compared");
	jsonw_bool(w, !m->skipped);
	if (m->skipped) {
		jsonw_key(w, "reason");
		jsonw_string(w, m->skipped);
		jsonw_end(w);
		return;
	}
	json_side(w, "a", r->n_a, r->block_a, r->median_a);
	json_side(w, "b", r->n_b, r->block_b, r->median_b);
	jsonw_key(w, "diff_us");
	jsonw_fixed(w, r->diff, COMPARE_US_DECIMALS);
	jsonw_key(w, "diff_ci95_us");
	json_interval(w, r->diff_lo, r->diff_hi, COMPARE_US_DECIMALS);
	jsonw_key(w, "change_pct");
	jsonw_fixed(w, r->rel_pct, COMPARE_PCT_DECIMALS);
	jsonw_key(w, "change_ci95_pct");
	json_interval(w, r->rel_lo_pct, r->rel_hi_pct, COMPARE_PCT_DECIMALS);
	jsonw_key(w, "mann_whitney_u");
	jsonw_fixed(w, r->mw.u, 1);
	jsonw_key(w, "p_value");
	jsonw_sci(w, r->mw.p_value, 4);
	jsonw_key(w, "floor_us");
	jsonw_fixed(w, m->col->floor_us, 1);
	jsonw_key(w, "larger_is_worse");
	jsonw_bool(w, m->col->sense == METRICS_COST);
	jsonw_key(w, "gates");
	jsonw_bool(w, metrics_gates(m->col));
	jsonw_key(w, "verdict");
	jsonw_string(w, m->verdict);
	jsonw_key(w, "fails");
	jsonw_bool(w, m->fails);
	jsonw_end(w);
}

static void print_json(FILE *f, const struct compare_args *a, const struct ncsv *t[2],
                       const struct compare_metric *m, size_t n, bool failed)
{
	struct jsonw w;

	jsonw_init(&w, f);
	jsonw_object(&w);
	for (int s = 0; s < 2; s++) {
		jsonw_key(&w, s ? "b" : "a");
		jsonw_object(&w);
		jsonw_key(&w, "path");
		jsonw_string(&w, a->path[s]);
		jsonw_key(&w, "frames");
		jsonw_uint(&w, t[s]->nrows);
		jsonw_end(&w);
	}
	jsonw_key(&w, "seed");
	jsonw_uint(&w, a->seed);
	jsonw_key(&w, "resamples");
	jsonw_uint(&w, COMPARE_RESAMPLES);
	jsonw_key(&w, "noise_threshold_pct");
	jsonw_fixed(&w, COMPARE_NOISE_PCT, 1);
	jsonw_key(&w, "fail_above_pct");
	if (a->has_fail_above)
		json_given(&w, a->fail_above_pct);
	else
		jsonw_null(&w);
	jsonw_key(&w, "failed");
	jsonw_bool(&w, failed);
	jsonw_key(&w, "metrics");
	jsonw_array(&w);
	for (size_t i = 0; i < n; i++)
		json_metric(&w, &m[i]);
	jsonw_end(&w);
	jsonw_end(&w);
	fputc('\n', f);
}

/*
 * Reads both files, each a merged file (a file with no column to compare
 * would pass any --fail-above). Returns 0, or COMPARE_EXIT_TROUBLE after
 * one message.
 */
static int load(const struct compare_args *a, struct ncsv t[2])
{
	char err[NCSV_MSG_MAX];

	for (int s = 0; s < 2; s++) {
		if (ncsv_read(a->path[s], NULL, &t[s], err, sizeof(err)) != 0 ||
		    metrics_check_merged(&t[s], a->path[s], err, sizeof(err)) != 0) {
			for (int k = 0; k <= s; k++)
				ncsv_destroy(&t[k]);
			cmd_log(NULL, err);
			return COMPARE_EXIT_TROUBLE;
		}
		if (t[s].warning[0])
			cmd_log(NULL, t[s].warning);
		if (merged_rows_warning(a->path[s], ncsv_meta_value(&t[s], "frame_count"), t[s].nrows,
		                        err, sizeof(err)))
			cmd_log(NULL, err);
	}
	return 0;
}

static int run_compare(int argc, char **argv)
{
	struct compare_args a = {0};
	struct ncsv t[2];
	struct compare_metric m[32];
	size_t n = 0, compared = 0;
	bool failed = false, out_of_range = false;

	int ret = parse_compare_args(argc, argv, &a);
	if (ret != 0 || (ret = load(&a, t)) != 0)
		return ret;
	const struct ncsv *tp[2] = {&t[0], &t[1]};
	for (size_t i = 0; i < metrics_count && n < sizeof(m) / sizeof(m[0]); i++) {
		const char *name = metrics_columns[i].name;
		if (!ncsv_col(&t[0], name) && !ncsv_col(&t[1], name))
			continue;
		m[n] = (struct compare_metric){.col = &metrics_columns[i]};
		if (compare_one(tp, &a, &m[n]) != 0) {
			cmd_log(NULL, "error: out of memory");
			ret = COMPARE_EXIT_TROUBLE;
			break;
		}
		compared += !m[n].skipped;
		out_of_range |= m[n].out_of_range;
		failed |= m[n++].fails;
	}
	/* A gate must not pass on a run that recorded nothing to compare. */
	bool nothing = ret == 0 && a.has_fail_above && compared == 0;
	failed |= nothing;
	if (ret == 0) {
		if (a.json)
			print_json(stdout, &a, tp, m, n, failed);
		else
			print_text(stdout, &a, tp, m, n);
		if (cmd_finish_output(stdout) != 0)
			ret = COMPARE_EXIT_TROUBLE;
	}
	ncsv_destroy(&t[0]);
	ncsv_destroy(&t[1]);
	if (ret != 0)
		return ret;
	/* Values no difference can be taken of are not a merged file's: trouble, not a verdict. */
	if (out_of_range) {
		cmd_log(NULL, "error: a column's values are out of range (see \"not compared\" above): "
		              "these are not times a merge writes");
		return COMPARE_EXIT_TROUBLE;
	}
	/* Nothing compared is not a regression: the inputs could not be judged. */
	if (nothing) {
		cmd_log(NULL, "--fail-above: no column could be compared (values in both files, "
		              XRLM_STR(COMPARE_MIN_VALUES) " or more a side); with nothing compared, "
		              "the gate fails");
		return COMPARE_EXIT_TROUBLE;
	}
	return failed ? COMPARE_EXIT_REGRESSION : 0;
}

const struct cmd cmd_compare = {
	.name = "compare",
	.synopsis = "A.csv B.csv [--fail-above PCT] [--json] [--seed N]",
	.help = "compares two runs' merged files, column by column (target CPU and GPU\n"
	        "time, each phase, the frame interval, the app's columns): the medians,\n"
	        "their difference and relative change with 95 % block-bootstrap\n"
	        "intervals, the Mann-Whitney U p-value and a verdict (faster, slower,\n"
	        "no change below 1 % or below the column's floor: 1 us, 2 us for GPU\n"
	        "time and a phase of several calls, 3 us for target_total_us; no\n"
	        "significant change; more or less for app_wait_us, the wait a paced app\n"
	        "has to spare, which is not a cost). --fail-above PCT exits 1 when a\n"
	        "target column's or the frame interval's median grew by more than PCT %\n"
	        "and by its floor, and the interval excludes zero; the app_* columns\n"
	        "(the app's own time) never fail it. --json prints the same as JSON.\n"
	        "--seed N (default 1) seeds the resampling: the same files and seed\n"
	        "give the same output. Exit status as diff(1): 0 no regression (or no\n"
	        "--fail-above), 1 a regression past --fail-above, 2 trouble: bad\n"
	        "arguments, a missing or unreadable file, a file that is not a merged\n"
	        "file, a failed write, --fail-above with no column to compare, or\n"
	        "values out of range.\n",
	.run = run_compare,
	.exit_trouble = COMPARE_EXIT_TROUBLE,
};
