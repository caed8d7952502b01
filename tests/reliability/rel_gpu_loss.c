/*
 * rel_gpu_loss: every GPU sample the layer loses is counted in the GPU file
 * (issue 16, defect 6), whatever the GPU does.
 *
 * The writer thread (layer/xl_writer.c) runs for real, on a real ring and
 * control block, against a stand-in for layer/xl_gpu.c defined here, so the
 * GPU's behaviour is exact, not timing-dependent:
 *   skipped: every frame found all GPU slots busy (no sample ever arrives):
 *            the GPU file must still exist, saying gpu_ring_overflow=<n>
 *            and its clock's gpu_valid_bits (the stand-in's 36).
 *   pending: the session's samples are still on the GPU when it closes:
 *            those are lost too, and counted.
 * And no call record is lost when it arrives after its session ended (a
 * call in flight on another thread at the stop returns later): late.
 * Nor while the session-closed hook (post: the merge) of the previous
 * session runs for long: the writer goes on draining the rings, and the
 * session is settled only once its hook returned: hook.
 * An OpenGL session (a hand-made layer/xl_gl.h state, its context's
 * counter 36 bits wide, as Mesa's Intel drivers report) has its GPU file
 * say gpu_valid_bits=36, with a sample (gl_sample) or with none (gl_skipped);
 * a sample's row gives its period to 9 digits, and the calibration line
 * each number in its place (gl_lines). A session with calls but no
 * xrEndFrame row is not handed to the session-closed hook (no_frames). A
 * sample read back once the next session began, in its own session's
 * grace, lands in that session's GPU file (gl_grace).
 * Usage: rel_gpu_loss DIR (an empty directory for the files).
 */
#include "u_phase.h"
#include "xl_control.h"
#include "xl_fn.h"
#include "xl_gl.h"
#include "xl_gpu.h"
#include "xl_ring.h"
#include "xl_writer.h"

#include <dirent.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the stand-in GPU: no sample ever finishes; fake_pending on the GPU */
static unsigned fake_pending;
/* Its timestampValidBits (ANV's): what a file without samples says. */
#define STAND_IN_BITS 36

bool xl_gpu_collect(struct xl_gpu *gpu, uint32_t max_session,
                    void (*emit)(void *ctx, const struct xl_gpu_sample *s), void *ctx)
{
	(void)gpu, (void)max_session, (void)emit, (void)ctx;
	return fake_pending > 0;
}

unsigned xl_gpu_pending(const struct xl_gpu *gpu, uint32_t session_id)
{
	(void)gpu, (void)session_id;
	return fake_pending;
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

/* Pushes one xrEndFrame record of session @p id on the calling thread's ring. */
static bool push_frame(struct xl_ring_pool *rings, uint32_t id, unsigned i)
{
	struct xl_ring *ring = xl_ring_mine(rings);
	struct xl_call_record *rec = ring ? xl_ring_claim(ring) : NULL;
	if (!rec)
		return false;
	rec->display_time = 1000 + i;
	rec->frame_id = i;
	rec->thread_id = 1;
	rec->t_entry = 10 + i;
	rec->t_exit = 20 + i;
	rec->session_id = id;
	rec->fn = XL_FN_xrEndFrame;
	xl_ring_publish(ring);
	return true;
}

/*
 * The OpenGL stand-in: an xl_gl state as its first recorded frame leaves it
 * (the writer only drains its ring), its counter STAND_IN_BITS wide; with
 * gl_sample, the session's first frame's sample is in the ring at the stop.
 */
static struct xl_gl *gl_stand_in;
static bool gl_sample;
static float gl_period_ns = 1.0f;

static void push_gl_sample(struct xl_gl *gl, uint32_t id)
{
	unsigned head = atomic_load(&gl->done_head);
	gl->done[head % XL_GL_DONE] = (struct xl_gl_done){
		.sample = {.display_time = 1000, .ticks = 77, .period_ns = gl_period_ns,
		           .valid_bits = STAND_IN_BITS, .valid = true, .session_id = id},
	};
	atomic_store(&gl->done_head, head + 1);
}

/*
 * One recorded session of @p frames frames through the real writer; with
 * @p late, one more record arrives 30 ms after the session stopped.
 */
static void run_session(const char *dir, unsigned frames, uint64_t skipped, bool late)
{
	struct xl_settings settings = {.delay_s = -1.0};
	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", dir);
	struct xl_control *ctl = xl_control_create(&settings);
	static struct xl_ring_pool rings;
	struct xl_gpu gpu;
	struct xl_gpu_holder holder;
	struct xl_writer w;

	memset(&gpu, 0, sizeof(gpu));
	gpu.valid_bits = STAND_IN_BITS;
	atomic_init(&gpu.submit_error, VK_SUCCESS);
	pthread_mutex_init(&holder.lock, NULL);
	atomic_init(&holder.gpu, gl_stand_in ? NULL : &gpu);
	atomic_init(&holder.gl, gl_stand_in); /* NULL: a Vulkan session */
	if (!ctl || xl_ring_pool_create(&rings, 1024) != 0) {
		fprintf(stderr, "FAIL: out of memory\n");
		exit(1);
	}
	struct xl_writer_config cfg = {
		.side = XL_SIDE_PRE,
		.meta = {"pre", "XR_APILAYER_XRLM_monitor_pre", "test", -1, U_PHASE_ALL},
		.ctl = ctl,
		.rings = &rings,
		.gpu = &holder,
		.dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
	};
	if (xl_writer_start(&w, &cfg) != 0) {
		fprintf(stderr, "FAIL: writer did not start\n");
		exit(1);
	}
	xl_control_request(ctl, XL_REQ_START);
	uint32_t id = 0;
	for (unsigned i = 0; i < frames; i++) {
		id = xl_control_pre_frame(ctl);
		if (!id || !push_frame(&rings, id, i)) {
			fprintf(stderr, "FAIL: frame %u not recorded\n", i);
			exit(1);
		}
		/* What xl_side_frame.h's stamp_gpu counts when every slot is busy. */
		if (i < skipped)
			atomic_fetch_add(&xl_control_session(ctl, id)->gpu_overflow[XL_SIDE_PRE], 1);
	}
	if (gl_stand_in && gl_sample)
		push_gl_sample(gl_stand_in, id);
	xl_control_stop_now(ctl);
	if (late) {
		usleep(30000); /* the writer has seen the stop by now */
		push_frame(&rings, id, frames);
	}
	xl_writer_stop(&w);
	xl_ring_pool_destroy(&rings);
	pthread_mutex_destroy(&holder.lock);
	close(cfg.dir_fd);
	xl_control_unref(ctl);
}

/*
 * Calls @p line for every line of every file of @p dir whose name starts
 * with @p prefix, then removes the file. Returns how many files there were.
 */
static int consume_files(const char *dir, const char *prefix,
                         void (*line)(void *ctx, const char *text), void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096], text[256];
	int files = 0;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *f = line ? fopen(path, "r") : NULL;
		while (f && fgets(text, sizeof(text), f))
			line(ctx, text);
		if (f)
			fclose(f);
		unlink(path);
		files++;
	}
	if (d)
		closedir(d);
	return files;
}

/* What the one GPU file of a session says; -1 where it does not. */
struct gpu_file_lines {
	long long overflow;   /* "# session_end gpu_ring_overflow=" */
	long long valid_bits; /* "# gpu_valid_bits=" */
};

static void gpu_file_line(void *ctx, const char *text)
{
	struct gpu_file_lines *g = ctx;

	sscanf(text, "# session_end gpu_ring_overflow=%lld", &g->overflow);
	sscanf(text, "# gpu_valid_bits=%lld", &g->valid_bits);
}

/* The lines of the one GPU file in @p dir (each -1 without the file). */
static struct gpu_file_lines gpu_file_in(const char *dir)
{
	struct gpu_file_lines g = {-1, -1};
	consume_files(dir, "gpu-", gpu_file_line, &g);
	return g;
}

static void count_data_line(void *ctx, const char *text)
{
	*(long long *)ctx += text[0] != '#';
}

/* Data rows of the calls files in @p dir (the column header left out); -1 when there is none. */
static long long calls_rows_in(const char *dir)
{
	long long lines = 0;
	int files = consume_files(dir, "calls-", count_data_line, &lines);
	return files ? lines - files : -1;
}

static int check(const char *name, const char *dir, unsigned frames, uint64_t skipped,
                 unsigned pending)
{
	fake_pending = pending;
	run_session(dir, frames, skipped, false);
	struct gpu_file_lines g = gpu_file_in(dir);
	long long got = g.overflow, want = (long long)(skipped + pending);
	/* A file of lost samples only still says its clock's width (the stamper's). */
	if (got > 0 && g.valid_bits != STAND_IN_BITS) {
		fprintf(stderr, "FAIL %s: the GPU file says gpu_valid_bits=%lld (-1: no line), "
		        "want %d\n", name, g.valid_bits, STAND_IN_BITS);
		return 1;
	}
	if (got != want) {
		fprintf(stderr, "FAIL %s: %u frames, %llu skipped, %u still on the GPU: the GPU "
		        "file says gpu_ring_overflow=%lld (-1: no GPU file), want %lld\n", name,
		        frames, (unsigned long long)skipped, pending, got, want);
		return 1;
	}
	printf("%s: gpu_ring_overflow=%lld as lost\n", name, got);
	return 0;
}

/* The OpenGL stand-in's session: its GPU file names the context's width, sample or not. */
static int check_gl(const char *name, const char *dir, bool sample, uint64_t skipped)
{
	struct xl_gl gl;

	memset(&gl, 0, sizeof(gl));
	gl.valid_bits = STAND_IN_BITS;
	atomic_store(&gl.status, XL_GL_STATUS_READY);
	gl_stand_in = &gl;
	gl_sample = sample;
	fake_pending = 0;
	run_session(dir, 40, skipped, false);
	gl_stand_in = NULL;
	struct gpu_file_lines g = gpu_file_in(dir);
	if (g.valid_bits != STAND_IN_BITS || g.overflow != (long long)skipped) {
		fprintf(stderr, "FAIL %s: an OpenGL session with a %d-bit counter: the GPU file "
		        "says gpu_valid_bits=%lld, gpu_ring_overflow=%lld (-1: no line), want %d "
		        "and %llu\n", name, STAND_IN_BITS, g.valid_bits, g.overflow, STAND_IN_BITS,
		        (unsigned long long)skipped);
		return 1;
	}
	printf("%s: gpu_valid_bits=%d\n", name, STAND_IN_BITS);
	return 0;
}

/* Which of the lines wanted (a NULL-ended list) a file has. */
struct wanted_lines {
	const char *const *lines;
	unsigned found; /* a bit per line */
};

static void wanted_line(void *ctx, const char *text)
{
	struct wanted_lines *w = ctx;
	for (unsigned i = 0; w->lines[i]; i++)
		if (strcmp(text, w->lines[i]) == 0)
			w->found |= 1u << i;
}

/*
 * An OpenGL session's sample on a clock of 83.333333 ns a tick (a 12 MHz
 * counter), with a clock correlation: the GPU file's row gives the period
 * to 9 digits (the float's own), and its calibration line each number in
 * its place.
 */
static int check_gl_lines(const char *dir)
{
	static const char *const lines[] = {
		"1000,77,83.3333359,1\n",
		"# calibration gpu_ticks=111 monotonic_ns=222 max_deviation_ns=3\n",
		NULL,
	};
	struct xl_gl gl;
	struct wanted_lines w = {lines, 0};

	memset(&gl, 0, sizeof(gl));
	gl.valid_bits = STAND_IN_BITS;
	gl.has_cal = true;
	gl.cal = (struct xl_gpu_calibration){.gpu_ticks = 111, .monotonic_ns = 222,
	                                     .max_deviation_ns = 3};
	atomic_store(&gl.status, XL_GL_STATUS_READY);
	gl_stand_in = &gl;
	gl_sample = true;
	gl_period_ns = 83.333333f;
	fake_pending = 0;
	run_session(dir, 40, 0, false);
	gl_stand_in = NULL;
	gl_period_ns = 1.0f;
	consume_files(dir, "gpu-", wanted_line, &w);
	consume_files(dir, "", NULL, NULL);
	for (unsigned i = 0; lines[i]; i++)
		if (!(w.found & 1u << i)) {
			fprintf(stderr, "FAIL gl_lines: the GPU file lacks the line %s", lines[i]);
			return 1;
		}
	printf("gl_lines: the period to 9 digits, the calibration's numbers in place\n");
	return 0;
}

static int check_late(const char *dir)
{
	fake_pending = 0;
	run_session(dir, 10, 0, true);
	gpu_file_in(dir);
	long long rows = calls_rows_in(dir);
	if (rows != 11) {
		fprintf(stderr, "FAIL late: the calls file has %lld rows, want 11 (10 frames and "
		        "a call that returned 30 ms after the stop)\n", rows);
		return 1;
	}
	printf("late: a call returning 30 ms after the stop is in its session's calls file\n");
	return 0;
}

/* The session-closed hook: blocks until released (5 s at most), counting its sessions. */
static atomic_bool hook_release;
static atomic_uint hook_entered, hook_done;

static void blocking_hook(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	(void)ctx, (void)id, (void)tag, (void)dir_fd;
	atomic_fetch_add(&hook_entered, 1);
	for (int i = 0; i < 5000 && !atomic_load(&hook_release); i++)
		usleep(1000);
	atomic_fetch_add(&hook_done, 1);
}

/*
 * Session 1 (10 frames) stops; while its hook blocks, session 2 records
 * three rings' worth of frames: none may be lost, and session 1 is not
 * settled before its hook returns.
 */
static int check_hook(const char *dir)
{
	struct xl_settings settings = {.delay_s = -1.0};
	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", dir);
	struct xl_control *ctl = xl_control_create(&settings);
	static struct xl_ring_pool rings;
	struct xl_writer w;
	int failures = 0;

	if (!ctl || xl_ring_pool_create(&rings, 1024) != 0)
		return 1;
	struct xl_writer_config cfg = {
		.side = XL_SIDE_PRE,
		.meta = {"pre", "XR_APILAYER_XRLM_monitor_pre", "test", -1, U_PHASE_ALL},
		.ctl = ctl,
		.rings = &rings,
		.dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
		.session_closed = blocking_hook,
	};
	if (xl_writer_start(&w, &cfg) != 0)
		return 1;
	xl_control_request(ctl, XL_REQ_START);
	for (unsigned i = 0; i < 10; i++)
		push_frame(&rings, xl_control_pre_frame(ctl), i);
	xl_control_stop_now(ctl);
	for (int i = 0; i < 2000 && !atomic_load(&hook_entered); i++)
		usleep(1000);
	if (!atomic_load(&hook_entered)) {
		fprintf(stderr, "FAIL hook: session 1's hook never ran\n");
		failures++;
	}
	xl_control_request(ctl, XL_REQ_START);
	unsigned lost = 0;
	for (unsigned i = 0; i < 3 * 1024; i++) {
		lost += !push_frame(&rings, xl_control_pre_frame(ctl), 100 + i);
		if (i % 100 == 99)
			usleep(20000); /* the writer's poll is 2 ms: it keeps up, if it runs */
	}
	uint32_t settled = atomic_load(&ctl->settled[XL_SIDE_PRE]);
	atomic_store(&hook_release, true);
	xl_control_stop_now(ctl);
	xl_writer_stop(&w);
	if (lost) {
		fprintf(stderr, "FAIL hook: %u of %u frames lost while the previous session's hook "
		        "ran (the writer stopped draining)\n", lost, 3 * 1024);
		failures++;
	}
	if (settled >= 1) {
		fprintf(stderr, "FAIL hook: session 1 settled (%u) before its hook returned\n", settled);
		failures++;
	}
	if (atomic_load(&hook_done) != 2 || atomic_load(&ctl->settled[XL_SIDE_PRE]) != 2) {
		fprintf(stderr, "FAIL hook: %u hooks ran, sessions settled up to %u; want 2 and 2\n",
		        atomic_load(&hook_done), atomic_load(&ctl->settled[XL_SIDE_PRE]));
		failures++;
	}
	xl_ring_pool_destroy(&rings);
	close(cfg.dir_fd);
	xl_control_unref(ctl);
	consume_files(dir, "", NULL, NULL);
	if (!failures)
		printf("hook: %u frames recorded while the previous session's hook ran, none lost\n",
		       3 * 1024);
	return failures;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Files of @p dir named @p prefix...@p suffix. */
static int files_in(const char *dir, const char *prefix, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name), slen = strlen(suffix);
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0 && len >= slen &&
		     strcmp(e->d_name + len - slen, suffix) == 0;
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * One run of gl_grace: 1 if session 1's sample, read back once session 2
 * began (in session 1's grace, as OpenGL's come 2-8 frames late), is
 * missing from session 1's GPU file; -1 if the run could not tell (the
 * grace ran out first on a loaded machine); 0 if it is there.
 */
static int gl_grace_run(const char *dir)
{
	static const char *const lines[] = {"1000,77,1,1\n", NULL};
	struct xl_settings settings = {.delay_s = -1.0};
	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", dir);
	struct xl_control *ctl = xl_control_create(&settings);
	static struct xl_ring_pool rings;
	struct xl_gl gl;
	struct xl_gpu_holder holder;
	struct xl_writer w;
	struct wanted_lines found = {lines, 0};

	memset(&gl, 0, sizeof(gl));
	gl.valid_bits = STAND_IN_BITS;
	atomic_store(&gl.status, XL_GL_STATUS_READY);
	pthread_mutex_init(&holder.lock, NULL);
	atomic_init(&holder.gpu, NULL);
	atomic_init(&holder.gl, &gl);
	fake_pending = 0;
	if (!ctl || xl_ring_pool_create(&rings, 1024) != 0)
		return 1;
	struct xl_writer_config cfg = {
		.side = XL_SIDE_PRE,
		.meta = {"pre", "XR_APILAYER_XRLM_monitor_pre", "test", -1, U_PHASE_ALL},
		.ctl = ctl,
		.rings = &rings,
		.gpu = &holder,
		.dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
	};
	if (xl_writer_start(&w, &cfg) != 0)
		return 1;
	xl_control_request(ctl, XL_REQ_START);
	uint32_t first = xl_control_pre_frame(ctl);
	for (unsigned i = 0; i < 10; i++)
		push_frame(&rings, first, i);
	xl_control_request(ctl, XL_REQ_STOP);
	xl_control_pre_frame(ctl);
	xl_control_request(ctl, XL_REQ_START);
	uint64_t start = now_ns();
	push_frame(&rings, xl_control_pre_frame(ctl), 0);
	/* The writer has opened session 2's file: session 1 is in its grace. */
	for (int i = 0; i < 5000 && files_in(dir, "frames-", "-pre.csv") < 2; i++)
		usleep(1000);
	push_gl_sample(&gl, first);
	/* The grace is 100 ms from the writer's look at session 1's end. */
	bool in_time = now_ns() - start < 50000000ull;
	xl_control_stop_now(ctl);
	xl_writer_stop(&w);
	xl_ring_pool_destroy(&rings);
	pthread_mutex_destroy(&holder.lock);
	close(cfg.dir_fd);
	xl_control_unref(ctl);
	consume_files(dir, "gpu-", wanted_line, &found);
	consume_files(dir, "", NULL, NULL);
	return found.found ? 0 : in_time ? 1 : -1;
}

static int check_gl_grace(const char *dir)
{
	/* A run the machine held up past the grace says nothing: five runs, any one enough. */
	for (int attempt = 1; attempt <= 5; attempt++) {
		int r = gl_grace_run(dir);
		if (r == 0) {
			printf("gl_grace: a sample read back in its session's grace is in its GPU file\n");
			return 0;
		}
		if (r > 0)
			break;
	}
	fprintf(stderr, "FAIL gl_grace: session 1's sample, read back while session 2 recorded "
	        "(in session 1's grace), is missing from its GPU file\n");
	return 1;
}

static atomic_uint hooks_run;
static atomic_uint hook_session;

static void counting_hook(void *ctx, uint32_t id, const char *tag, int dir_fd)
{
	(void)ctx, (void)tag, (void)dir_fd;
	atomic_store(&hook_session, id);
	atomic_fetch_add(&hooks_run, 1);
}

/*
 * Session 1 records calls but no xrEndFrame (its frames file has no row):
 * nothing for the merge, whose hook it must not reach; session 2, with a
 * frame, reaches it.
 */
static int check_no_frames(const char *dir)
{
	struct xl_settings settings = {.delay_s = -1.0};
	snprintf(settings.output_dir, sizeof(settings.output_dir), "%s", dir);
	struct xl_control *ctl = xl_control_create(&settings);
	static struct xl_ring_pool rings;
	struct xl_writer w;
	int failures = 0;

	if (!ctl || xl_ring_pool_create(&rings, 1024) != 0)
		return 1;
	struct xl_writer_config cfg = {
		.side = XL_SIDE_POST,
		.meta = {"post", "XR_APILAYER_XRLM_monitor_post", "test", 0, U_PHASE_ALL},
		.ctl = ctl,
		.rings = &rings,
		.dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
		.session_closed = counting_hook,
	};
	/* Post's writer waits for pre's tags: this test settles them as pre would. */
	if (xl_writer_start(&w, &cfg) != 0)
		return 1;
	uint32_t ids[2];
	for (unsigned n = 0; n < 2; n++) {
		xl_control_request(ctl, XL_REQ_START);
		ids[n] = xl_control_pre_frame(ctl);
		char tag[32];
		snprintf(tag, sizeof(tag), "nf-%u", ids[n]);
		xl_control_settle_tag(ctl, ids[n], XL_TAG_READY, 0, tag);
		struct xl_ring *ring = xl_ring_mine(&rings);
		for (unsigned i = 0; i < 3; i++) {
			struct xl_call_record *rec = ring ? xl_ring_claim(ring) : NULL;
			if (!rec)
				return 1;
			memset(rec, 0, sizeof(*rec));
			rec->thread_id = 1;
			rec->t_entry = 10 + i;
			rec->t_exit = 20 + i;
			rec->session_id = ids[n];
			/* Session 2's last call is its xrEndFrame. */
			rec->fn = n == 1 && i == 2 ? XL_FN_xrEndFrame : XL_FN_xrLocateSpace;
			xl_ring_publish(ring);
		}
		xl_control_request(ctl, XL_REQ_STOP);
		xl_control_pre_frame(ctl);
	}
	xl_control_stop_now(ctl);
	xl_writer_stop(&w);
	if (atomic_load(&hooks_run) != 1 || atomic_load(&hook_session) != ids[1]) {
		fprintf(stderr, "FAIL no_frames: the merge's hook ran %u times, last for session %u; "
		        "want once, for session %u (session %u has no frame to merge)\n",
		        atomic_load(&hooks_run), atomic_load(&hook_session), ids[1], ids[0]);
		failures++;
	}
	xl_ring_pool_destroy(&rings);
	close(cfg.dir_fd);
	xl_control_unref(ctl);
	consume_files(dir, "", NULL, NULL);
	if (!failures)
		printf("no_frames: a session without a frame row is not handed to the merge\n");
	return failures;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: rel_gpu_loss DIR\n");
		return 2;
	}
	int failed = check_late(argv[1]);
	failed |= check("skipped", argv[1], 40, 40, 0);
	failed |= check("pending", argv[1], 40, 0, 5);
	failed |= check("both", argv[1], 40, 35, 5);
	failed |= check_hook(argv[1]);
	failed |= check_gl("gl_sample", argv[1], true, 0);
	failed |= check_gl("gl_skipped", argv[1], false, 40);
	failed |= check_gl_lines(argv[1]);
	failed |= check_no_frames(argv[1]);
	failed |= check_gl_grace(argv[1]);
	return failed;
}
