/*
 * rel_sessions: sessions never touch each other's files, and no failure
 * or wait for one session costs another (GUARANTEES.md).
 *
 * Both sides' writer threads (layer/xl_writer.c) run for real, on one real
 * control block, each with a ring pool of its own, as the two layer
 * libraries would; this thread is pre's frame thread, making the
 * transitions. The writers are driven into exact interleavings, not by
 * timing: xl_side_csv_open() is wrapped (ld --wrap), so that pre's writer
 * can be held while it makes a session's file, and made to fail.
 *
 *   reuse        pre is held making session 1's file while 64 more
 *                sessions start, the last one refilling session 1's slot;
 *                post has records of that last session only. No file may
 *                hold another session's rows (post used to write session
 *                65's rows under session 1's tag), the records that
 *                fit no file are counted in the log, and the file pre
 *                made for session 1 once its slot was taken is removed.
 *   old_failure  pre cannot make session 1's file (EACCES), and learns it
 *                only once session 2 is recording: both sides give
 *                session 1 up, and session 2 must go on recording (the
 *                give-up's stop used to end it); post takes pre's failure
 *                from the tag (not as pre having no file, whose records
 *                it would count as its own drops).
 *   absent       pre has no record of sessions 1, 2, 4 and 5 (all dropped),
 *                post has one of each: post must not wait for pre's files
 *                of them (it waited 5 s for each, also after pre's writer
 *                had been joined at xrDestroyInstance, and asked for a stop
 *                each time), and drops and counts its own records of them.
 *   late         a call of session 1 on another thread returns after
 *                session 2's first record reached pre's writer: it must
 *                land in session 1's calls file (it was dropped, silently,
 *                when the next session began within the 100 ms grace), and
 *                one returning after session 1's files closed is counted.
 *   merge        post's merge of session 1 ends after session 65 has
 *                refilled its slot: what it made of session 1 must not
 *                become session 65's (a `stop` of session 65 would have
 *                answered from session 1's merge).
 *   footers      a session's drop counts, different on each side: each
 *                side's frames file's footer says its dropped xrEndFrame
 *                calls (those for want of a ring too), its calls file's
 *                its dropped calls of every function; the next session
 *                in its slot (64 sessions on) counts from 0 again.
 *   late_absent  session 2 ends with no record on pre's side while session
 *                1 is in its grace; then a call of session 2 returns: it
 *                is dropped as late, and no file is made for session 2
 *                (its tag was settled as having none).
 *   gives_up     pre cannot make the file of session 1 (EACCES) while it
 *                records: the session is stopped (the give-up asks for it).
 *   signal       toggle signals start session 1, stop it and start session
 *                2 while pre's writer is held making session 1's file:
 *                one stderr line for each start and stop (the writer used
 *                to take session 2's start for session 1's stop, and say
 *                nothing of it).
 *
 * Usage: rel_sessions CASE DIR (DIR: an empty directory for the files).
 */
#include "xl_control.h"
#include "xl_fn.h"
#include "xl_gpu.h"
#include "xl_log.h"
#include "xl_ring.h"
#include "u_phase.h"
#include "xl_side_csv.h"
#include "xl_writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the writers collect no GPU samples here (no holder): stand-ins */
bool xl_gpu_collect(struct xl_gpu *gpu, uint32_t max_session,
                    void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx)
{
	(void)gpu, (void)max_session, (void)emit, (void)ctx;
	return false;
}

unsigned xl_gpu_pending(const struct xl_gpu *gpu, uint32_t session_id)
{
	(void)gpu, (void)session_id;
	return 0;
}

bool xl_gpu_calibrate(struct xl_gpu *gpu, struct xl_gpu_calibration *out)
{
	(void)gpu, (void)out;
	return false;
}

bool xl_gpu_bracket_now(const struct xl_gpu *gpu, int64_t *ns)
{
	(void)gpu, (void)ns;
	return false;
}

static void die(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Polls @p done(@p ctx) every millisecond for up to @p seconds. */
static bool wait_until(bool (*done)(void *ctx), void *ctx, unsigned seconds)
{
	uint64_t end = now_ns() + seconds * 1000000000ull;
	while (!done(ctx)) {
		if (now_ns() > end)
			return false;
		usleep(1000);
	}
	return true;
}

/* ---- the wrapped file creation: a side's n-th one can be held, and failed */
int __real_xl_side_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                            const struct xl_side_csv_meta *meta);

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const char *side;   /* whose files: "pre" or "post" */
	unsigned opens;     /* its frames files asked for so far */
	unsigned hold;      /* hold its hold-th one (1-based); 0: none */
	int fail;           /* then fail it with this errno; 0: make it */
	bool held;          /* it is waiting */
	bool released;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, "pre", 0, 0, 0, false, false};

int __wrap_xl_side_csv_open(struct xl_csv_file *f, int dir_fd, const char *tag,
                            const struct xl_side_csv_meta *meta)
{
	int fail = 0;

	if (strcmp(meta->side, gate.side) == 0) {
		pthread_mutex_lock(&gate.lock);
		if (++gate.opens == gate.hold) {
			gate.held = true;
			pthread_cond_broadcast(&gate.cond);
			while (!gate.released)
				pthread_cond_wait(&gate.cond, &gate.lock);
			fail = gate.fail;
		}
		pthread_mutex_unlock(&gate.lock);
	}
	if (fail) {
		snprintf(f->name, sizeof(f->name), "frames-%s-%s.csv", tag, meta->side);
		errno = fail;
		return -1;
	}
	return __real_xl_side_csv_open(f, dir_fd, tag, meta);
}

static bool gate_held(void *ctx)
{
	(void)ctx;
	pthread_mutex_lock(&gate.lock);
	bool held = gate.held;
	pthread_mutex_unlock(&gate.lock);
	return held;
}

static void gate_release(void)
{
	pthread_mutex_lock(&gate.lock);
	gate.released = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
}

/*
 * ---- a thread of the application, as one side sees it: a ring is a
 * thread's, in one pool, so each side's records come from a thread of its
 * own here (in the layers, each library has its own ring of a thread).
 */
struct agent {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	void (*fn)(void *arg);
	void *arg;
	bool quit;
};

static void *agent_main(void *arg)
{
	struct agent *a = arg;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->fn && !a->quit)
			pthread_cond_wait(&a->cond, &a->lock);
		if (!a->fn)
			break;
		a->fn(a->arg);
		a->fn = NULL;
		pthread_cond_broadcast(&a->cond);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void agent_start(struct agent *a)
{
	memset(a, 0, sizeof(*a));
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	if (pthread_create(&a->thread, NULL, agent_main, a) != 0)
		die("cannot start a thread");
}

/* Runs @p fn(@p arg) on @p a's thread and waits for it. */
static void agent_run(struct agent *a, void (*fn)(void *arg), void *arg)
{
	pthread_mutex_lock(&a->lock);
	a->fn = fn;
	a->arg = arg;
	pthread_cond_broadcast(&a->cond);
	while (a->fn)
		pthread_cond_wait(&a->cond, &a->lock);
	pthread_mutex_unlock(&a->lock);
}

static void agent_stop(struct agent *a)
{
	pthread_mutex_lock(&a->lock);
	a->quit = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
}

/* ---- one side: its rings, its writer and its thread of the application */
struct side {
	struct xl_ring_pool rings;
	struct xl_writer w;
	struct agent app;
};

static struct xl_control *ctl;
static struct side pre, post;
static int out_fd = -1;

/* A record's display time names its session: session * 10^6 + its index. */
#define DISPLAY(id, i) ((int64_t)(id) * 1000000 + (i))

struct push {
	struct side *side;
	uint32_t id;
	unsigned i;
	bool ok;
};

static void push_on_thread(void *arg)
{
	struct push *p = arg;
	struct xl_ring *ring = xl_ring_mine(&p->side->rings);
	struct xl_call_record *rec = ring ? xl_ring_claim(ring) : NULL;

	p->ok = rec != NULL;
	if (!rec)
		return;
	rec->display_time = DISPLAY(p->id, p->i);
	rec->frame_id = p->i;
	rec->thread_id = 1;
	rec->t_entry = (uint64_t)DISPLAY(p->id, p->i);
	rec->t_exit = rec->t_entry + 1;
	rec->session_id = p->id;
	rec->fn = XL_FN_xrEndFrame;
	rec->result = 0;
	xl_ring_publish(ring);
}

/* Side @p s's xrEndFrame record @p i of session @p id, as its wrapper pushes it. */
static void push(struct side *s, uint32_t id, unsigned i)
{
	struct push p = {s, id, i, false};
	agent_run(&s->app, push_on_thread, &p);
	if (!p.ok)
		die("a ring had no room for a record");
}

/* A call in flight on an agent's thread: claimed at its entry, published at its return. */
struct in_flight {
	struct xl_ring_pool *rings;
	struct xl_ring *ring;
	struct xl_call_record *rec;
	uint32_t id;
	unsigned i;
};

static void claim_on_thread(void *arg)
{
	struct in_flight *c = arg;
	c->ring = xl_ring_mine(c->rings);
	c->rec = c->ring ? xl_ring_claim(c->ring) : NULL;
}

static void publish_on_thread(void *arg)
{
	struct in_flight *c = arg;
	c->rec->display_time = 0;
	c->rec->frame_id = c->i;
	c->rec->thread_id = 2;
	c->rec->t_entry = (uint64_t)DISPLAY(c->id, c->i);
	c->rec->t_exit = c->rec->t_entry + 1;
	c->rec->session_id = c->id;
	c->rec->fn = XL_FN_xrLocateSpace;
	c->rec->result = 0;
	xl_ring_publish(c->ring);
}

/* One frame on pre's frame thread: performs what was asked for; the session recorded, or 0. */
static uint32_t frame(unsigned request)
{
	if (request)
		xl_control_request(ctl, request);
	return xl_control_pre_frame(ctl);
}

static void start_side(struct side *s, enum xl_side_index index)
{
	static const struct xl_side_csv_meta metas[2] = {
		{"pre", "XR_APILAYER_XRLM_monitor_pre", "test", -1, U_PHASE_ALL},
		{"post", "XR_APILAYER_XRLM_monitor_post", "test", 0, U_PHASE_ALL},
	};
	struct xl_writer_config cfg = {
		.side = index,
		.meta = metas[index],
		.ctl = ctl,
		.rings = &s->rings,
		.dir_fd = out_fd,
	};
	if (xl_ring_pool_create(&s->rings, 1024) != 0)
		die("out of memory");
	agent_start(&s->app);
	if (xl_writer_start(&s->w, &cfg) != 0)
		die("a writer did not start");
}

static void setup(const char *dir)
{
	char out[4096], why[256];
	struct xl_settings settings = {.delay_s = -1.0};

	snprintf(out, sizeof(out), "%s/out", dir);
	if (mkdir(out, 0755) != 0)
		die("cannot make DIR/out");
	out_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Both writers' lines, in DIR/xrlm-rel.log. */
	if (out_fd < 0 || dir_fd < 0 || !xl_log_open(dir_fd, "rel", why, sizeof(why)))
		die("cannot open DIR");
	close(dir_fd);
	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", out);
	ctl = xl_control_create(&settings);
	if (!ctl)
		die("out of memory");
	start_side(&pre, XL_SIDE_PRE);
	start_side(&post, XL_SIDE_POST);
}

/* Stops recording and both writers, pre's first (as xrDestroyInstance does). */
static void teardown(void)
{
	xl_control_stop_now(ctl);
	xl_writer_stop(&pre.w);
	xl_writer_stop(&post.w);
	for (struct side *s = &pre; s; s = s == &pre ? &post : NULL) {
		agent_stop(&s->app);
		xl_ring_pool_destroy(&s->rings);
	}
	xl_control_unref(ctl);
	xl_log_close();
}

/* Whether both sides' writers have finished every session up to *(uint32_t *)ctx. */
static bool both_finished(void *ctx)
{
	uint32_t id = *(uint32_t *)ctx;
	return atomic_load(&ctl->finished[XL_SIDE_PRE]) >= id &&
	       atomic_load(&ctl->finished[XL_SIDE_POST]) >= id;
}

/* ---- what the files say */

/* The display times of the data rows of file @p name in the output directory; -1 if none. */
static int read_rows(const char *name, int64_t *rows, int max)
{
	int fd = openat(out_fd, name, O_RDONLY | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[512];
	int n = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (line[0] >= '0' && line[0] <= '9' && n < max)
			rows[n++] = strtoll(line, NULL, 10);
	fclose(f);
	return n;
}

/*
 * Every frames file of a side: its rows are of one session, and the other
 * side's file of the same tag holds the very same rows. Returns the number
 * of problems (each said on stderr); *pairs: the files of post checked.
 */
static int check_files(const char *name, int *pairs)
{
	DIR *d = fdopendir(dup(out_fd));
	struct dirent *e;
	int problems = 0;

	*pairs = 0;
	if (!d)
		die("cannot read the output directory");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "frames-", 7) != 0 || len < 12)
			continue;
		int64_t rows[64], other[64];
		int n = read_rows(e->d_name, rows, 64);
		for (int i = 1; i < n; i++)
			if (rows[i] / 1000000 != rows[0] / 1000000) {
				fprintf(stderr, "FAIL %s: %s holds rows of sessions %lld and %lld\n", name,
				        e->d_name, (long long)(rows[0] / 1000000),
				        (long long)(rows[i] / 1000000));
				problems++;
				break;
			}
		if (strcmp(e->d_name + len - 9, "-post.csv") != 0)
			continue;
		char pre_name[512];
		snprintf(pre_name, sizeof(pre_name), "%.*s-pre.csv", (int)(len - 9), e->d_name);
		int m = read_rows(pre_name, other, 64);
		(*pairs)++;
		if (m != n || memcmp(rows, other, sizeof(rows[0]) * (size_t)(n > 0 ? n : 0)) != 0) {
			fprintf(stderr, "FAIL %s: %s holds %d rows (the first of session %lld), %s %d "
			        "(the first of session %lld): not the same session's\n", name, e->d_name,
			        n, n > 0 ? (long long)(rows[0] / 1000000) : -1LL, pre_name, m,
			        m > 0 ? (long long)(other[0] / 1000000) : -1LL);
			problems++;
		}
	}
	closedir(d);
	return problems;
}

/* The rows of pre's calls files that belong to session @p id (by their t_entry). */
static int calls_rows_of(uint32_t id)
{
	DIR *d = fdopendir(dup(out_fd));
	struct dirent *e;
	char line[512];
	int n = 0;

	if (!d)
		die("cannot read the output directory");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "calls-", 6) != 0 || len < 14 ||
		    strcmp(e->d_name + len - 8, "-pre.csv") != 0)
			continue;
		int fd = openat(out_fd, e->d_name, O_RDONLY | O_CLOEXEC);
		FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
		while (f && fgets(line, sizeof(line), f)) {
			/* fn,thread_id,t_entry,...: a data row starts with the function's name */
			const char *t = strchr(line, ',');
			t = t && strncmp(line, "xr", 2) == 0 ? strchr(t + 1, ',') : NULL;
			if (t && strtoll(t + 1, NULL, 10) / 1000000 == id)
				n++;
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

/* The files of the output directory named @p prefix...@p suffix. */
static int files_named(const char *prefix, const char *suffix)
{
	DIR *d = fdopendir(dup(out_fd));
	struct dirent *e;
	int n = 0;

	if (!d)
		die("cannot read the output directory");
	rewinddir(d); /* the descriptor's offset is out_fd's: an earlier look left it at the end */
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), plen = strlen(prefix), slen = strlen(suffix);
		n += len >= plen + slen && strncmp(e->d_name, prefix, plen) == 0 &&
		     strcmp(e->d_name + len - slen, suffix) == 0;
	}
	closedir(d);
	return n;
}

/* How many lines of DIR/xrlm-rel.log contain @p text. */
static int log_lines(const char *dir, const char *text)
{
	char path[4096 + sizeof("/xrlm-rel.log")], line[1024];
	int n = 0;

	snprintf(path, sizeof(path), "%s/xrlm-rel.log", dir);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return n;
}

/* ---- the cases */

static int case_reuse(const char *dir)
{
	int failures = 0, pairs;

	gate.hold = 1;
	setup(dir);
	/* Session 1: a frame pre records; post's record of it was lost (ring full). */
	uint32_t first = frame(XL_REQ_START);
	push(&pre, first, 0);
	if (!wait_until(gate_held, NULL, 10))
		die("pre's writer never made session 1's file");
	/* Pre's writer is held making session 1's file; 64 sessions later the
	 * frame thread has refilled session 1's slot for session 65. */
	frame(XL_REQ_STOP);
	uint32_t id = first;
	for (unsigned n = 0; n < XL_SESSION_SLOTS; n++) {
		id = frame(XL_REQ_START);
		if (n < XL_SESSION_SLOTS - 1)
			frame(XL_REQ_STOP);
	}
	if (id != first + XL_SESSION_SLOTS)
		die("the sessions were not started");
	/* Post has a record of session 65 alone (pre's was lost). */
	push(&post, id, 0);
	gate_release();
	frame(XL_REQ_STOP);
	/* A healthy session after all this, on both sides. */
	uint32_t last = frame(XL_REQ_START);
	for (unsigned i = 0; i < 3; i++) {
		push(&pre, last, i);
		push(&post, last, i);
	}
	uint32_t upto = id;
	if (!wait_until(both_finished, &upto, 30))
		die("the writers did not finish session 65 within 30 s");
	if (frame(0) != last) {
		fprintf(stderr, "FAIL reuse: session %u was stopped\n", last);
		failures++;
	}
	teardown();
	failures += check_files("reuse", &pairs);
	if (pairs != 1) {
		fprintf(stderr, "FAIL reuse: %d sessions have a post file, want 1 (session %u's)\n",
		        pairs, last);
		failures++;
	}
	/* Pre made session 1's file when its slot was session 65's already:
	 * removed, else it would stay without a post file for ever. */
	int pre_files = files_named("frames-", "-pre.csv");
	if (pre_files != 1) {
		fprintf(stderr, "FAIL reuse: %d frames files of pre, want 1 (session %u's): the file "
		        "made for session 1 after its slot was taken is left\n", pre_files, last);
		failures++;
	}
	int counted = log_lines(dir, ": 1 records dropped: ");
	if (counted != 2) {
		fprintf(stderr, "FAIL reuse: %d sessions' records are counted as dropped in the log, "
		        "want 2 (pre's of session 1, post's of session 65)\n", counted);
		failures++;
	}
	if (!failures)
		printf("reuse: no file holds another session's rows; pre's record of session 1 and "
		       "post's of session 65 are counted as dropped\n");
	return failures;
}

static int case_old_failure(const char *dir)
{
	int failures = 0, pairs;

	gate.hold = 1;
	gate.fail = EACCES;
	setup(dir);
	uint32_t first = frame(XL_REQ_START);
	push(&pre, first, 0);
	push(&post, first, 0);
	if (!wait_until(gate_held, NULL, 10))
		die("pre's writer never made session 1's file");
	/* Session 1's file fails only once session 2 is recording. */
	frame(XL_REQ_STOP);
	uint32_t second = frame(XL_REQ_START);
	push(&pre, second, 0);
	push(&post, second, 0);
	gate_release();
	if (!wait_until(both_finished, &first, 30))
		die("the writers did not finish session 1 within 30 s");
	uint32_t now = frame(0);
	if (now != second) {
		fprintf(stderr, "FAIL old_failure: session %u, recording, was stopped for the "
		        "failure of session %u's files (recording: %u)\n", second, first, now);
		failures++;
	}
	push(&pre, second, 1);
	push(&post, second, 1);
	teardown();
	failures += check_files("old_failure", &pairs);
	if (pairs != 1) {
		fprintf(stderr, "FAIL old_failure: %d sessions have a post file, want 1 (session "
		        "%u's)\n", pairs, second);
		failures++;
	}
	/* Post learnt pre's failure from the tag: not "pre has no file", whose
	 * records post would count as its own drops. Pre counts its record. */
	int no_pre = log_lines(dir, "records dropped: pre has no file for it");
	int counted = log_lines(dir, ": 1 records dropped: its files failed");
	if (no_pre != 0 || counted != 1) {
		fprintf(stderr, "FAIL old_failure: %d lines count records dropped as pre having no "
		        "file, %d as the files failing, want 0 and 1 (pre's own record of session "
		        "%u)\n", no_pre, counted, first);
		failures++;
	}
	if (!failures)
		printf("old_failure: session %u's failure left session %u recording\n", first, second);
	return failures;
}

/* Whether pre's frame thread, at its next frame, finds nothing recording. */
static bool stopped(void *ctx)
{
	(void)ctx;
	return frame(0) == 0;
}

static int case_gives_up(const char *dir)
{
	int failures = 0;

	gate.hold = 1;
	gate.fail = EACCES;
	setup(dir);
	uint32_t first = frame(XL_REQ_START);
	push(&pre, first, 0);
	push(&post, first, 0);
	if (!wait_until(gate_held, NULL, 10))
		die("pre's writer never made session 1's file");
	gate_release();
	/* The session still records when its files fail: it is stopped. */
	if (!wait_until(stopped, NULL, 30)) {
		fprintf(stderr, "FAIL gives_up: session %u records on after its files failed\n",
		        first);
		failures++;
	}
	teardown();
	if (!failures)
		printf("gives_up: session %u, whose files failed while it recorded, was stopped\n",
		       first);
	return failures;
}

static int case_absent(const char *dir)
{
	int failures = 0, pairs;

	/* Post's first file (session 3's) is held, to keep its writer busy. */
	gate.side = "post";
	gate.hold = 1;
	setup(dir);
	uint64_t begin = now_ns();
	/* Sessions 1 and 2: post has a record, pre has none (all dropped). */
	for (unsigned n = 0; n < 2; n++) {
		push(&post, frame(XL_REQ_START), 0);
		frame(XL_REQ_STOP);
	}
	uint32_t healthy = frame(XL_REQ_START);
	push(&pre, healthy, 0);
	push(&post, healthy, 0);
	frame(XL_REQ_STOP);
	if (!wait_until(gate_held, NULL, 30))
		die("post's writer never made session 3's file");
	uint64_t waited = now_ns() - begin;
	/* Sessions 4 and 5 as 1 and 2; then the instance goes away while post's
	 * writer has them still to do, pre's writer first. */
	for (unsigned n = 0; n < 2; n++) {
		push(&post, frame(XL_REQ_START), 0);
		frame(XL_REQ_STOP);
	}
	xl_control_stop_now(ctl);
	xl_writer_stop(&pre.w);
	gate_release();
	uint64_t stop_begin = now_ns();
	xl_writer_stop(&post.w);
	uint64_t stopping = now_ns() - stop_begin;
	teardown();
	failures += check_files("absent", &pairs);
	if (pairs != 1) {
		fprintf(stderr, "FAIL absent: %d sessions have a post file, want 1 (session %u's)\n",
		        pairs, healthy);
		failures++;
	}
	int timed_out = log_lines(dir, strerror(ETIMEDOUT));
	if (timed_out) {
		fprintf(stderr, "FAIL absent: post waited out its wait for a tag of pre's (%d "
		        "lines say %s)\n", timed_out, strerror(ETIMEDOUT));
		failures++;
	}
	int counted = log_lines(dir, ": 1 records dropped: ");
	if (counted != 4) {
		fprintf(stderr, "FAIL absent: %d sessions' records are counted as dropped in the "
		        "log, want 4 (post's of sessions 1, 2, 4 and 5)\n", counted);
		failures++;
	}
	/* For the log only: a loaded machine stretches both (the check is the
	 * wait that ran out, above: 5 s for each, 0.5 s in all once stopping). */
	printf("absent: post reached session %u after %.3f s; its writer stopped in %.3f s\n",
	       healthy, waited / 1e9, stopping / 1e9);
	if (!failures)
		printf("absent: post did not wait for pre's files of the sessions pre had no "
		       "record of, and dropped and counted its own\n");
	return failures;
}

static bool pre_opened_second(void *ctx)
{
	(void)ctx;
	pthread_mutex_lock(&gate.lock);
	bool opened = gate.opens >= 2;
	pthread_mutex_unlock(&gate.lock);
	return opened;
}

/*
 * One run of case late in @p dir: 1 if session 1's calls file lacks the
 * call that returned after session 2 began, 0 if it has it, and dies on
 * anything else.
 */
static int late_run(const char *dir)
{
	struct agent other, third;
	struct in_flight in_grace = {&pre.rings, NULL, NULL, 1, 100};
	struct in_flight too_late = {&pre.rings, NULL, NULL, 1, 101};
	int failures = 0;

	gate.side = "pre";
	gate.opens = 0;
	setup(dir);
	agent_start(&other);
	agent_start(&third);
	uint32_t first = frame(XL_REQ_START);
	push(&pre, first, 0);
	push(&pre, first, 1);
	/* Two calls of session 1 on other threads, still running when it stops. */
	agent_run(&other, claim_on_thread, &in_grace);
	agent_run(&third, claim_on_thread, &too_late);
	if (!in_grace.rec || !too_late.rec)
		die("a ring had no room for a record");
	uint64_t stop = now_ns();
	frame(XL_REQ_STOP);
	uint32_t second = frame(XL_REQ_START);
	push(&pre, second, 0);
	/* Pre's writer has had session 2's first record: the first call returns now. */
	if (!wait_until(pre_opened_second, NULL, 30))
		die("pre's writer never made session 2's file");
	agent_run(&other, publish_on_thread, &in_grace);
	uint64_t returned = now_ns() - stop;
	/* The second returns once session 1's files are closed. */
	if (!wait_until(both_finished, &first, 30))
		die("the writers did not finish session 1 within 30 s");
	agent_run(&third, publish_on_thread, &too_late);
	push(&pre, second, 1);
	frame(XL_REQ_STOP);
	agent_stop(&other);
	agent_stop(&third);
	teardown();

	int rows = calls_rows_of(first);
	printf("late: the first call returned %.1f ms after the stop; session %u's calls file has "
	       "%d rows\n", returned / 1e6, first, rows);
	if (rows != 3) {
		fprintf(stderr, "FAIL late: session %u's calls file has %d rows, want 3 (2 frames and "
		        "the call that returned after session %u began, %.1f ms after the stop)\n",
		        first, rows, second, returned / 1e6);
		failures = 1;
	}
	int counted = log_lines(dir, "1 calls returned after their session's files were closed");
	if (counted != 1) {
		fprintf(stderr, "FAIL late: the call that returned after session %u's files were closed "
		        "is not counted in the log\n", first);
		failures = 1;
	}
	return failures;
}

static int case_late(const char *dir)
{
	char run[4096];

	/* The grace is 100 ms from the writer's look at the stop: a run in
	 * which the machine held this thread (or the writer, between its drain
	 * and its look at the clock) up longer than that says nothing. Five
	 * runs, any one enough: without the grace for the ended session none
	 * can pass. */
	for (int attempt = 1; attempt <= 5; attempt++) {
		snprintf(run, sizeof(run), "%s/%d", dir, attempt);
		if (mkdir(run, 0755) != 0)
			die("cannot make a directory in DIR");
		if (late_run(run) == 0) {
			printf("late: a call returning after the next session began is in its "
			       "session's calls file; one returning after its files closed is counted\n");
			return 0;
		}
	}
	return 1;
}

/*
 * The files of the output directory named @p prefix...@p suffix whose
 * last line is @p line (with its newline).
 */
static int files_ending(const char *prefix, const char *suffix, const char *line)
{
	DIR *d = fdopendir(dup(out_fd));
	struct dirent *e;
	char buf[512];
	int n = 0;

	if (!d)
		die("cannot read the output directory");
	rewinddir(d); /* the descriptor's offset is out_fd's: an earlier look left it at the end */
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), plen = strlen(prefix), slen = strlen(suffix);
		if (len < plen + slen || strncmp(e->d_name, prefix, plen) != 0 ||
		    strcmp(e->d_name + len - slen, suffix) != 0)
			continue;
		int fd = openat(out_fd, e->d_name, O_RDONLY | O_CLOEXEC);
		FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
		bool has = false;
		while (f && fgets(buf, sizeof(buf), f))
			has = strcmp(buf, line) == 0;
		if (f)
			fclose(f);
		n += has;
	}
	closedir(d);
	return n;
}

/* Exactly one file @p prefix...@p suffix ends with the footer counting @p want drops. */
static int check_footer(const char *prefix, const char *suffix, unsigned long long want)
{
	char line[64];

	snprintf(line, sizeof(line), "# session_end dropped_queue_full=%llu\n", want);
	int n = files_ending(prefix, suffix, line);
	if (n == 1)
		return 0;
	fprintf(stderr, "FAIL footers: %d %s*%s files end with dropped_queue_full=%llu, want 1\n",
	        n, prefix, suffix, want);
	return 1;
}

static int case_footers(const char *dir)
{
	/* Per side: xrEndFrame calls dropped, of them for want of a ring, calls of any function. */
	static const uint64_t dropped[2] = {3, 1}, no_ring[2] = {1, 0}, calls[2] = {7, 4};
	int failures = 0;

	setup(dir);
	uint32_t id = frame(XL_REQ_START);
	push(&pre, id, 0);
	push(&post, id, 0);
	struct xl_session_info *info = xl_control_session(ctl, id);
	for (int side = 0; side < 2; side++) {
		atomic_store(&info->dropped[side], dropped[side]);
		atomic_store(&info->no_ring[side], no_ring[side]);
		atomic_store(&info->calls_dropped[side], calls[side]);
	}
	frame(XL_REQ_STOP);
	if (!wait_until(both_finished, &id, 30))
		die("the writers did not finish the session within 30 s");
	/* Its slot's next session drops nothing: it counts from 0 again. */
	uint32_t again;
	while ((again = frame(XL_REQ_START)) % XL_SESSION_SLOTS != id % XL_SESSION_SLOTS)
		frame(XL_REQ_STOP);
	push(&pre, again, 0);
	push(&post, again, 0);
	frame(XL_REQ_STOP);
	if (!wait_until(both_finished, &again, 30))
		die("the writers did not finish the slot's next session within 30 s");
	teardown();
	failures += check_footer("frames-", "-pre.csv", dropped[XL_SIDE_PRE]);
	failures += check_footer("frames-", "-post.csv", dropped[XL_SIDE_POST]);
	failures += check_footer("calls-", "-pre.csv", calls[XL_SIDE_PRE]);
	failures += check_footer("calls-", "-post.csv", calls[XL_SIDE_POST]);
	for (int k = 0; k < 4; k++) {
		static const char *const kinds[4][2] = {{"frames-", "-pre.csv"}, {"frames-", "-post.csv"},
		                                        {"calls-", "-pre.csv"}, {"calls-", "-post.csv"}};
		failures += check_footer(kinds[k][0], kinds[k][1], 0);
	}
	if (log_lines(dir, "1 rows, 3 dropped (2 ring full, 1 no ring free)") != 1) {
		fprintf(stderr, "FAIL footers: pre's log line does not tell its drops apart\n");
		failures++;
	}
	if (!failures)
		printf("footers: each side's files count that side's drops, frames and calls apart, "
		       "and a slot's next session from 0\n");
	return failures;
}

/* Whether pre's writer has settled session *(uint32_t *)ctx's tag (it saw it end). */
static bool tag_settled(void *ctx)
{
	uint32_t id = *(uint32_t *)ctx;
	return xl_slot_tag_state(xl_control_slot_state(ctl, id)) != XL_TAG_PENDING;
}

/*
 * One run of case late_absent in @p dir: 0 if the late call was dropped as
 * late, 1 if not, -1 if session 1's grace ran out before the call returned
 * (a loaded machine: says nothing).
 */
static int late_absent_run(const char *dir)
{
	struct agent other;
	int failures = 0;

	setup(dir);
	agent_start(&other);
	uint32_t first = frame(XL_REQ_START);
	push(&pre, first, 0);
	frame(XL_REQ_STOP);
	uint32_t second = frame(XL_REQ_START);
	struct in_flight late = {&pre.rings, NULL, NULL, second, 100};
	agent_run(&other, claim_on_thread, &late);
	if (!late.rec)
		die("a ring had no room for a record");
	frame(XL_REQ_STOP);
	/* Pre's writer saw session 2 end with no record of it, session 1 still open. */
	if (!wait_until(tag_settled, &second, 30))
		die("pre's writer never settled session 2's tag");
	bool in_grace = atomic_load(&ctl->finished[XL_SIDE_PRE]) < first;
	agent_run(&other, publish_on_thread, &late);
	in_grace = in_grace && atomic_load(&ctl->finished[XL_SIDE_PRE]) < first;
	if (!wait_until(both_finished, &second, 30))
		die("the writers did not finish session 2 within 30 s");
	agent_stop(&other);
	teardown();
	if (!in_grace)
		return -1;
	if (log_lines(dir, "1 calls returned after their session's files were closed") != 1 ||
	    log_lines(dir, "its slot was taken") != 0) {
		fprintf(stderr, "FAIL late_absent: the call of session %u, which had ended with no "
		        "record, is not dropped as late (see %s/xrlm-rel.log)\n", second, dir);
		failures = 1;
	}
	return failures;
}

static int case_late_absent(const char *dir)
{
	char run[4096];

	/* Session 1's grace (100 ms) must outlast the steps above: a run in
	 * which the machine held this thread up that long says nothing. */
	for (int attempt = 1; attempt <= 5; attempt++) {
		snprintf(run, sizeof(run), "%s/%d", dir, attempt);
		if (mkdir(run, 0755) != 0)
			die("cannot make a directory in DIR");
		int r = late_absent_run(run);
		if (r >= 0) {
			if (!r)
				printf("late_absent: a late call of a session that ended with no record "
				       "is dropped as late, no file made for it\n");
			return r;
		}
	}
	fprintf(stderr, "FAIL late_absent: session 1's grace ran out in every run\n");
	return 1;
}

/* The toggle signal's handler (xl_signal.c): flips the request. */
static void toggle_signal(void)
{
	xl_control_toggle(ctl);
}

static int case_signal(const char *dir)
{
	int failures = 0;

	/* Pre's writer is held making session 1's file until session 2 began:
	 * it sees the three toggles' work only afterwards. */
	gate.side = "pre";
	gate.hold = 1;
	setup(dir);
	toggle_signal();
	uint32_t first = frame(0);
	push(&pre, first, 0);
	if (!wait_until(gate_held, NULL, 10))
		die("pre's writer never made session 1's file");
	toggle_signal();
	frame(0);
	toggle_signal();
	uint32_t second = frame(0);
	if (!first || second != first + 1)
		die("the toggles did not start and stop the sessions");
	push(&pre, second, 0);
	gate_release();
	if (!wait_until(pre_opened_second, NULL, 30))
		die("pre's writer never made session 2's file");
	/* The instance goes away while session 2 records: not the signal's stop. */
	teardown();

	static const struct {
		const char *text;
		int want;
	} lines[] = {
		{"recording started by signal: session ", 2},
		{"recording stopped by signal: session ", 1},
		{"recording stopped: session ", 1},
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int n = log_lines(dir, lines[i].text);
		if (n != lines[i].want) {
			fprintf(stderr, "FAIL signal: %d lines say \"%s...\", want %d (sessions %u and "
			        "%u, each started by a signal; %u stopped by one, %u by the exit)\n", n,
			        lines[i].text, lines[i].want, first, second, first, second);
			failures++;
		}
	}
	if (!failures)
		printf("signal: one line for each start and stop, also when the writer saw the "
		       "next start's signal before the previous session's end\n");
	return failures;
}

static int case_merge(const char *dir)
{
	int failures = 0;

	setup(dir);
	uint32_t first = frame(XL_REQ_START), id = first;
	frame(XL_REQ_STOP);
	for (unsigned n = 0; n < XL_SESSION_SLOTS; n++) {
		id = frame(XL_REQ_START);
		frame(XL_REQ_STOP);
	}
	if (id != first + XL_SESSION_SLOTS)
		die("the sessions were not started");
	/* Session 1's merge ends now, late: its slot holds session 65. */
	if (xl_control_settle_merge(ctl, first, XL_MERGE_FAILED)) {
		fprintf(stderr, "FAIL merge: session %u's merge settled in session %u's slot\n",
		        first, id);
		failures++;
	}
	if (xl_control_merge_state(ctl, id) != XL_MERGE_NONE) {
		fprintf(stderr, "FAIL merge: session %u reads session %u's merge\n", id, first);
		failures++;
	}
	if (!xl_control_settle_merge(ctl, id, XL_MERGE_DONE) ||
	    xl_control_merge_state(ctl, id) != XL_MERGE_DONE) {
		fprintf(stderr, "FAIL merge: session %u's own merge is not recorded\n", id);
		failures++;
	}
	teardown();
	if (!failures)
		printf("merge: a merge that ends after its slot was refilled leaves the new "
		       "session's state alone\n");
	return failures;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const char *dir);
	} cases[] = {
		{"reuse", case_reuse},
		{"old_failure", case_old_failure},
		{"absent", case_absent},
		{"late", case_late},
		{"signal", case_signal},
		{"merge", case_merge},
		{"footers", case_footers},
		{"late_absent", case_late_absent},
		{"gives_up", case_gives_up},
	};

	for (size_t i = 0; argc == 3 && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			return cases[i].run(argv[2]) ? 1 : 0;
	fprintf(stderr, "usage: rel_sessions reuse|old_failure|absent|late|signal|merge|footers|late_absent|gives_up DIR\n");
	return 2;
}
