/*
 * `xrlm trace SESSION-FILE-OR-DIR [-o FILE.json] [--from X] [--to Y]
 * [--max-size MB]`: a recorded session as Chrome Trace Event JSON for
 * Perfetto UI or chrome://tracing (README, "Timeline view: xrlm trace").
 *
 * This file finds the session's files, reads the command line and writes
 * the document under a temporary name; the passes that stream the rows
 * into it are trace_cpu.c's and trace_gpu.c's. Nothing is held in
 * proportion to the session's length.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "out_file.h"
#include "quote.h"
#include "trace_job.h"
#include "u_parse.h"

/* Past this size a viewer struggles (chrome://tracing near 256 MB): warned about. */
#define DEFAULT_MAX_MB 256

struct trace_args {
	const char *in, *out, *from, *to, *max_mb;
};

static const char *const side_names[2] = {U_NAMES_PRE, U_NAMES_POST};

static int parse_trace_args(int argc, char **argv, struct trace_args *a)
{
	static const char *const names[] = {"-o", "--output", "--from", "--to", "--max-size"};
	const char **const slots[] = {&a->out, &a->out, &a->from, &a->to, &a->max_mb};

	return cmd_parse_args(argc, argv, names, slots, sizeof(names) / sizeof(names[0]), &a->in,
	                      "trace needs a session's file or directory");
}

static int parse_bound(const char *text, struct trace_bound *b)
{
	uint64_t id;

	b->set = true;
	b->frame = text[0] == 'f';
	if (b->frame) {
		if (u_parse_u64(text + 1, 0, INT64_MAX, &id) != U_PARSE_OK)
			return -1;
		b->frame_id = (int64_t)id;
		return 0;
	}
	return u_parse_double(text, 0.0, 1e9, &b->seconds) == U_PARSE_OK ? 0 : -1;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The one session of directory @p dir (its tag into @p tag). */
static int session_of_dir(const char *dir, char *tag, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	char q[QUOTE_PATH_MAX];

	if (!d) {
		fprintf(stderr, "xrlm: %s: %s\n", quote_path(q, dir), strerror(errno));
		return CMD_EXIT_INPUT;
	}
	while ((e = readdir(d)) != NULL) {
		struct u_names_parsed n;
		if (!u_names_parse(e->d_name, &n) || !u_names_is(&n, U_NAMES_FRAMES, U_NAMES_PRE) ||
		    (found && strcmp(n.tag, tag) == 0))
			continue;
		if (found++) {
			closedir(d);
			fprintf(stderr, "xrlm: %s holds several sessions: name one of its files\n",
			        quote_path(q, dir));
			return CMD_EXIT_USAGE;
		}
		snprintf(tag, size, "%s", n.tag);
	}
	closedir(d);
	if (!found) {
		fprintf(stderr, "xrlm: %s holds no session (no frames-<tag>-pre.csv)\n",
		        quote_path(q, dir));
		return CMD_EXIT_INPUT;
	}
	return 0;
}

/* Side @p s's file of @p kind into @p out: "" unless it is a regular file. */
static void optional_file(const struct trace_job *j, const char *kind, int s,
                          char out[MERGE_PATH_MAX])
{
	if (u_names_side_file(out, MERGE_PATH_MAX, j->dir, kind, j->tag, side_names[s]) < 0 ||
	    !is_file(out))
		out[0] = '\0';
}

/*
 * A file the trace cannot do without: 0 when it is a regular file, else
 * the error said. A FIFO or a device is named as what it is, not as absent.
 */
static int check_needed_file(const struct trace_job *j, int s)
{
	struct stat st;
	char qt[QUOTE_PATH_MAX], q[QUOTE_PATH_MAX];

	if (stat(j->cpu[s], &st) != 0) {
		if (errno == ENOENT)
			fprintf(stderr, "xrlm: session %s has no %s file: %s\n", quote_path(qt, j->tag),
			        side_names[s], quote_path(q, j->cpu[s]));
		else
			fprintf(stderr, "xrlm: %s: %s\n", quote_path(q, j->cpu[s]), strerror(errno));
		return CMD_EXIT_INPUT;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "xrlm: %s: not a regular file\n", quote_path(q, j->cpu[s]));
		return CMD_EXIT_INPUT;
	}
	return 0;
}

/* Finds the session's files from a file of it or its directory. */
static int find_session(const char *in, struct trace_job *j)
{
	struct stat st;
	struct u_names_parsed n;
	char q[QUOTE_PATH_MAX];

	if (stat(in, &st) != 0) {
		fprintf(stderr, "xrlm: %s: %s\n", quote_path(q, in), strerror(errno));
		return CMD_EXIT_INPUT;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(j->dir, sizeof(j->dir), "%s", in);
		int ret = session_of_dir(in, j->tag, sizeof(j->tag));
		if (ret)
			return ret;
	} else {
		if (!u_names_parse(in, &n)) {
			fprintf(stderr, "xrlm: %s: not a session file (<kind>-<tag>-<side>.csv)\n",
			        quote_path(q, in));
			return CMD_EXIT_USAGE;
		}
		snprintf(j->dir, sizeof(j->dir), "%.*s", n.dir_len ? n.dir_len - 1 : 1,
		         n.dir_len ? in : ".");
		snprintf(j->tag, sizeof(j->tag), "%s", n.tag);
	}
	for (int s = 0; s < 2; s++) {
		optional_file(j, U_NAMES_GPU, s, j->gpu[s]);
		optional_file(j, U_NAMES_CALLS, s, j->cpu[s]);
	}
	j->calls = j->cpu[0][0] && j->cpu[1][0];
	optional_file(j, U_NAMES_FRAMES, 0, j->frames_pre);
	for (int s = 0; !j->calls && s < 2; s++)
		u_names_side_file(j->cpu[s], sizeof(j->cpu[s]), j->dir, U_NAMES_FRAMES, j->tag,
		                  side_names[s]);
	for (int s = 0; s < 2; s++) {
		int ret = check_needed_file(j, s);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A session with one side's calls or GPU file only is traced without them
 * (the calls of every function, the target's GPU slices), as the merge
 * leaves their columns out: said in the merge's words, not silently.
 */
static void say_one_side_files(const struct trace_job *j)
{
	char calls[2][MERGE_PATH_MAX], msg[2 * MERGE_PATH_MAX + 128];

	if (merge_one_side_warning(msg, sizeof(msg), "GPU", j->gpu[0], j->gpu[1],
	                           "target GPU slices left out"))
		cmd_log(NULL, msg);
	if (j->calls)
		return;
	for (int s = 0; s < 2; s++)
		optional_file(j, U_NAMES_CALLS, s, calls[s]);
	if (merge_one_side_warning(msg, sizeof(msg), "calls", calls[0], calls[1],
	                           "only xrEndFrame traced, from the frames files"))
		cmd_log(NULL, msg);
}

/* " --from X" or " --to Y" as given (seconds or a frame id) into @p buf; "" when unset. */
static void bound_text(const char *option, const struct trace_bound *b, char *buf, size_t size)
{
	if (!b->set)
		buf[0] = '\0';
	else if (b->frame)
		snprintf(buf, size, " %s f%" PRId64, option, b->frame_id);
	else
		snprintf(buf, size, " %s %g", option, b->seconds);
}

/*
 * A window that holds no event is an error, not a trace of metadata only:
 * one line naming it and the span of the session's calls.
 */
static void say_empty_window(const struct trace_job *j)
{
	char from[64], to[64], q[QUOTE_PATH_MAX];
	const char *tag = quote_path(q, j->tag);

	bound_text("--from", &j->from, from, sizeof(from));
	bound_text("--to", &j->to, to, sizeof(to));
	if (!j->have_first) {
		fprintf(stderr, "xrlm: the window%s%s holds no event: session %s has no calls\n",
		        from, to, tag);
		return;
	}
	fprintf(stderr, "xrlm: the window%s%s holds no event: session %s runs from 0 to %.3f s, "
	        "frames f%" PRId64 " to f%" PRId64 "\n", from, to, tag,
	        (double)(j->last_ns - j->first_ns) / 1e9, j->first_frame_id, j->last_frame_id);
}

/* The one line of a failed write of trace @p path (errno says why). */
static void say_write_failed(const char *path)
{
	char q[QUOTE_PATH_MAX];
	int err = errno;

	fprintf(stderr, "xrlm: writing %s failed: %s\n", quote_path(q, path), strerror(err));
}

/* Writes the whole document to @p f, the trace @p path (for messages). */
static int write_trace(struct trace_job *j, FILE *f, const char *path)
{
	char pre[300], post[300], target[300];

	trace_out_begin(&j->out, f, j->from_ns, j->to_ns);
	if (trace_cpu_run(j) != 0 || trace_gpu_run(j) != 0)
		return -1;
	/* Only metadata is written after this. */
	if (j->out.events == 0 && (j->from.set || j->to.set)) {
		say_empty_window(j);
		return -1;
	}
	snprintf(pre, sizeof(pre), "pre (%s)", j->layer[0][0] ? j->layer[0] : "pre");
	snprintf(post, sizeof(post), "post (%s)", j->layer[1][0] ? j->layer[1] : "post");
	snprintf(target, sizeof(target), "target (%s)",
	         j->target_layer[0] ? j->target_layer : "unknown");
	struct trace_out_names names = {pre, post, target, j->tag, j->target_layer};
	if (trace_out_end(&j->out, &names) != 0) {
		say_write_failed(path);
		return -1;
	}
	return 0;
}

/* Writes the trace under a temporary name and puts it in place whole. */
static int write_file(struct trace_job *j, const char *path)
{
	char tmp[MERGE_PATH_MAX], msg[MERGE_PATH_MAX + 128], q[QUOTE_PATH_MAX];
	int fd;

	out_file_clear_stale(path);
	fd = out_file_create_tmp(path, tmp, sizeof(tmp), msg, sizeof(msg));
	if (fd < 0) {
		fprintf(stderr, "xrlm: %s\n", msg);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		out_file_discard(tmp);
		fprintf(stderr, "xrlm: %s: %s\n", quote_path(q, tmp), strerror(errno));
		return -1;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	int rc = write_trace(j, f, path);
	if (fclose(f) != 0 && rc == 0) {
		say_write_failed(path);
		rc = -1;
	}
	if (rc != 0) {
		out_file_discard(tmp);
		return -1;
	}
	if (out_file_place(tmp, path, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "xrlm: %s\n", msg);
		return -1;
	}
	return 0;
}

/*
 * The output must not be one of the files the trace is read from, nor be
 * there already: refused before the session is read, not after.
 */
static int check_output(const struct trace_job *j, const char *path)
{
	const char *const inputs[] = {j->cpu[0], j->cpu[1], j->gpu[0], j->gpu[1], j->frames_pre};
	char msg[MERGE_PATH_MAX + 64]; /* a path shown whole when it needs no escape */

	int ret = cmd_check_output(path, inputs, sizeof(inputs) / sizeof(inputs[0]));
	if (ret == 0 && out_file_check_new(path, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "xrlm: %s\n", msg);
		ret = CMD_EXIT_INPUT;
	}
	return ret;
}

static int setup_job(const struct trace_args *a, struct trace_job *j, uint64_t *max_mb)
{
	*max_mb = DEFAULT_MAX_MB;
	if (a->from && parse_bound(a->from, &j->from) != 0)
		return cmd_usage_error("--from takes seconds (2.5) or a frame id (f120)", a->from);
	if (a->to && parse_bound(a->to, &j->to) != 0)
		return cmd_usage_error("--to takes seconds (2.5) or a frame id (f120)", a->to);
	if (a->max_mb && u_parse_u64(a->max_mb, 1, 1u << 20, max_mb) != U_PARSE_OK)
		return cmd_usage_error("--max-size takes megabytes, 1 to 1048576", a->max_mb);
	int ret = find_session(a->in, j);
	if (ret)
		return ret;
	if (trace_cpu_window(j) != 0)
		return CMD_EXIT_INPUT;
	/* An empty window would write a trace with nothing in it, silently:
	 * bounds the wrong way round are seen before any work; a window that
	 * holds no event of the session (a frame bound past its frames is
	 * left at INT64_MAX or INT64_MIN) as the trace is written
	 * (write_trace()). */
	if (a->from && a->to && j->from_ns != INT64_MAX && j->to_ns != INT64_MIN &&
	    j->from_ns > j->to_ns)
		return cmd_usage_error("--from is after --to: the window is empty", a->from);
	return 0;
}

static int run_trace(int argc, char **argv)
{
	struct trace_args a = {0};
	struct trace_job *j = calloc(1, sizeof(*j));
	char out[MERGE_PATH_MAX + U_NAMES_TAG_MAX + 16], q[QUOTE_PATH_MAX];
	uint64_t max_mb;
	struct stat st;

	if (!j) {
		fprintf(stderr, "xrlm: out of memory\n");
		return CMD_EXIT_INPUT;
	}
	int ret = parse_trace_args(argc, argv, &a);
	if (ret == 0)
		ret = setup_job(&a, j, &max_mb);
	if (ret == 0 && !a.out)
		snprintf(out, sizeof(out), "%s/trace-%s.json", j->dir, j->tag);
	const char *path = a.out ? a.out : out;
	if (ret == 0)
		ret = check_output(j, path);
	if (ret == 0)
		say_one_side_files(j);
	/* A file-size limit must give EFBIG and a message, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	if (ret == 0 && write_file(j, path) != 0)
		ret = CMD_EXIT_INPUT;
	if (ret == 0) {
		printf("wrote %s: %" PRIu64 " events (%" PRIu64 " calls, %" PRIu64 " target slices, %"
		       PRIu64 " marks)\n", quote_path(q, path), j->out.events, j->slices,
		       j->target_slices, j->marks);
		if (stat(path, &st) == 0 && (uint64_t)st.st_size > max_mb << 20)
			fprintf(stderr, "xrlm: warning: %s is %lld MB, more than %" PRIu64 " MB: viewers "
			        "may not open it; cut a window with --from/--to\n", quote_path(q, path),
			        (long long)(st.st_size >> 20), max_mb);
		ret = cmd_finish_output(stdout);
	}
	free(j);
	return ret;
}

const struct cmd cmd_trace = {
	.name = "trace",
	.synopsis = "SESSION-FILE-OR-DIR [-o FILE.json] [--from X] [--to Y] [--max-size MB]",
	.help = "A recorded session (calls files, else frames files; GPU files) as\n"
	        "Chrome Trace Event JSON for Perfetto UI or chrome://tracing: pre,\n"
	        "target and post as processes, one track per app thread, GPU tracks,\n"
	        "target_us and target_gpu_us counters, frame markers. X, Y: seconds\n"
	        "from the first call (2.5) or frame ids (f120). Default output:\n"
	        "trace-<tag>.json beside the session; a warning past --max-size MB\n"
	        "(default 256).\n",
	.run = run_trace,
};
