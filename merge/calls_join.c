/*
 * The nested-call sandwich; see calls_join.h.
 *
 * The walk: pre's and post's rows come from a calls_queue each (read on
 * their own threads, functions named by ids). Each pre call waits in its
 * thread's FIFO (in t_entry order, whatever order the rows came in); a post
 * row is placed once every pre row that could hold it has been read (its
 * t_entry is below the lowest a pre row still to come may have, the floor
 * its reader gave pre's last row: calls_order.h), and a pre call is final
 * once no post row still to come can lie inside it (it ends before the
 * floor of post's next row).
 * Nested pre calls are subtracted from their container when it is final:
 * they are behind it in its FIFO then.
 */
#include "calls_join.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls_queue.h"
#include "mem.h"
#include "quote.h"

/* xrEndFrame calls appended to a shared spill between two spill_publish(). */
#define ENDS_PUBLISH 256
/* How many levels out from the latest candidate a container is looked for (see container()). */
#define NEST_HOPS 256
/* Steps before bisecting the FIFO: calls come in time order, mostly. */
#define FINGER_STEPS 4
/* Calls a thread's FIFO may grow to rather than move its live part more often (calls_join.h). */
#define FIFO_GROW_MAX (2 * CALLS_JOIN_LAG_ROWS)

/* A pre call not yet final. */
struct open_call {
	int64_t t_entry, t_exit;
	uint64_t frame_id;
	uint64_t thread_id;
	int64_t result;
	int64_t post_ns;  /* durations of the post calls inside */
	uint32_t fn;
	uint32_t npost;
	uint32_t up; /* how many places back the call holding it is; 0: none (see memo_up()) */
	bool forwarded;
};

/* A file's function ids (calls_queue.h) to r->fns indices + 1 (0: unknown yet). */
struct fn_map {
	uint32_t *index;
	size_t cap;
};

/*
 * One thread's pre calls in t_entry order, [head, tail) of calls. finger
 * is where the last post call's search ended: the next one, a little later
 * in time, ends there or a few calls on. The calls below known (and from
 * head) have their up set.
 */
struct thread_calls {
	struct open_call *calls;
	size_t head, tail, cap;
	size_t finger;
	size_t known;
};

struct sweep {
	struct calls_result *r;
	int64_t bracket_ns;
	struct calls_queue pre, post;
	struct fn_map pre_fns, post_fns;
	struct idmap thread_ids;
	struct thread_calls *threads;
	size_t thread_cap;
	uint64_t last_thread_id; /* the last row's thread, */
	uint32_t last_thread;    /* its index in threads + 1 (0: none yet) */
	int64_t placed_until; /* every post row before it is placed */
	int64_t final_until;  /* every pre call ending before it is final */
	calls_join_call_fn each; /* may be NULL */
	void *each_ctx;
	struct spill *ends; /* out->ends, or the caller's shared one */
	const struct calls_join_opts *opts;
	unsigned tally_turn; /* advances that finalized calls, modulo TALLY_EVERY */
	bool phases_known;   /* r->phases_recorded is set (note_phases()) */
};

/* The counts are published once in this many advances that finalize calls. */
#define TALLY_EVERY 64

/* Publishes the counts so far to opts->tally (relaxed: each is read alone). */
static void publish_tally(const struct sweep *s)
{
	struct calls_join_tally *t = s->opts->tally;
	const struct calls_result *r = s->r;

	atomic_store_explicit(&t->pre_calls, r->pre_calls, memory_order_relaxed);
	atomic_store_explicit(&t->post_calls, r->post_calls, memory_order_relaxed);
	atomic_store_explicit(&t->self_answered_calls, r->self_answered_calls, memory_order_relaxed);
	atomic_store_explicit(&t->induced_calls, r->induced_calls, memory_order_relaxed);
	atomic_store_explicit(&t->own_thread_calls, r->own_thread_calls, memory_order_relaxed);
	atomic_store_explicit(&t->late_calls, r->late_calls, memory_order_relaxed);
	atomic_store_explicit(&t->phases_recorded, r->phases_recorded, memory_order_relaxed);
	atomic_store_explicit(&t->placed_until_ns, s->placed_until, memory_order_relaxed);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return -1;
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*p = q;
	*cap = n;
	return 0;
}

/*
 * Grows @p t's FIFO to hold @p need calls. Up to 16 MB for an unpaced
 * app's session: a block of mem.h's, a mapping of its own inside an
 * application (grown by a new mapping and a copy), never malloc's there.
 */
static int fifo_grow(struct thread_calls *t, size_t need)
{
	if (need <= t->cap)
		return 0;
	size_t n = t->cap ? t->cap : 16;
	while (n < need)
		n *= 2;
	void *q = mem_realloc(t->calls, n * sizeof(*t->calls));
	if (!q)
		return -1;
	t->calls = q;
	t->cap = n;
	return 0;
}

/* Frees @p t's FIFO. */
static void fifo_free(struct thread_calls *t)
{
	mem_free(t->calls);
	t->calls = NULL;
	t->cap = 0;
}

/* The index of function @p name in r->fns, adding it when new. */
static int intern_fn(struct calls_result *r, const char *name, uint32_t *out, char *msg,
                     size_t msg_size)
{
	uint32_t known = calls_names_count(&r->fn_names);

	if (calls_names_intern(&r->fn_names, name, strlen(name), out, msg, msg_size) != 0)
		return -1;
	if (*out < known)
		return 0;
	if (grow((void **)&r->fns, &r->fn_cap, r->fn_count + 1, sizeof(*r->fns)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	struct calls_fn *f = &r->fns[r->fn_count++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->phase = u_phase_of(name);
	return 0;
}

/* fn_of() for an id not mapped yet: its name interned, the map grown. */
static int fn_of_new(struct calls_result *r, struct fn_map *m, const struct calls_queue *from,
                     const struct calls_qrow *q, uint32_t *out, char *msg, size_t msg_size)
{
	if (grow((void **)&m->index, &m->cap, (size_t)q->fn_id + 1, sizeof(*m->index)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	if (intern_fn(r, calls_queue_fn(from, q->fn_id), out, msg, msg_size) != 0)
		return -1;
	m->index[q->fn_id] = *out + 1;
	return 0;
}

/*
 * The index in r->fns of row @p q's function, through @p m (the ids of
 * its file, read by @p from, to indices + 1; 0: not seen yet): names are
 * compared once per function and file, not once per row.
 */
static inline int fn_of(struct calls_result *r, struct fn_map *m, const struct calls_queue *from,
                        const struct calls_qrow *q, uint32_t *out, char *msg, size_t msg_size)
{
	if (q->fn_id < m->cap && m->index[q->fn_id]) {
		*out = m->index[q->fn_id] - 1;
		return 0;
	}
	return fn_of_new(r, m, from, q, out, msg, msg_size);
}

/* thread_of() for a thread other than the last one's. */
static struct thread_calls *thread_of_other(struct sweep *s, uint64_t id)
{
	uint32_t t;

	if (idmap_get(&s->thread_ids, id, &t, NULL) != 0 ||
	    grow((void **)&s->threads, &s->thread_cap, (size_t)t + 1, sizeof(*s->threads)) != 0)
		return NULL;
	s->last_thread_id = id;
	s->last_thread = t + 1;
	return &s->threads[t];
}

/* Thread @p id's calls (a row's thread is the last row's, mostly). NULL: out of memory. */
static inline struct thread_calls *thread_of(struct sweep *s, uint64_t id)
{
	if (s->last_thread && s->last_thread_id == id)
		return &s->threads[s->last_thread - 1];
	return thread_of_other(s, id);
}

/*
 * What the clock reads add to @p c's bracket beyond the target's time:
 * half of bracket_correction_ns (one read) for P's own two reads, whose
 * outer halves fall inside its bracket, and one more for each bracket
 * inside it (a post call or a nested app call), whose outer halves fall
 * outside that bracket but inside P's. A forwarded call (one post call)
 * gets the whole correction, exactly as the frames merge's target_us.
 */
static int64_t reads_ns(const struct sweep *s, const struct open_call *c, int64_t nested)
{
	return (1 + (int64_t)c->npost + nested) * s->bracket_ns / 2;
}

/* The first of @p t's calls beginning after @p entry, by bisection of [@p lo, @p hi). */
static size_t first_after_in(const struct thread_calls *t, size_t lo, size_t hi, int64_t entry)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->calls[mid].t_entry <= entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first of @p t's calls from @p i on beginning after @p entry, none
 * before @p i doing so: a few steps forward, then a bisection of the rest
 * (past a call holding many nested ones).
 */
static size_t step_forward(const struct thread_calls *t, size_t i, int64_t entry)
{
	for (int n = 0; i < t->tail && t->calls[i].t_entry <= entry; n++, i++)
		if (n == FINGER_STEPS)
			return first_after_in(t, i, t->tail, entry);
	return i;
}

/*
 * The first of @p t's calls beginning after @p entry, every call from
 * @p i on doing so: a few steps back, then a bisection of the rest.
 */
static size_t step_back(const struct thread_calls *t, size_t i, int64_t entry)
{
	for (int n = 0; i > t->head && t->calls[i - 1].t_entry > entry; n++, i--)
		if (n == FINGER_STEPS)
			return first_after_in(t, t->head, i, entry);
	return i;
}

/*
 * The first of @p t's calls after call @p i that begins once @p i has
 * ended: a step or two usually, a bisection past many nested calls.
 * (Times are within ±2^61 ns, side_file.h: t_exit - 1 cannot overflow.)
 */
static size_t next_sibling(const struct thread_calls *t, size_t i)
{
	return step_forward(t, i + 1, t->calls[i].t_exit - 1);
}

/*
 * The durations of the calls nested directly inside the FIFO's head: those
 * after it that it holds, less the ones held by another of them (skipped
 * by bisection: a call's nested ones can be thousands in a hostile file).
 * They are still in the FIFO (behind the head, which is finalized first).
 * Their number goes to *@p count. A call beginning inside the head and
 * ending after it cannot be on one thread: the walk stops there.
 */
static int64_t nested_ns(const struct thread_calls *t, int64_t *count)
{
	const struct open_call *c = &t->calls[t->head];
	int64_t sum = 0;

	*count = 0;
	for (size_t i = t->head + 1; i < t->tail && t->calls[i].t_entry < c->t_exit;) {
		const struct open_call *n = &t->calls[i];
		if (n->t_exit > c->t_exit)
			break;
		sum += n->t_exit - n->t_entry;
		(*count)++;
		i = next_sibling(t, i);
	}
	return sum;
}

/*
 * The first of @p t's calls beginning after @p entry, found from the
 * finger: a step or two in the usual case, where bisecting the FIFO (its
 * hundreds of calls) costs a dozen unpredictable branches a post call.
 */
static size_t first_after(struct thread_calls *t, int64_t entry)
{
	size_t i = t->finger;

	if (i < t->head)
		i = t->head;
	if (i > t->tail)
		i = t->tail;
	/* Once it has stepped forward, stepping back stops at once. */
	i = step_forward(t, i, entry);
	return t->finger = step_back(t, i, entry);
}

/*
 * Where a call [@p entry, @p exit] goes among @p t's calls up to @p pos,
 * the first of them beginning after @p entry: before the calls beginning
 * on the same tick that it holds (a coarse clock's), so that a container
 * comes before what it holds, as every walk here expects (nested_ns(),
 * memo_up(), container()). Such calls end in decreasing order: bisected.
 */
static size_t place_among_ties(const struct thread_calls *t, size_t pos, int64_t entry,
                               int64_t exit)
{
	if (pos == t->head || t->calls[pos - 1].t_entry != entry)
		return pos; /* the usual case: no call begins on its tick */
	size_t lo = first_after_in(t, t->head, pos, entry - 1), hi = pos;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->calls[mid].t_exit > exit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Makes room in @p t's FIFO for a call [@p t_entry, @p t_exit], in
 * t_entry order, a call before those it holds (moving the live part down
 * when the end is reached), and returns the room, for the caller to fill
 * (NULL: out of memory). A call arrives after the calls nested inside it:
 * a thread's ring holds its records in the order they returned.
 */
static struct open_call *fifo_push(struct thread_calls *t, int64_t t_entry, int64_t t_exit)
{
	/* The live part moves down once it fills at most half the FIFO, so
	 * that a call is moved about once in all, not at every lap (the FIFO
	 * grows otherwise, up to what the lag bounds hold anyway). */
	if (t->tail == t->cap && t->head > 0 &&
	    (t->tail - t->head <= t->cap / 2 || t->cap >= FIFO_GROW_MAX)) {
		memmove(t->calls, t->calls + t->head, (t->tail - t->head) * sizeof(*t->calls));
		t->finger = t->finger > t->head ? t->finger - t->head : 0;
		t->known = t->known > t->head ? t->known - t->head : 0;
		t->tail -= t->head;
		t->head = 0;
	}
	if (fifo_grow(t, t->tail + 1) != 0)
		return NULL;
	size_t pos = place_among_ties(t, step_back(t, t->tail, t_entry), t_entry, t_exit);
	if (pos < t->tail) /* not the usual case: no call for nothing */
		memmove(t->calls + pos + 1, t->calls + pos, (t->tail - pos) * sizeof(*t->calls));
	/* The ups from pos on were found without this call, and have moved:
	 * found again when needed (a call comes before known only when it is
	 * later in its file than the lag allows: calls_order.h). */
	if (t->known > pos)
		t->known = pos;
	t->tail++;
	return &t->calls[pos];
}

/* Whether @p c holds [@p entry, @p exit]. */
static inline bool holds(const struct open_call *c, int64_t entry, int64_t exit)
{
	return c->t_entry <= entry && exit <= c->t_exit;
}

/* The index of the call holding @p t's call @p i (SIZE_MAX: none still open); i < t->known. */
static size_t up_of(const struct thread_calls *t, size_t i)
{
	uint32_t up = t->calls[i].up;

	return up && up <= i - t->head ? i - up : SIZE_MAX;
}

/*
 * Sets up for @p t's calls up to @p end: the innermost earlier call
 * holding each. Calls on one thread nest or follow each other, so a call
 * not holding the next one ended before it: the next one's holder holds
 * that call too, and is found among its holders, skipping what is nested
 * in them (each call's up is found once, in a few steps overall).
 */
static void memo_up(struct thread_calls *t, size_t end)
{
	if (t->known < t->head)
		t->known = t->head;
	for (; t->known < end; t->known++) {
		struct open_call *c = &t->calls[t->known];
		size_t h = t->known > t->head ? t->known - 1 : SIZE_MAX;
		while (h != SIZE_MAX && !holds(&t->calls[h], c->t_entry, c->t_exit))
			h = up_of(t, h);
		c->up = h == SIZE_MAX || t->known - h > UINT32_MAX ? 0 : (uint32_t)(t->known - h);
	}
}

/*
 * The innermost pre call of @p t holding [entry, exit], or NULL: the last
 * one that began at or before @p entry, or one of the calls holding it (a
 * call before the post call may be nested in the one that holds it, as
 * are the app's calls the target made through the loader before calling
 * down). Hostile files may nest calls thousands deep: NEST_HOPS levels
 * out are looked at, not more, to keep the cost of a post call bounded.
 */
static struct open_call *container(struct thread_calls *t, int64_t entry, int64_t exit)
{
	size_t lo = first_after(t, entry);

	if (lo == t->head)
		return NULL;
	if (holds(&t->calls[lo - 1], entry, exit))
		return &t->calls[lo - 1];
	memo_up(t, lo);
	size_t h = up_of(t, lo - 1);
	for (int n = 0; h != SIZE_MAX && n < NEST_HOPS; n++, h = up_of(t, h))
		if (holds(&t->calls[h], entry, exit))
			return &t->calls[h];
	return NULL;
}

/* Records the frame-loop call @p c of @p phase in its frame (the first of each kind). */
static void note_frame_call(struct calls_frame *f, enum u_phase phase, const struct open_call *c)
{
	if (phase == U_PHASE_WAIT && !(f->has & CALLS_HAS_WAIT)) {
		f->wait_entry = c->t_entry;
		f->wait_exit = c->t_exit;
		f->has |= CALLS_HAS_WAIT;
	} else if (phase == U_PHASE_BEGIN && !(f->has & CALLS_HAS_BEGIN)) {
		f->begin_entry = c->t_entry;
		f->begin_exit = c->t_exit;
		f->has |= CALLS_HAS_BEGIN;
	} else if (phase == U_PHASE_END && !(f->has & CALLS_HAS_END)) {
		f->end_exit = c->t_exit;
		f->has |= CALLS_HAS_END;
	}
}

/* @p t's head can gain no more post calls: its exclusive time is final. */
static int finalize(struct sweep *s, const struct thread_calls *t)
{
	struct calls_result *r = s->r;
	const struct open_call *c = &t->calls[t->head];
	struct calls_fn *fn = &r->fns[c->fn];
	int64_t nested;
	int64_t excl = (c->t_exit - c->t_entry) - nested_ns(t, &nested) - c->post_ns;
	excl -= reads_ns(s, c, nested);
	struct calls_frame *f = calls_frames_at(&r->frames, c->frame_id);

	if (!f || qhist_add(&fn->excl, excl) != 0)
		return -1;
	fn->calls++;
	fn->total_ns += excl;
	if (c->frame_id < r->complete_from)
		f->has |= CALLS_HAS_PARTIAL;
	if (c->npost == 0)
		r->self_answered_calls++;
	r->frames_with_calls += !(f->has & CALLS_HAS_ANY);
	f->has |= CALLS_HAS_ANY;
	f->phase_ns[fn->phase] += excl;
	note_frame_call(f, fn->phase, c);
	if (s->each) {
		struct calls_join_call call = {fn->name, c->thread_id, c->t_entry, c->t_exit,
		                               c->frame_id, c->result, excl, c->post_ns, c->npost};
		s->each(s->each_ctx, &call);
	}
	return 0;
}

/*
 * The lowest frame id of a pre call not final yet, the oldest of each
 * thread's (UINT64_MAX when none is left): the frames below it take no
 * more calls, unless a call comes later in its file than the sandwich
 * waits for, which calls_frames.c then sees.
 */
static uint64_t open_frames_floor(const struct sweep *s)
{
	uint64_t floor = UINT64_MAX;

	for (uint32_t i = 0; i < s->thread_ids.count; i++) {
		const struct thread_calls *t = &s->threads[i];
		if (t->head < t->tail && t->calls[t->head].frame_id < floor)
			floor = t->calls[t->head].frame_id;
	}
	return floor;
}

/*
 * Finalizes every pre call that ended before @p bound. Returns how many,
 * or -1.
 */
static int64_t finalize_before(struct sweep *s, int64_t bound)
{
	int64_t n = 0;

	for (uint32_t i = 0; i < s->thread_ids.count; i++) {
		struct thread_calls *t = &s->threads[i];
		while (t->head < t->tail && t->calls[t->head].t_exit < bound) {
			if (finalize(s, t) != 0)
				return -1;
			t->head++;
			n++;
		}
	}
	return n;
}

/* Why a row could not be taken: memory, or a temporary file (calls_frames.h, spill.h). */
static void say_failure(const struct sweep *s, char *msg, size_t msg_size)
{
	int err = s->r->frames.error ? s->r->frames.error : s->ends->error;

	if (err)
		snprintf(msg, msg_size, "cannot use a temporary file: %s", strerror(err));
	else
		snprintf(msg, msg_size, "out of memory");
}

/* Places post call @p q: inside a pre call of its thread, or the target's own. */
static int place_post(struct sweep *s, const struct calls_qrow *q, char *msg, size_t msg_size)
{
	struct calls_result *r = s->r;
	struct thread_calls *t = thread_of(s, q->thread_id);
	uint32_t fn;
	int64_t dur = q->t_exit_ns - q->t_entry_ns;

	if (!t) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	if (fn_of(r, &s->post_fns, &s->post, q, &fn, msg, msg_size) != 0)
		return -1;
	r->post_calls++;
	/* Its pre call may be final already: it is placed in whatever is still open. */
	if (q->t_entry_ns < s->final_until) {
		r->late_calls++;
		r->late_calls_post++;
	}
	struct open_call *c = container(t, q->t_entry_ns, q->t_exit_ns);
	struct calls_fn *f = &r->fns[fn];
	if (!c) {
		f->own_thread_calls++;
		f->own_thread_ns += dur;
		r->own_thread_calls++;
		return 0;
	}
	c->post_ns += dur;
	c->npost++;
	if (c->fn == fn && !c->forwarded) {
		c->forwarded = true;
		f->forwarded_calls++;
		return 0;
	}
	f->induced_calls++;
	f->induced_ns += dur;
	r->induced_calls++;
	return 0;
}

/*
 * The phases both files record wholly, once their headers are known:
 * each file's is read before its reader hands over its first rows (or
 * its end), which advance() has waited for on both by the time it
 * finalizes a call, so before any frame is published.
 */
static void note_phases(struct sweep *s)
{
	s->r->phases_recorded = side_meta_phases(&s->pre.meta) & side_meta_phases(&s->post.meta);
	s->phases_known = true;
}

/*
 * Places every post row that no pre row still to come can hold (before
 * @p frontier), then finalizes the pre calls no post row still to come can
 * fall into.
 */
static int advance(struct sweep *s, int64_t frontier, char *msg, size_t msg_size)
{
	const struct calls_qrow *q;

	while ((q = calls_queue_peek(&s->post)) && q->t_entry_ns < frontier) {
		if (place_post(s, q, msg, msg_size) != 0)
			return -1;
		calls_queue_pop(&s->post);
	}
	if (!s->phases_known)
		note_phases(s);
	if (frontier > s->placed_until)
		s->placed_until = frontier;
	/* No post row still to come begins before the next one's floor. */
	int64_t bound = q ? q->floor : INT64_MAX;
	if (frontier < bound)
		bound = frontier;
	if (bound > s->final_until)
		s->final_until = bound;
	int64_t finalized = finalize_before(s, bound);
	if (finalized < 0) {
		say_failure(s, msg, msg_size);
		return -1;
	}
	/* The floor rises as heads go; otherwise it is mostly where it was
	 * when last published, and publishing it again would change nothing
	 * (a call pushed in front of a head may raise it: rare, and then the
	 * next call finalized publishes it, which only makes the early rows
	 * wait a little). */
	if (finalized > 0 && s->r->frames.progress)
		calls_frames_publish(&s->r->frames, open_frames_floor(s));
	if (finalized > 0 && s->opts->tally && ++s->tally_turn % TALLY_EVERY == 0)
		publish_tally(s);
	return 0;
}

static int add_end(struct sweep *s, const struct calls_qrow *p)
{
	struct calls_end *e = spill_append(s->ends);

	if (!e)
		return -1;
	e->t_entry_ns = p->t_entry_ns;
	e->t_exit_ns = p->t_exit_ns;
	e->thread_id = p->thread_id;
	e->frame_id = p->frame_id;
	/* A shared spill's reader gets them in batches. */
	if (s->ends->share && s->ends->count % ENDS_PUBLISH == 0)
		spill_publish(s->ends, false);
	return 0;
}

/*
 * The recording starts inside an xrEndFrame (README "Starting and
 * stopping"): the frame of the first row, @p p of function @p fn, began
 * before it unless that row is the frame's xrWaitFrame, and so did any
 * frame below it. The rows' pass reads complete_from once it has the
 * first xrEndFrame call, which add_end() passes on after this.
 */
static void note_first_row(struct calls_result *r, const struct calls_qrow *p, uint32_t fn)
{
	r->complete_from = p->frame_id;
	if (r->fns[fn].phase != U_PHASE_WAIT && p->frame_id < UINT64_MAX)
		r->complete_from++;
}

/* Takes pre's row @p p. Returns 0, or -1 with the reason in @p msg. */
static int pre_row(struct sweep *s, const struct calls_qrow *p, char *msg, size_t msg_size)
{
	struct thread_calls *t = thread_of(s, p->thread_id);
	uint32_t fn;

	if (fn_of(s->r, &s->pre_fns, &s->pre, p, &fn, msg, msg_size) != 0)
		return -1;
	if (s->r->pre_calls == 0)
		note_first_row(s->r, p, fn);
	if (!t || (s->r->fns[fn].phase == U_PHASE_END && add_end(s, p) != 0)) {
		say_failure(s, msg, msg_size);
		return -1;
	}
	/* Written in its place, not built here and copied there. */
	struct open_call *c = fifo_push(t, p->t_entry_ns, p->t_exit_ns);
	if (!c) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	*c = (struct open_call){.t_entry = p->t_entry_ns, .t_exit = p->t_exit_ns,
	                        .frame_id = p->frame_id, .thread_id = p->thread_id,
	                        .result = p->result, .fn = fn};
	s->r->pre_calls++;
	/* Post calls inside it may have been placed elsewhere already. */
	if (p->t_entry_ns < s->placed_until)
		s->r->late_calls++;
	/* No pre row still to come begins before its floor. */
	return advance(s, p->floor, msg, msg_size);
}

static void sweep_destroy(struct sweep *s)
{
	for (size_t i = 0; i < s->thread_cap; i++)
		fifo_free(&s->threads[i]);
	free(s->threads);
	free(s->pre_fns.index);
	free(s->post_fns.index);
	idmap_destroy(&s->thread_ids);
}

/* Sets @p d's error to "@p path: error: @p msg" (a failure of the sandwich, not of a line). */
static void fail(struct csvr_diag *d, const char *path, const char *msg)
{
	char q[QUOTE_PATH_MAX];

	snprintf(d->error, sizeof(d->error), "%s: error: %s", quote_path(q, path), msg);
	d->failed = true;
}

/*
 * Takes pre's rows as its reader hands them over, up to its end or its
 * error. Returns 0, or -1 with the reason in @p msg.
 */
static int walk(struct sweep *s, char *msg, size_t msg_size)
{
	const struct calls_qrow *p;

	while ((p = calls_queue_peek(&s->pre))) {
		if (pre_row(s, p, msg, msg_size) != 0)
			return -1;
		calls_queue_pop(&s->pre);
	}
	return 0;
}

/*
 * Both files, each read on a thread (calls_queue.h), through the sandwich.
 * Returns 0, or -1 with out->pre_diag or out->post_diag set. pre's own
 * read error comes after its good rows, so a failure of the sandwich,
 * which stops the reading, is always the earlier one.
 */
static int run(struct sweep *s, const char *pre_path, const char *post_path,
               struct calls_result *out)
{
	char msg[CSVR_MSG_MAX / 2];
	int ret = -1;

	if (calls_queue_start(&s->pre, pre_path, "pre", CALLS_FLOOR_AFTER, true) != 0) {
		calls_queue_finish(&s->pre);
		out->pre_diag = s->pre.diag;
		return -1;
	}
	if (calls_queue_start(&s->post, post_path, "post", CALLS_FLOOR_FROM, false) != 0) {
		calls_queue_finish(&s->pre); /* stopped: its rows and messages are moot */
	} else if (s->opts->bracket && s->opts->bracket(s->opts->bracket_ctx, &s->bracket_ns) != 0) {
		calls_queue_finish(&s->pre); /* the merge gave up: nothing to say */
		out->pre_diag = s->pre.diag;
		fail(&out->pre_diag, pre_path, "stopped");
	} else if (walk(s, msg, sizeof(msg)) != 0) {
		calls_queue_finish(&s->pre);
		out->pre_diag = s->pre.diag;
		fail(&out->pre_diag, pre_path, msg);
	} else if (calls_queue_finish(&s->pre) != 0) {
		out->pre_diag = s->pre.diag;
	} else {
		out->pre_diag = s->pre.diag; /* its warnings */
		if (advance(s, INT64_MAX, msg, sizeof(msg)) != 0)
			fail(&out->pre_diag, pre_path, msg);
		else
			ret = 0;
	}
	/* A failed pre read stops the post reader; its own error is the one then. */
	int post_ret = calls_queue_finish(&s->post);
	if (ret == 0 && post_ret != 0)
		ret = -1;
	if (!out->pre_diag.failed || post_ret == 0)
		out->post_diag = s->post.diag;
	return ret;
}

int calls_join(const char *pre_path, const char *post_path, int64_t bracket_ns,
               struct calls_result *out)
{
	return calls_join_each(pre_path, post_path, bracket_ns, NULL, out);
}

int calls_join_each(const char *pre_path, const char *post_path, int64_t bracket_ns,
                    const struct calls_join_opts *opts, struct calls_result *out)
{
	const struct calls_join_opts none = {0};
	if (!opts)
		opts = &none;
	struct sweep s = {.r = out, .bracket_ns = bracket_ns,
	                  .placed_until = INT64_MIN, .final_until = INT64_MIN,
	                  .each = opts->each, .each_ctx = opts->each_ctx,
	                  .ends = opts->ends ? opts->ends : &out->ends, .opts = opts};
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->frames.fd = out->ends.fd = -1;
	out->phases_recorded = U_PHASE_ALL; /* until both headers are read */
	if (calls_names_create(&out->fn_names, CALLS_NAMES_MAX) != 0 ||
	    idmap_create(&s.thread_ids) != 0 ||
	    calls_frames_init(&out->frames, opts->tmp_dir, opts->frames_hint) != 0 ||
	    /* The caller's shared spill takes them: out->ends stays empty. */
	    (!opts->ends &&
	     spill_init(&out->ends, sizeof(struct calls_end), CALLS_ENDS_MEM, opts->tmp_dir) != 0)) {
		fail(&out->pre_diag, pre_path, "out of memory");
	} else {
		if (opts->progress)
			calls_frames_share(&out->frames, opts->progress);
		ret = run(&s, pre_path, post_path, out);
	}
	if (opts->ends)
		spill_publish(opts->ends, true); /* whatever happened: its reader must not wait */
	out->pre_meta = s.pre.meta;
	out->post_meta = s.post.meta;
	sweep_destroy(&s);
	return ret;
}

void calls_result_destroy(struct calls_result *r)
{
	for (size_t i = 0; i < r->fn_count; i++)
		qhist_destroy(&r->fns[i].excl);
	free(r->fns);
	calls_frames_destroy(&r->frames);
	spill_destroy(&r->ends);
	calls_names_destroy(&r->fn_names);
	side_meta_destroy(&r->pre_meta);
	side_meta_destroy(&r->post_meta);
	memset(r, 0, sizeof(*r));
	r->frames.fd = r->ends.fd = -1;
}

uint64_t calls_find_frame(const struct calls_result *r, uint64_t thread_id, int64_t t_entry_ns,
                          int64_t t_exit_ns)
{
	struct calls_end block[256];

	for (uint64_t first = 0; first < r->ends.count; first += 256) {
		size_t n = r->ends.count - first < 256 ? (size_t)(r->ends.count - first) : 256;
		if (spill_read(&r->ends, first, n, block) != 0)
			return CALLS_NO_FRAME;
		for (size_t i = 0; i < n; i++)
			if (block[i].thread_id == thread_id && block[i].t_entry_ns == t_entry_ns &&
			    block[i].t_exit_ns == t_exit_ns)
				return block[i].frame_id;
	}
	return CALLS_NO_FRAME;
}

static int64_t non_negative(int64_t v)
{
	return v < 0 ? 0 : v;
}

void calls_columns_of(const struct calls_frame *fr, const struct calls_frame *prev,
                      unsigned phases, int64_t end_entry, int64_t end_exit, int64_t *out)
{
	int64_t total = 0;

	/* A phase whose functions were not all recorded has calls the
	 * target may have spent time in: unknown, not 0; so has every phase
	 * of a frame begun before the recording: its xrWaitFrame is not in
	 * the file (a pipelined app's first three frames may lack it), or,
	 * where xrWaitFrame is not recorded, it is below complete_from. */
	bool partial = phases & (1u << U_PHASE_WAIT) ? !(fr->has & CALLS_HAS_WAIT)
	                                             : fr->has & CALLS_HAS_PARTIAL;
	if (partial)
		phases = 0;
	for (int i = 0; i < U_PHASE_COUNT; i++) {
		out[i] = phases & (1u << i) ? fr->phase_ns[i] : CALLS_BLANK;
		total += fr->phase_ns[i];
	}
	out[CALLS_COL_TARGET_TOTAL] = phases == U_PHASE_ALL ? total : CALLS_BLANK;
	out[CALLS_COL_APP_WAIT] = CALLS_BLANK;
	out[CALLS_COL_APP_CPU] = CALLS_BLANK;
	out[CALLS_COL_APP_RENDER] = CALLS_BLANK;
	/* This xrEndFrame is recorded, whatever came before it. */
	out[CALLS_COL_APP_SUBMIT] = end_exit - end_entry;
	if (partial)
		return;
	if (fr->has & CALLS_HAS_WAIT)
		out[CALLS_COL_APP_WAIT] = fr->wait_exit - fr->wait_entry;
	/* Overlapping frames (a pipelined app) leave the app no time between
	 * them: a negative gap counts as 0. */
	if ((fr->has & CALLS_HAS_WAIT) && (fr->has & CALLS_HAS_BEGIN) && (prev->has & CALLS_HAS_END))
		out[CALLS_COL_APP_CPU] = non_negative(fr->wait_entry - prev->end_exit) +
		                         non_negative(fr->begin_entry - fr->wait_exit);
	if (fr->has & CALLS_HAS_BEGIN)
		out[CALLS_COL_APP_RENDER] = non_negative(end_entry - fr->begin_exit);
}

int calls_frame_columns(struct calls_result *r, uint64_t f, int64_t end_entry, int64_t end_exit,
                        int64_t *out)
{
	struct calls_frame fr, prev;

	for (int i = 0; i < CALLS_COLS; i++)
		out[i] = CALLS_BLANK;
	if (f == CALLS_NO_FRAME)
		return 0;
	/* The frame before the first one has nothing (has == 0). */
	if ((f > 0 && calls_frames_get(&r->frames, f - 1, &prev) != 0) ||
	    calls_frames_get(&r->frames, f, &fr) != 0)
		return -1;
	if (f == 0)
		memset(&prev, 0, sizeof(prev));
	calls_columns_of(&fr, &prev, r->phases_recorded, end_entry, end_exit, out);
	return 0;
}
