/*
 * `xrlm trace SESSION-FILE-OR-DIR [-o FILE.json] [--from X] [--to Y]
 * [--max-size MB]`: a recorded session as Chrome Trace Event JSON for
 * Perfetto UI or chrome://tracing (README, "Timeline view: xrlm trace").
 *
 * Streams: post's calls are written and spooled, then pre's are written and
 * paired with the spool for the target's track, then the same for the GPU
 * files. Nothing is held in proportion to the session's length.
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
#include "merge.h"
#include "out_file.h"
#include "trace_out.h"
#include "trace_read.h"
#include "trace_target.h"
#include "u_names.h"
#include "u_parse.h"

/* Past this size a viewer struggles (chrome://tracing near 256 MB): warned about. */
#define DEFAULT_MAX_MB 256

struct trace_args {
	const char *in, *out, *from, *to, *max_mb;
};

/* A window bound: seconds from the session's first call, or a frame id ("f<N>"). */
struct bound {
	bool set, frame;
	double seconds;
	int64_t frame_id;
};

/* The session's files and what is learnt while reading them. */
struct trace_job {
	char tag[U_NAMES_TAG_MAX];
	char dir[MERGE_PATH_MAX];
	bool calls; /* calls files (else frames files) */
	char cpu[2][MERGE_PATH_MAX]; /* [0] pre, [1] post */
	char gpu[2][MERGE_PATH_MAX]; /* "" when absent */
	struct bound from, to;
	int64_t from_ns, to_ns;
	struct side_meta meta[2];
	struct trace_out out;
	struct trace_spool spool;
	struct trace_target target;
	struct trace_spool_rec gpu_next;
	bool gpu_has_next;
	uint64_t slices, target_slices;
	int64_t first_ns;  /* window resolution: the session's first call */
	bool have_first;
};

static const char *const side_names[2] = {U_NAMES_PRE, U_NAMES_POST};

static int parse_trace_args(int argc, char **argv, struct trace_args *a)
{
	static const char *const names[] = {"-o", "--output", "--from", "--to", "--max-size"};
	const char **const slots[] = {&a->out, &a->out, &a->from, &a->to, &a->max_mb};

	return cmd_parse_args(argc, argv, names, slots, sizeof(names) / sizeof(names[0]), &a->in,
	                      "trace needs a session's file or directory");
}

static int parse_bound(const char *text, struct bound *b)
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

	if (!d) {
		fprintf(stderr, "xrlm: %s: %s\n", dir, strerror(errno));
		return CMD_EXIT_INPUT;
	}
	while ((e = readdir(d)) != NULL) {
		struct u_names_parsed n;
		if (!u_names_parse(e->d_name, &n) || !u_names_is(&n, U_NAMES_FRAMES, U_NAMES_PRE) ||
		    (found && strcmp(n.tag, tag) == 0))
			continue;
		if (found++) {
			closedir(d);
			fprintf(stderr, "xrlm: %s holds several sessions: name one of its files\n", dir);
			return CMD_EXIT_USAGE;
		}
		snprintf(tag, size, "%s", n.tag);
	}
	closedir(d);
	if (!found) {
		fprintf(stderr, "xrlm: %s holds no session (no frames-<tag>-pre.csv)\n", dir);
		return CMD_EXIT_INPUT;
	}
	return 0;
}

/* Finds the session's files from a file of it or its directory. */
static int find_session(const char *in, struct trace_job *j)
{
	struct stat st;
	struct u_names_parsed n;

	if (stat(in, &st) != 0) {
		fprintf(stderr, "xrlm: %s: %s\n", in, strerror(errno));
		return CMD_EXIT_INPUT;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(j->dir, sizeof(j->dir), "%s", in);
		int ret = session_of_dir(in, j->tag, sizeof(j->tag));
		if (ret)
			return ret;
	} else {
		if (!u_names_parse(in, &n)) {
			fprintf(stderr, "xrlm: %s: not a session file (<kind>-<tag>-<side>.csv)\n", in);
			return CMD_EXIT_USAGE;
		}
		snprintf(j->dir, sizeof(j->dir), "%.*s", n.dir_len ? n.dir_len - 1 : 1,
		         n.dir_len ? in : ".");
		snprintf(j->tag, sizeof(j->tag), "%s", n.tag);
	}
	for (int s = 0; s < 2; s++) {
		u_names_side_file(j->cpu[s], sizeof(j->cpu[s]), j->dir, U_NAMES_CALLS, j->tag,
		                  side_names[s]);
		if (u_names_side_file(j->gpu[s], sizeof(j->gpu[s]), j->dir, U_NAMES_GPU, j->tag,
		                      side_names[s]) < 0 || !is_file(j->gpu[s]))
			j->gpu[s][0] = '\0';
	}
	j->calls = is_file(j->cpu[0]) && is_file(j->cpu[1]);
	for (int s = 0; !j->calls && s < 2; s++)
		u_names_side_file(j->cpu[s], sizeof(j->cpu[s]), j->dir, U_NAMES_FRAMES, j->tag,
		                  side_names[s]);
	for (int s = 0; s < 2; s++) {
		if (!is_file(j->cpu[s])) {
			fprintf(stderr, "xrlm: session %s has no %s file: %s\n", j->tag, side_names[s],
			        j->cpu[s]);
			return CMD_EXIT_INPUT;
		}
	}
	return 0;
}

/* Prints a reader's warnings, or its error (returning -1). */
static int report_read(int rc, const struct csvr_diag *d)
{
	for (int i = 0; i < d->warning_count; i++)
		fprintf(stderr, "xrlm: %s\n", d->warnings[i]);
	if (rc != 0)
		fprintf(stderr, "xrlm: %s\n", d->error);
	return rc;
}

/* Window pass: the first call's time and the bounds' times. */
static int window_row(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	(void)msg;
	(void)msg_size;

	if (!j->have_first) {
		j->have_first = true;
		j->first_ns = c->t_entry;
	}
	if (j->from.frame && c->frame_id >= j->from.frame_id && c->t_entry < j->from_ns)
		j->from_ns = c->t_entry;
	if (j->to.frame && c->frame_id <= j->to.frame_id && c->t_exit > j->to_ns)
		j->to_ns = c->t_exit;
	return 0;
}

static int resolve_window(struct trace_job *j)
{
	struct csvr_diag d = {0};
	struct side_meta meta;

	j->from_ns = j->from.frame ? INT64_MAX : INT64_MIN;
	j->to_ns = j->to.frame ? INT64_MIN : INT64_MAX;
	if (!j->from.set && !j->to.set)
		return 0;
	int rc = trace_read_calls(j->cpu[0], j->calls, U_NAMES_PRE, &meta, &d, window_row, j);
	side_meta_destroy(&meta);
	if (report_read(rc, &d) != 0)
		return -1;
	if (j->from.set && !j->from.frame)
		j->from_ns = j->first_ns + (int64_t)(j->from.seconds * 1e9);
	if (j->to.set && !j->to.frame)
		j->to_ns = j->first_ns + (int64_t)(j->to.seconds * 1e9);
	return 0;
}

/* "frame_id":N,"result":N (calls) for a call slice's args. */
static void call_args(char *buf, size_t size, const struct trace_call *c, bool calls)
{
	if (calls)
		snprintf(buf, size, "\"frame_id\":%" PRId64 ",\"result\":%" PRId64, c->frame_id,
		         c->result);
	else
		snprintf(buf, size, "\"frame_id\":%" PRId64 ",\"display_time\":%" PRId64, c->frame_id,
		         c->display_time);
}

static int post_call(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	char args[128];
	struct trace_spool_rec r = {{(int64_t)c->thread_id, c->t_entry, c->t_exit, 0}};
	(void)msg;
	(void)msg_size;

	call_args(args, sizeof(args), c, j->calls);
	trace_out_slice(&j->out, TRACE_PID_POST, c->thread_id, c->fn, c->t_entry,
	                c->t_exit - c->t_entry, args);
	trace_spool_add(&j->spool, &r);
	j->slices++;
	return 0;
}

/* The app's frame markers, from pre's frame-loop calls (entry and exit). */
static void frame_markers(struct trace_job *j, const struct trace_call *c)
{
	static const char *const names[3][3] = {
		{"xrWaitFrame", "wait_begin", "wait_end"},
		{"xrBeginFrame", "begin_begin", "begin_end"},
		{"xrEndFrame", "end_begin", "end_end"},
	};
	char args[64];

	for (int i = 0; i < 3; i++) {
		if (strcmp(c->fn, names[i][0]) != 0)
			continue;
		snprintf(args, sizeof(args), "\"frame_id\":%" PRId64, c->frame_id);
		trace_out_instant(&j->out, TRACE_PID_PRE, c->thread_id, names[i][1], c->t_entry, args);
		trace_out_instant(&j->out, TRACE_PID_PRE, c->thread_id, names[i][2], c->t_exit, args);
	}
}

static int pre_call(void *ctx, const struct trace_call *c, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	char args[128];
	(void)msg;
	(void)msg_size;

	call_args(args, sizeof(args), c, j->calls);
	trace_out_slice(&j->out, TRACE_PID_PRE, c->thread_id, c->fn, c->t_entry,
	                c->t_exit - c->t_entry, args);
	frame_markers(j, c);
	trace_target_pre(&j->target, c);
	j->slices++;
	return 0;
}

/* One target slice: on the target's track of the calling thread, and xrEndFrame's counter. */
static void target_slice(void *ctx, const struct trace_target_slice *s)
{
	struct trace_job *j = ctx;
	char args[160];

	snprintf(args, sizeof(args), "\"target_us\":%.3f,\"below_us\":%.3f,\"frame_id\":%" PRId64,
	         (double)s->target_ns / 1000.0, (double)s->below_ns / 1000.0, s->frame_id);
	trace_out_slice(&j->out, TRACE_PID_TARGET, s->thread_id, s->fn, s->t_entry, s->dur_ns, args);
	if (strcmp(s->fn, "xrEndFrame") == 0)
		trace_out_counter(&j->out, TRACE_PID_TARGET, "target_us", s->t_entry,
		                  (double)s->target_ns / 1000.0);
	j->target_slices++;
}

static int run_cpu(struct trace_job *j)
{
	struct csvr_diag d = {0};

	if (trace_spool_create(&j->spool) != 0) {
		fprintf(stderr, "xrlm: cannot create a temporary file: %s\n", strerror(errno));
		return -1;
	}
	int rc = trace_read_calls(j->cpu[1], j->calls, U_NAMES_POST, &j->meta[1], &d, post_call, j);
	if (report_read(rc, &d) != 0 || trace_spool_rewind(&j->spool) != 0) {
		if (rc == 0)
			fprintf(stderr, "xrlm: writing a temporary file failed\n");
		trace_spool_destroy(&j->spool);
		return -1;
	}
	int64_t correction = j->meta[1].has_bracket_correction ?
	                             (int64_t)j->meta[1].bracket_correction_ns : 0;
	trace_target_init(&j->target, &j->spool, correction, target_slice, j);
	rc = trace_read_calls(j->cpu[0], j->calls, U_NAMES_PRE, &j->meta[0], &d, pre_call, j);
	trace_target_finish(&j->target);
	trace_spool_destroy(&j->spool);
	return report_read(rc, &d);
}

static void gpu_instant(struct trace_job *j, int pid, const struct trace_gpu *g)
{
	char args[96];

	if (!g->placed)
		return;
	snprintf(args, sizeof(args), "\"display_time\":%" PRId64 ",\"gpu_ticks\":%" PRIu64,
	         g->display_time, g->ticks);
	trace_out_instant(&j->out, pid, TRACE_TID_GPU, "GPU timestamp", g->t_ns, args);
}

static int post_gpu(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	struct trace_spool_rec r = {{g->display_time, (int64_t)g->ticks, g->t_ns,
	                             (g->valid ? TRACE_GPU_VALID : 0) |
	                                     (g->placed ? TRACE_GPU_PLACED : 0)}};
	(void)msg;
	(void)msg_size;

	gpu_instant(j, TRACE_PID_POST, g);
	trace_spool_add(&j->spool, &r);
	return 0;
}

static int pre_gpu(void *ctx, const struct trace_gpu *g, char *msg, size_t msg_size)
{
	struct trace_job *j = ctx;
	struct trace_gpu_pair p;
	char args[96];
	(void)msg;
	(void)msg_size;

	gpu_instant(j, TRACE_PID_PRE, g);
	if (!trace_target_gpu(&j->spool, &j->gpu_next, &j->gpu_has_next, g, &p) || !p.placed)
		return 0;
	snprintf(args, sizeof(args), "\"target_gpu_us\":%.3f,\"display_time\":%" PRId64,
	         p.target_ns / 1000.0, p.display_time);
	trace_out_slice(&j->out, TRACE_PID_TARGET, TRACE_TID_GPU, "target GPU", p.pre_ns,
	                p.post_ns > p.pre_ns ? p.post_ns - p.pre_ns : 0, args);
	trace_out_counter(&j->out, TRACE_PID_TARGET, "target_gpu_us", p.pre_ns, p.target_ns / 1000.0);
	return 0;
}

static int run_gpu(struct trace_job *j)
{
	struct csvr_diag d = {0};
	struct side_meta meta;
	int rc;

	if (!j->gpu[0][0] && !j->gpu[1][0])
		return 0;
	if (trace_spool_create(&j->spool) != 0) {
		fprintf(stderr, "xrlm: cannot create a temporary file: %s\n", strerror(errno));
		return -1;
	}
	if (j->gpu[1][0]) {
		rc = trace_read_gpu(j->gpu[1], U_NAMES_POST, &meta, &d, post_gpu, j);
		side_meta_destroy(&meta);
		if (report_read(rc, &d) != 0 || trace_spool_rewind(&j->spool) != 0) {
			trace_spool_destroy(&j->spool);
			return -1;
		}
		j->gpu_has_next = trace_spool_next(&j->spool, &j->gpu_next);
	}
	rc = 0;
	if (j->gpu[0][0]) {
		rc = trace_read_gpu(j->gpu[0], U_NAMES_PRE, &meta, &d, pre_gpu, j);
		side_meta_destroy(&meta);
		rc = report_read(rc, &d);
	}
	trace_spool_destroy(&j->spool);
	return rc;
}

/* Writes the whole document to @p f. */
static int write_trace(struct trace_job *j, FILE *f)
{
	char pre[300], post[300], target[300];

	trace_out_begin(&j->out, f, j->from_ns, j->to_ns);
	if (run_cpu(j) != 0 || run_gpu(j) != 0)
		return -1;
	snprintf(pre, sizeof(pre), "pre (%s)", j->meta[0].layer[0] ? j->meta[0].layer : "pre");
	snprintf(post, sizeof(post), "post (%s)", j->meta[1].layer[0] ? j->meta[1].layer : "post");
	snprintf(target, sizeof(target), "target (%s)",
	         j->meta[0].target_layer[0] ? j->meta[0].target_layer : "unknown");
	struct trace_out_names names = {pre, post, target, j->tag, j->meta[0].target_layer};
	if (trace_out_end(&j->out, &names) != 0) {
		fprintf(stderr, "xrlm: writing the trace failed: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Writes the trace under a temporary name and puts it in place whole. */
static int write_file(struct trace_job *j, const char *path)
{
	char tmp[MERGE_PATH_MAX], msg[MERGE_PATH_MAX + 128];
	int fd = out_file_create_tmp(path, tmp, sizeof(tmp), msg, sizeof(msg));

	if (fd < 0) {
		fprintf(stderr, "xrlm: %s\n", msg);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		fprintf(stderr, "xrlm: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	int rc = write_trace(j, f);
	if (fclose(f) != 0 && rc == 0) {
		fprintf(stderr, "xrlm: writing %s failed: %s\n", path, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		unlink(tmp);
		return -1;
	}
	if (out_file_place(tmp, path, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "xrlm: %s\n", msg);
		return -1;
	}
	return 0;
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
	return resolve_window(j) == 0 ? 0 : CMD_EXIT_INPUT;
}

static int run_trace(int argc, char **argv)
{
	struct trace_args a = {0};
	struct trace_job *j = calloc(1, sizeof(*j));
	char out[MERGE_PATH_MAX + U_NAMES_TAG_MAX + 16];
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
	/* A file-size limit must give EFBIG and a message, not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	if (ret == 0 && write_file(j, path) != 0)
		ret = CMD_EXIT_INPUT;
	if (ret == 0) {
		printf("wrote %s: %" PRIu64 " events (%" PRIu64 " calls, %" PRIu64 " target slices)\n",
		       path, j->out.events, j->slices, j->target_slices);
		if (stat(path, &st) == 0 && (uint64_t)st.st_size > max_mb << 20)
			fprintf(stderr, "xrlm: warning: %s is %lld MB, more than %" PRIu64 " MB: viewers "
			        "may not open it; cut a window with --from/--to\n", path,
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
