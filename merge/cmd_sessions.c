/*
 * `xrlm ls DIR` and `xrlm merge DIR`: the sessions of an output directory.
 */
#include "cmd_sessions.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "csvr.h"
#include "merge.h"
#include "merged_read.h"
#include "out_file.h"
#include "quote.h"
#include "sessions.h"
#include "side_cpu.h"

/* Checks @p dir is a directory, for a usage error rather than a read error. */
static int check_dir(const char *dir, const char *cmd)
{
	struct stat st;
	char q[QUOTE_PATH_MAX];

	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "xrlm: %s: error: not a directory (%s)\n", quote_path(q, dir), cmd);
		return CMD_EXIT_USAGE;
	}
	return 0;
}

/* ---- ls ---- */

/* One session's line. */
struct ls_row {
	char pre[24], post[24];  /* frame counts, or "-" / "?" */
	char gpu[16];
	char state[96];
	bool bad;                /* a file could not be read */
};

/* The rows of a per-side CPU file, as text; "?" with a message when unreadable. */
static void side_frames(const struct sessions *s, const struct sessions_entry *e,
                        enum sessions_file which, char *out, size_t size, bool *bad)
{
	char path[MERGE_PATH_MAX];
	struct side_cpu_file f;

	snprintf(out, size, "-");
	if (!e->has[which] || sessions_path(s, e, which, path, sizeof(path)) != 0)
		return;
	if (side_cpu_read(path, which == SESSIONS_FRAMES_PRE ? "pre" : "post", &f) != 0) {
		cmd_log(NULL, f.diag.error);
		snprintf(out, size, "?");
		*bad = true;
	} else {
		snprintf(out, size, "%zu", f.count);
	}
	side_cpu_destroy(&f);
}

/* The merged file's summary value frame_count. */
struct frame_count_ctx {
	char value[32];
};

static int keep_frame_count(void *ctx, const char *key, const char *value, char *msg,
                            size_t msg_size)
{
	struct frame_count_ctx *fc = ctx;
	(void)msg;
	(void)msg_size;

	if (strcmp(key, "frame_count") == 0) {
		snprintf(fc->value, sizeof(fc->value), "%s", value);
		quote_text(fc->value); /* the file's text, bound for the terminal */
	}
	return 0;
}

/* "merged, N frames" from the merged file's summary. */
static void merged_state(const struct sessions *s, const struct sessions_entry *e,
                         struct ls_row *row)
{
	char path[MERGE_PATH_MAX];
	static const struct merged_read_cb cb = {.summary = keep_frame_count};
	struct frame_count_ctx fc = {""};
	struct csvr_diag diag = {.error = "path too long"};

	if (sessions_path(s, e, SESSIONS_MERGED, path, sizeof(path)) != 0 ||
	    merged_read_each(path, &cb, &fc, &diag) != 0) {
		cmd_log(NULL, diag.error);
		snprintf(row->state, sizeof(row->state), "merged, unreadable");
		row->bad = true;
		return;
	}
	for (int i = 0; i < diag.warning_count; i++)
		cmd_log(NULL, diag.warnings[i]);
	quote_text(fc.value);
	snprintf(row->state, sizeof(row->state), "merged, %s frames", fc.value[0] ? fc.value : "?");
}

static void describe(const struct sessions *s, const struct sessions_entry *e, struct ls_row *row)
{
	bool pre = e->has[SESSIONS_FRAMES_PRE], post = e->has[SESSIONS_FRAMES_POST];
	bool gpre = e->has[SESSIONS_GPU_PRE], gpost = e->has[SESSIONS_GPU_POST];

	memset(row, 0, sizeof(*row));
	side_frames(s, e, SESSIONS_FRAMES_PRE, row->pre, sizeof(row->pre), &row->bad);
	side_frames(s, e, SESSIONS_FRAMES_POST, row->post, sizeof(row->post), &row->bad);
	snprintf(row->gpu, sizeof(row->gpu), "%s", gpre && gpost ? "pre+post" : gpre ? "pre" :
	                                            gpost ? "post" : "-");
	enum sessions_writer writer = e->has[SESSIONS_MERGED] ? SESSIONS_WRITER_GONE
	                                                      : sessions_writer(s, e);
	if (e->has[SESSIONS_MERGED])
		merged_state(s, e, row);
	else if (writer == SESSIONS_WRITER_RECORDING)
		snprintf(row->state, sizeof(row->state), "recording? (pid %d is running)", (int)e->pid);
	else if (writer == SESSIONS_WRITER_MERGING)
		snprintf(row->state, sizeof(row->state), "stopped, its app merges it (pid %d is running)",
		         (int)e->pid);
	else if (pre && post)
		snprintf(row->state, sizeof(row->state), "not merged (xrlm merge DIR)");
	else
		snprintf(row->state, sizeof(row->state), "incomplete: no %s file",
		         pre ? "post" : post ? "pre" : "per-side");
}

static int run_ls(int argc, char **argv)
{
	struct sessions s;
	char msg[CSVR_MSG_MAX], q[QUOTE_PATH_MAX];
	bool bad = false;

	if (argc != 1)
		return cmd_usage_error(argc ? "ls takes one directory" : "ls needs DIR",
		                       argc > 1 ? argv[1] : NULL);
	if (cmd_is_option(argv[0]))
		return cmd_usage_error("unknown option", argv[0]);
	int ret = check_dir(argv[0], "ls lists a directory");
	if (ret)
		return ret;
	if (sessions_scan(argv[0], &s, msg, sizeof(msg)) != 0) {
		cmd_log(NULL, msg);
		return CMD_EXIT_INPUT;
	}
	if (s.n == 0)
		printf("no sessions in %s\n", quote_path(q, argv[0]));
	else
		printf("%-28s %-19s %9s %9s %-8s %s\n", "SESSION", "STARTED", "PRE", "POST", "GPU",
		       "STATE");
	for (size_t i = 0; i < s.n; i++) {
		struct ls_row row;
		char start[32];
		describe(&s, &s.v[i], &row);
		sessions_start_text(&s.v[i], start, sizeof(start));
		printf("%-28s %-19s %9s %9s %-8s %s\n", quote_path(q, s.v[i].tag), start, row.pre,
		       row.post, row.gpu, row.state);
		bad |= row.bad;
	}
	sessions_destroy(&s);
	ret = cmd_finish_output(stdout);
	return ret ? ret : bad ? CMD_EXIT_INPUT : 0;
}

const struct cmd cmd_ls = {
	.name = "ls",
	.synopsis = "DIR",
	.help = "lists the recording sessions in an output directory, oldest\n"
	        "first: tag, start time, frames in each per-side file, GPU files,\n"
	        "and whether the session is merged (with its frame count), still\n"
	        "recording, or left unmerged by a kill (then: xrlm merge DIR).\n",
	.run = run_ls,
};

/* ---- merge DIR ---- */

/*
 * Merges session @p e as @p opts says; prints its one line. Returns 0, 1
 * when another process is merging it already (skipped), or -1.
 */
static int merge_one(const struct sessions *s, const struct sessions_entry *e,
                     const struct cmd_merge_dir_options *opts)
{
	char pre[MERGE_PATH_MAX], post[MERGE_PATH_MAX], q[QUOTE_PATH_MAX], qm[QUOTE_PATH_MAX];
	struct merge_siblings sib;
	struct merge_summary sum;
	/* sessions.c takes digits only; quoted all the same, as every name shown. */
	const char *tag = quote_path(q, e->tag);

	if (sessions_path(s, e, SESSIONS_FRAMES_PRE, pre, sizeof(pre)) != 0 ||
	    sessions_path(s, e, SESSIONS_FRAMES_POST, post, sizeof(post)) != 0 ||
	    merge_sibling_paths(pre, post, &sib) != 0) {
		fprintf(stderr, "xrlm: %s: error: path too long\n", quote_path(qm, s->dir));
		return -1;
	}
	/* Another xrlm merging this session now (its merged file's temporary
	 * file open from its start): its files are not a merge cut short's. */
	pid_t merging = out_file_writer(sib.merged_csv);
	if (merging) {
		printf("%s: skipped: pid %d is merging it\n", tag, (int)merging);
		return 1;
	}
	/* What a merge the kill cut short left behind goes first. */
	unsigned stale = out_file_remove_stale(sib.merged_csv) +
	                 (sib.functions_csv[0] ? out_file_remove_stale(sib.functions_csv) : 0);
	if (stale)
		printf("%s: removed %u temporary file%s of a merge cut short\n", tag, stale,
		       stale == 1 ? "" : "s");
	/* A functions file without its merged file (placed first, then the
	 * merge was killed) is a merge cut short's too: it would stop this one. */
	struct stat st;
	if (sib.functions_csv[0] && lstat(sib.functions_csv, &st) == 0 && S_ISREG(st.st_mode) &&
	    unlink(sib.functions_csv) == 0)
		printf("%s: removed the functions file of a merge cut short\n", tag);
	struct merge_paths paths;
	merge_paths_from_siblings(&sib, pre, &paths);
	paths.post_csv = post;
	if (opts->no_gpu)
		paths.gpu_pre_csv = paths.gpu_post_csv = NULL;
	if (opts->no_calls)
		paths.calls_pre_csv = paths.calls_post_csv = NULL;
	if (merge_files(&paths, sib.merged_csv, &sum, cmd_log, NULL) != 0)
		return -1;
	printf("%s: merged %" PRIu64 " frames into %s\n", tag, sum.frame_count,
	       quote_path(qm, sib.merged_csv));
	return 0;
}

/*
 * Whether session @p e's merged file is empty and so removed: what a
 * crash or a power loss soon after a merge can leave (no merge writes one:
 * its file takes its place whole, renamed, but unsynced: merge/README.md),
 * its session's files then merged again. Said on stdout.
 */
static bool merged_file_empty(const struct sessions *s, const struct sessions_entry *e)
{
	char path[MERGE_PATH_MAX], q[QUOTE_PATH_MAX];
	struct stat st;

	if (sessions_path(s, e, SESSIONS_MERGED, path, sizeof(path)) != 0 ||
	    lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0 || unlink(path) != 0)
		return false;
	printf("%s: removed its empty merged file (left by a crash or a power loss?)\n",
	       quote_path(q, e->tag));
	return true;
}

int cmd_merge_dir(const char *dir, const struct cmd_merge_dir_options *opts)
{
	struct sessions s;
	char msg[CSVR_MSG_MAX], q[QUOTE_PATH_MAX];
	unsigned merged = 0, failed = 0;

	int ret = check_dir(dir, "merge takes PRE.csv POST.csv, or a directory");
	if (ret)
		return ret;
	if (sessions_scan(dir, &s, msg, sizeof(msg)) != 0) {
		cmd_log(NULL, msg);
		return CMD_EXIT_INPUT;
	}
	for (size_t i = 0; i < s.n; i++) {
		const struct sessions_entry *e = &s.v[i];
		bool pre = e->has[SESSIONS_FRAMES_PRE], post = e->has[SESSIONS_FRAMES_POST];
		if (e->has[SESSIONS_MERGED] && !(pre && post && merged_file_empty(&s, e)))
			continue;
		if (!pre || !post) {
			printf("%s: skipped: no %s file\n", quote_path(q, e->tag),
			       pre ? "post" : post ? "pre" : "per-side frames");
			continue;
		}
		enum sessions_writer writer = sessions_writer(&s, e);
		if (writer != SESSIONS_WRITER_GONE) {
			printf("%s: skipped: pid %d is still running (%s)\n", quote_path(q, e->tag),
			       (int)e->pid,
			       writer == SESSIONS_WRITER_MERGING ? "its post layer merges the session"
			                                         : "recording?");
			continue;
		}
		/* Each message is flushed in order with the merge's stderr lines. */
		fflush(stdout);
		int r = merge_one(&s, e, opts);
		if (r == 0)
			merged++;
		else if (r < 0)
			failed++;
	}
	if (merged + failed == 0)
		printf("nothing to merge in %s (%zu session%s)\n", quote_path(q, dir), s.n,
		       s.n == 1 ? "" : "s");
	sessions_destroy(&s);
	ret = cmd_finish_output(stdout);
	return ret ? ret : failed ? CMD_EXIT_INPUT : 0;
}
