/*
 * `xrlm merge`: the same merge the post layer runs, from the command line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "cmd_sessions.h"
#include "heap.h"
#include "merge.h"
#include "merge_early.h"
#include "quote.h"
#include "sessions.h"
#include "table.h"
#include "u_parse.h"
#include "workers.h"

struct merge_args {
	const char *pre, *post, *gpu_pre, *gpu_post, *out, *threads;
	bool no_gpu, no_calls, all;
	bool dir; /* one operand, a directory (held in pre): merge DIR */
};

/*
 * merge DIR takes the options that apply to every session alike; the
 * others name one session's files or print its per-function table, which
 * merge DIR does not. Returns 0, or CMD_EXIT_USAGE naming the option.
 */
static int check_dir_options(const struct merge_args *a)
{
	if (a->out)
		return cmd_usage_error("merge DIR does not take -o/--output",
		                       "each merged file goes beside its session");
	if (a->gpu_pre || a->gpu_post)
		return cmd_usage_error("merge DIR does not take --gpu-pre/--gpu-post",
		                       "each session's own GPU files are used");
	if (a->all)
		return cmd_usage_error("merge DIR does not take --all", "it prints no per-function table");
	return 0;
}

static int parse_merge_args(int argc, char **argv, struct merge_args *a)
{
	static const char *const names[] = {"--gpu-pre", "--gpu-post", "-o", "--output", "--threads"};
	int positional = 0, ret;

	for (int i = 0; i < argc; i++) {
		const char **const slots[] = {&a->gpu_pre, &a->gpu_post, &a->out, &a->out, &a->threads};
		int matched = cmd_options(argc, argv, &i, names, slots, sizeof(names) / sizeof(names[0]));
		if (matched == CMD_EXIT_USAGE)
			return matched;
		if (matched)
			continue;
		if (strcmp(argv[i], "--no-gpu") == 0) {
			a->no_gpu = true;
		} else if (strcmp(argv[i], "--no-calls") == 0) {
			a->no_calls = true;
		} else if (strcmp(argv[i], "--all") == 0) {
			a->all = true;
		} else if (cmd_is_option(argv[i])) {
			return cmd_usage_error("unknown option", argv[i]);
		} else if (positional == 0) {
			a->pre = argv[i];
			positional++;
		} else if (positional == 1) {
			a->post = argv[i];
			positional++;
		} else {
			return cmd_usage_error("unexpected argument", argv[i]);
		}
	}
	a->dir = positional == 1 && sessions_is_dir(a->pre);
	if (a->dir && (ret = check_dir_options(a)) != 0)
		return ret;
	if (!a->dir && positional < 2)
		return cmd_usage_error("merge needs PRE.csv and POST.csv, or a directory", NULL);
	if (a->no_gpu && (a->gpu_pre || a->gpu_post))
		return cmd_usage_error("--no-gpu conflicts with --gpu-pre/--gpu-post", NULL);
	_Static_assert(WORKERS_MAX == 8, "the --threads message says 1 to 8");
	uint64_t threads;
	if (a->threads && u_parse_u64(a->threads, 1, WORKERS_MAX, &threads) != U_PARSE_OK)
		return cmd_usage_error("--threads must be 1 to 8", a->threads);
	if (a->threads)
		workers_set_max((unsigned)threads);
	return 0;
}

/*
 * The heap worth faulting in ahead of a merge of @p p's files: about 1.5
 * times its input plus its fixed buffers, up to 32 MiB. The bound was 16
 * MiB while the merge's thread starts mapped their stacks: they waited
 * for the memory map that a page being faulted in holds (at 48 MiB the
 * main thread of a merge of 10^5 frames with calls files lost 6-8 ms so,
 * tenth session). With thread.c's reserve, which maps nothing, 32 MiB
 * made that merge ~3 ms faster and 10^5 frames ~0.7 ms, peak RSS the
 * same; 64 and 128 MiB no faster (bench/RESULTS.md, thirteenth session).
 * With calls files, the rows formatted while the sandwich runs are held
 * until the summary is written: their bytes too (merge_early.h).
 * The rest is faulted in by the threads that use it.
 */
static size_t expected_heap(const struct merge_paths *p)
{
	const char *files[] = {p->pre_csv, p->post_csv, p->gpu_pre_csv, p->gpu_post_csv,
	                       p->calls_pre_csv, p->calls_post_csv};
	size_t input = 0, fixed = (size_t)4 << 20;
	size_t bound = (size_t)32 << 20;
	struct stat st;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (files[i] && stat(files[i], &st) == 0 && st.st_size > 0)
			input += (size_t)st.st_size;
	if (input > bound)
		return bound;
	size_t heap = fixed + input + input / 2;
	if (p->calls_pre_csv && p->calls_post_csv && stat(p->pre_csv, &st) == 0 && st.st_size > 0)
		heap += merge_early_bytes((uint64_t)st.st_size / MERGE_FRAME_ROW_BYTES);
	return heap < bound ? heap : bound;
}

/*
 * The heap's first bytes left to 4 KiB pages (heap_prefault_start()) when
 * calls files are merged: their readers start at once, on threads of
 * their own, and their first buffers (and the frames files' read
 * buffers) waited for 2 MiB pages being cleared: 10^4 frames with calls
 * files ~1 ms faster. Without calls files the same made 3 * 10^4 frames
 * 0.7 ms slower (10^4 no faster): their join's buffers are better served
 * by pages faulted in ahead. None then.
 */
#define CALLS_SMALL_HEAP ((size_t)4 << 20)

/* Merges @p paths into @p out, the heap's fresh pages faulted in beside it. */
static int merge_prefaulted(const struct merge_paths *paths, const char *out,
                            struct merge_summary *s)
{
	unsigned cpus = workers_max();
	bool calls = paths->calls_pre_csv && paths->calls_post_csv;

	heap_prefault_start(expected_heap(paths), cpus > 1 ? cpus - 1 : 0,
	                    calls ? CALLS_SMALL_HEAP : 0);
	int ret = merge_files(paths, out, s, cmd_log, NULL);
	heap_prefault_finish();
	return ret;
}

/*
 * Neither output (the merged file; with calls files, the functions file)
 * may be one of the merge's inputs.
 */
static int check_outputs(const struct merge_paths *p, const char *out)
{
	const char *const inputs[] = {p->pre_csv, p->post_csv, p->gpu_pre_csv,
	                              p->gpu_post_csv, p->calls_pre_csv, p->calls_post_csv};
	const size_t n = sizeof(inputs) / sizeof(inputs[0]);
	char functions[MERGE_PATH_MAX];
	int ret = cmd_check_output(out, inputs, n);

	if (ret == 0 && p->calls_pre_csv && p->calls_post_csv &&
	    merge_functions_path(out, functions, sizeof(functions)) == 0)
		ret = cmd_check_output(functions, inputs, n);
	return ret;
}

static int run_merge(int argc, char **argv)
{
	struct merge_args a = {0};
	struct merge_siblings sib;
	struct merge_summary s;

	int ret = parse_merge_args(argc, argv, &a);
	if (ret != 0)
		return ret;
	if (a.dir) {
		const struct cmd_merge_dir_options opts = {a.no_gpu, a.no_calls};
		return cmd_merge_dir(a.pre, &opts);
	}

	bool derived = merge_sibling_paths(a.pre, a.post, &sib) == 0;
	if (!a.out && !derived)
		return cmd_usage_error("cannot derive the output name (PRE is not named "
		                       "frames-<tag>-pre.csv); give -o OUT", NULL);

	struct merge_paths paths = {
		.pre_csv = a.pre,
		.post_csv = a.post,
		.gpu_pre_csv = a.gpu_pre,
		.gpu_post_csv = a.gpu_post,
	};
	if (!a.no_gpu && derived) {
		if (!paths.gpu_pre_csv && sib.gpu_pre_csv[0])
			paths.gpu_pre_csv = sib.gpu_pre_csv;
		if (!paths.gpu_post_csv && sib.gpu_post_csv[0])
			paths.gpu_post_csv = sib.gpu_post_csv;
	}
	if (!a.no_calls && derived) {
		paths.calls_pre_csv = sib.calls_pre_csv[0] ? sib.calls_pre_csv : NULL;
		paths.calls_post_csv = sib.calls_post_csv[0] ? sib.calls_post_csv : NULL;
	}
	const char *out = a.out ? a.out : sib.merged_csv;
	if ((ret = check_outputs(&paths, out)) != 0)
		return ret;

	if (merge_prefaulted(&paths, out, &s) != 0)
		return CMD_EXIT_INPUT;
	table_print(stdout, &s);
	char functions[MERGE_PATH_MAX];
	if (s.has_calls && merge_functions_path(out, functions, sizeof(functions)) == 0)
		ret = cmd_print_functions(functions, s.frame_count, a.all);
	char q[QUOTE_PATH_MAX];
	printf("wrote %s\n", quote_path(q, out));
	if (s.has_calls)
		printf("wrote %s\n", quote_path(q, functions));
	int status = cmd_finish_output(stdout);
	return ret ? ret : status;
}

const struct cmd cmd_merge = {
	.name = "merge",
	.synopsis = "PRE.csv POST.csv [--gpu-pre F] [--gpu-post F] [--no-gpu] [--no-calls] [--all] "
	            "[--threads N] [-o OUT] | DIR [--no-gpu] [--no-calls] [--threads N]",
	.help = "joins a session's per-side files (frames-<tag>-pre.csv and\n"
	        "frames-<tag>-post.csv) into frames-merged-<tag>.csv next to PRE\n"
	        "(or OUT; an existing file is never overwritten). The sibling\n"
	        "gpu-<tag>-pre.csv / gpu-<tag>-post.csv files are used when they\n"
	        "exist, unless --gpu-pre/--gpu-post name others or --no-gpu is given.\n"
	        "The sibling calls-<tag>-pre.csv / calls-<tag>-post.csv files, when\n"
	        "both exist (and unless --no-calls), add the every-function columns\n"
	        "and functions-merged-<tag>.csv (next to OUT: OUT's name with\n"
	        ".functions.csv when OUT is not named frames-merged-<tag>.csv).\n"
	        "Prints count/mean/median/p95/p99/min/max of the target layer's CPU\n"
	        "and GPU time, both in microseconds and as a share of the frame, then\n"
	        "the 15 functions with the most target time (--all: every one).\n"
	        "--threads N (1 to 8): threads for the parallel parts (formatting the\n"
	        "rows, the statistics); default: the CPUs xrlm may run on, at most 8.\n"
	        "The merged file's bytes do not depend on it.\n"
	        "With DIR: merges every session there that has both per-side files,\n"
	        "no merged file and no writer still running (what a kill leaves),\n"
	        "one line each; exit status 1 if any failed. --no-gpu, --no-calls\n"
	        "and --threads apply to every session; -o, --gpu-pre, --gpu-post\n"
	        "and --all are refused there.\n",
	.run = run_merge,
};
