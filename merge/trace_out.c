/*
 * Chrome Trace Event JSON, streamed; see trace_out.h. Events are formatted
 * by hand (not through jsonw's per-value calls): a million a second is the
 * target, and every string that comes from a file goes through
 * jsonw_escape().
 */
#include "trace_out.h"

#include "jsonw.h"

#include <inttypes.h>
#include <string.h>

/* Writes @p v in decimal (printf's general machinery is the bottleneck here). */
static void put_u64(FILE *f, uint64_t v)
{
	char buf[24];
	char *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

/* "1234.567": @p ns as microseconds with three decimals. */
static void put_us(FILE *f, int64_t ns)
{
	uint64_t v = (uint64_t)ns;
	char frac[4] = {'.', 0, 0, 0};

	if (ns < 0) {
		fputc_unlocked('-', f);
		v = -v;
	}
	put_u64(f, v / 1000);
	frac[1] = (char)('0' + v / 100 % 10);
	frac[2] = (char)('0' + v / 10 % 10);
	frac[3] = (char)('0' + v % 10);
	fwrite_unlocked(frac, 1, sizeof(frac), f);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	jsonw_escape(f, s, strlen(s));
	fputc('"', f);
}

/* Remembers track (@p pid, @p tid) for its name at the end. */
static void see_track(struct trace_out *o, int pid, uint64_t tid)
{
	for (unsigned i = o->track_count; i-- > 0;)
		if (o->tracks[i].pid == pid && o->tracks[i].tid == tid)
			return;
	if (o->track_count == TRACE_MAX_TRACKS)
		return;
	o->tracks[o->track_count].pid = pid;
	o->tracks[o->track_count].tid = tid;
	o->track_count++;
}

/* Starts one event: the comma, name, phase, process and thread. */
static void event_head(struct trace_out *o, const char *name, char ph, int pid, uint64_t tid)
{
	fputs_unlocked(o->events++ ? ",\n{\"name\":" : "\n{\"name\":", o->f);
	put_string(o->f, name);
	fputs_unlocked(",\"ph\":\"", o->f);
	fputc_unlocked(ph, o->f);
	fputs_unlocked("\",\"pid\":", o->f);
	put_u64(o->f, (uint64_t)pid);
	fputs_unlocked(",\"tid\":", o->f);
	put_u64(o->f, tid);
}

/* Names process @p pid and places it @p index-th (pre, target, post: the chain's order). */
static void name_process(struct trace_out *o, int pid, int index, const char *name)
{
	event_head(o, "process_name", 'M', pid, 0);
	fputs(",\"args\":{\"name\":", o->f);
	put_string(o->f, name);
	fprintf(o->f, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
	              "\"args\":{\"sort_index\":%d}}", pid, index);
	o->events++; /* the sort index's, which event_head() did not count */
}

void trace_out_begin(struct trace_out *o, FILE *f, int64_t from_ns, int64_t to_ns)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->from_ns = from_ns;
	o->to_ns = to_ns;
	fputs("{\"traceEvents\":[", f);
}

static bool in_window(const struct trace_out *o, int64_t t_ns, int64_t dur_ns)
{
	return t_ns + dur_ns >= o->from_ns && t_ns <= o->to_ns;
}

static void put_args(FILE *f, const char *args)
{
	if (args && args[0])
		fprintf(f, ",\"args\":{%s}", args);
}

bool trace_out_slice(struct trace_out *o, int pid, uint64_t tid, const char *name,
                     int64_t t_ns, int64_t dur_ns, const char *args)
{
	if (!in_window(o, t_ns, dur_ns))
		return false;
	see_track(o, pid, tid);
	event_head(o, name, 'X', pid, tid);
	fputs(",\"ts\":", o->f);
	put_us(o->f, t_ns);
	fputs(",\"dur\":", o->f);
	put_us(o->f, dur_ns);
	put_args(o->f, args);
	fputc('}', o->f);
	return true;
}

void trace_out_instant(struct trace_out *o, int pid, uint64_t tid, const char *name,
                       int64_t t_ns, const char *args)
{
	if (!in_window(o, t_ns, 0))
		return;
	see_track(o, pid, tid);
	event_head(o, name, 'i', pid, tid);
	fputs(",\"s\":\"t\",\"ts\":", o->f);
	put_us(o->f, t_ns);
	put_args(o->f, args);
	fputc('}', o->f);
}

bool trace_out_mark(struct trace_out *o, const char *text, int64_t t_ns)
{
	if (!in_window(o, t_ns, 0))
		return false;
	event_head(o, text, 'i', TRACE_PID_PRE, 0);
	fputs(",\"s\":\"g\",\"cat\":\"mark\",\"ts\":", o->f);
	put_us(o->f, t_ns);
	fputc('}', o->f);
	return true;
}

void trace_out_counter(struct trace_out *o, int pid, const char *name, int64_t t_ns,
                       double value)
{
	if (!in_window(o, t_ns, 0))
		return;
	event_head(o, name, 'C', pid, 0);
	fputs(",\"ts\":", o->f);
	put_us(o->f, t_ns);
	fputs(",\"args\":{\"value\":", o->f);
	fprintf(o->f, "%.3f}}", value);
}

int trace_out_end(struct trace_out *o, const struct trace_out_names *n)
{
	name_process(o, TRACE_PID_PRE, 1, n->pre);
	name_process(o, TRACE_PID_TARGET, 2, n->target);
	name_process(o, TRACE_PID_POST, 3, n->post);
	for (unsigned i = 0; i < o->track_count; i++) {
		char name[64];
		if (o->tracks[i].tid == TRACE_TID_GPU)
			snprintf(name, sizeof(name), "GPU");
		else
			snprintf(name, sizeof(name), "thread %" PRIu64, o->tracks[i].tid);
		event_head(o, "thread_name", 'M', o->tracks[i].pid, o->tracks[i].tid);
		fputs(",\"args\":{\"name\":", o->f);
		put_string(o->f, name);
		fputs("}}", o->f);
	}
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"session\":", o->f);
	put_string(o->f, n->session);
	fputs(",\"target_layer\":", o->f);
	put_string(o->f, n->target_layer);
	fputs(",\"clock\":\"CLOCK_MONOTONIC\",\"generator\":\"xrlm trace\"}}\n", o->f);
	return ferror(o->f) ? -1 : 0;
}
