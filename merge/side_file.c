/*
 * The metadata, footer and row arrays of the per-side files; see side_file.h.
 */
#include "side_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "u_parse.h"
#include "utf8.h"

/* Copies a metadata value, cut to the destination's size before a character it would split. */
static void set_text(char *dst, size_t size, const char *value)
{
	utf8_copy(dst, size, value);
}

/* A count in a metadata line; false (with a message) when it is not one. */
static bool parse_count(const char *key, const char *value, uint64_t *out, char *msg,
                        size_t msg_size)
{
	enum u_parse_result r = u_parse_span_u64(value, strlen(value), out);

	if (r == U_PARSE_OK)
		return true;
	snprintf(msg, msg_size, "%s %s (expected a count): \"%.40s\"", key, u_parse_result_str(r),
	         value);
	return false;
}

/* Parses the `key=value` tokens of a `session_end` footer. */
static int parse_footer(struct side_meta *m, const char *text, char *msg, size_t msg_size)
{
	char copy[CSVR_MSG_MAX / 2];
	char *save = NULL;

	set_text(copy, sizeof(copy), text);
	m->has_session_end = true;
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t *dst = NULL;
		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(tok, "dropped_queue_full") == 0)
			dst = &m->dropped_queue_full;
		else if (strcmp(tok, "gpu_ring_overflow") == 0)
			dst = &m->gpu_ring_overflow;
		if (dst && !parse_count(tok, eq + 1, dst, msg, msg_size))
			return -1;
	}
	return 0;
}

/* True when the key of "key=value" @p text is @p key. */
static bool is_key(const char *text, size_t klen, const char *key)
{
	return strlen(key) == klen && memcmp(text, key, klen) == 0;
}

bool side_file_gpu_mode_known(const char *mode)
{
	return strcmp(mode, "gated") == 0 || strcmp(mode, "sandwich") == 0;
}

/* "gpu_valid_bits": a counter's width, 1..64; false (with a message) otherwise. */
static bool parse_valid_bits(const char *value, unsigned *out, char *msg, size_t msg_size)
{
	uint64_t bits;

	if (u_parse_span_u64(value, strlen(value), &bits) != U_PARSE_OK || bits < 1 ||
	    bits > U_TICKS_BITS_MAX) {
		snprintf(msg, msg_size, "gpu_valid_bits is not a width in bits from 1 to %d: "
		         "\"%.40s\"", U_TICKS_BITS_MAX, value);
		return false;
	}
	*out = (unsigned)bits;
	return true;
}

/* One `# key=value` line before the column header. */
static int header_line(struct side_reader *c, const char *text, size_t klen, const char *value,
                       char *msg, size_t msg_size)
{
	struct side_meta *m = c->meta;

	if (is_key(text, klen, "side")) {
		set_text(m->side, sizeof(m->side), value);
		if (c->expected_side && strcmp(value, c->expected_side) != 0) {
			snprintf(msg, msg_size, "file is side=%.15s, expected side=%s", value,
			         c->expected_side);
			return -1;
		}
	} else if (is_key(text, klen, "session")) {
		set_text(m->session, sizeof(m->session), value);
	} else if (is_key(text, klen, "layer")) {
		set_text(m->layer, sizeof(m->layer), value);
	} else if (is_key(text, klen, "target_layer")) {
		set_text(m->target_layer, sizeof(m->target_layer), value);
	} else if (is_key(text, klen, "clock")) {
		set_text(m->clock, sizeof(m->clock), value);
	} else if (is_key(text, klen, "gpu_clock")) {
		set_text(m->gpu_clock, sizeof(m->gpu_clock), value);
	} else if (is_key(text, klen, "gpu_mode")) {
		if (!side_file_gpu_mode_known(value)) {
			snprintf(msg, msg_size, "gpu_mode is neither gated nor sandwich: \"%.40s\"", value);
			return -1;
		}
		set_text(m->gpu_mode, sizeof(m->gpu_mode), value);
	} else if (is_key(text, klen, "gpu_valid_bits")) {
		if (!parse_valid_bits(value, &m->gpu_valid_bits, msg, msg_size))
			return -1;
	} else if (is_key(text, klen, "phases_recorded")) {
		if (!u_phase_set_parse(value, &m->phases_recorded)) {
			snprintf(msg, msg_size, "phases_recorded is not a list of phases: \"%.60s\"",
			         value);
			return -1;
		}
		m->has_phases_recorded = true;
	} else if (is_key(text, klen, "clock_freq")) {
		if (!parse_count("clock_freq", value, &m->clock_freq, msg, msg_size))
			return -1;
		if (m->clock_freq == 0) {
			snprintf(msg, msg_size, "clock_freq is 0 (expected ticks per second)");
			return -1;
		}
	} else if (is_key(text, klen, "bracket_correction_ns")) {
		/* Two clock reads: tens of ns natively, ~1 µs under valgrind; a
		 * millisecond means a corrupt file. */
		if (u_parse_span_u64(value, strlen(value), &m->bracket_correction_ns) != U_PARSE_OK ||
		    m->bracket_correction_ns > 1000000) {
			snprintf(msg, msg_size, "bracket_correction_ns is not a count of ns from 0 "
			         "to 1000000: \"%.40s\"", value);
			return -1;
		}
		m->has_bracket_correction = true;
	}
	return 0;
}

/* "gate_tripped display_time=<t>": the frame during which pre's gate tripped. */
static int gate_line(struct side_meta *m, const char *args, char *msg, size_t msg_size)
{
	static const char key[] = "display_time=";
	int64_t t;

	args += strspn(args, " \t");
	if (strncmp(args, key, sizeof(key) - 1) != 0) {
		snprintf(msg, msg_size, "gate_tripped line without display_time=");
		return -1;
	}
	const char *value = args + sizeof(key) - 1;
	size_t len = strcspn(value, " \t");
	enum u_parse_result r = u_parse_span_i64(value, len, &t);
	if (r != U_PARSE_OK) {
		snprintf(msg, msg_size, "gate_tripped display_time %s: \"%.40s\"",
		         u_parse_result_str(r), value);
		return -1;
	}
	if (side_file_grow((void **)&m->gate_trips, &m->gate_trip_cap, m->gate_trip_count,
	                   sizeof(*m->gate_trips)) != 0) {
		snprintf(msg, msg_size, "out of memory");
		return -1;
	}
	m->gate_trips[m->gate_trip_count++] = t;
	return 0;
}

/* True when @p text is the word @p word, alone or followed by a blank. */
static bool is_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	return strncmp(text, word, n) == 0 && (text[n] == ' ' || text[n] == '\t' || text[n] == '\0');
}

int side_file_comment(void *ctx, const char *text, bool in_header, char *msg, size_t msg_size)
{
	struct side_reader *c = ctx;

	if (is_word(text, "session_end"))
		return parse_footer(c->meta, text + 11, msg, msg_size);
	if (is_word(text, "gate_tripped"))
		return gate_line(c->meta, text + 12, msg, msg_size);
	if (strncmp(text, "gpu_gate_tripped=1", 18) == 0) {
		c->meta->gate_tripped_unknown_frame = true;
		return 0;
	}
	if (!in_header)
		return 0; /* other comments after the rows carry nothing we use */

	const char *eq = strchr(text, '=');
	if (!eq)
		return 0;
	return header_line(c, text, (size_t)(eq - text), eq + 1, msg, msg_size);
}

int side_file_read(const char *path, const struct csvr_format *format, const char *expected_side,
                   struct side_meta *meta, struct csvr_diag *diag, void *file)
{
	struct side_reader c = {.meta = meta, .expected_side = expected_side, .file = file};

	return csvr_read(path, format, &c, diag, &meta->truncated_rows);
}

int side_file_stream_open(struct side_stream *s, const char *path, const struct csvr_format *format,
                          const char *expected_side, struct side_meta *meta, struct csvr_diag *diag,
                          void *file)
{
	s->reader = (struct side_reader){.meta = meta, .expected_side = expected_side, .file = file};
	return csvr_stream_open(&s->csv, path, format, &s->reader, diag, &meta->truncated_rows, true);
}

int side_file_stream_step(struct side_stream *s)
{
	return csvr_stream_step(s->csv);
}

void side_file_stream_close(struct side_stream *s)
{
	csvr_stream_close(s->csv);
	s->csv = NULL;
}

/* Clock ticks at @p freq per second (0: ns) in ns; false outside ±SIDE_TIME_NS_MAX. */
static bool ticks_to_ns(int64_t ticks, uint64_t freq, int64_t *ns)
{
	__int128 v = ticks;

	if (freq != 0 && freq != 1000000000u)
		v = v * 1000000000 / (__int128)freq;
	if (v >= SIDE_TIME_NS_MAX || v <= -SIDE_TIME_NS_MAX)
		return false;
	*ns = (int64_t)v;
	return true;
}

int side_file_row_times_other(const struct side_meta *meta, int64_t t_entry, int64_t t_exit,
                              struct side_times *out, char *msg, size_t msg_size)
{
	if (t_entry < 0 || t_exit < 0) {
		snprintf(msg, msg_size, "t_entry or t_exit is negative (no CLOCK_MONOTONIC time is)");
		return -1;
	}
	if (!ticks_to_ns(t_entry, meta->clock_freq, &out->entry_ns) ||
	    !ticks_to_ns(t_exit, meta->clock_freq, &out->exit_ns)) {
		snprintf(msg, msg_size, "t_entry or t_exit is out of range (2^61 ns)");
		return -1;
	}
	if (out->exit_ns < out->entry_ns) {
		snprintf(msg, msg_size, "t_exit is before t_entry");
		return -1;
	}
	return 0;
}

void side_meta_destroy(struct side_meta *m)
{
	mem_free(m->gate_trips);
	m->gate_trips = NULL;
	m->gate_trip_count = m->gate_trip_cap = 0;
}

/* The rows to reserve for @p path, at most @p most (0: no limit). */
static void reserve(const char *path, void **rows, size_t *cap, size_t row_size, size_t most)
{
	/* The text of a row is about as long as its struct. */
	size_t hint = csvr_estimate_rows(path, row_size);

	if (most && hint > most)
		hint = most;

	if (hint == 0)
		return;
	*rows = mem_alloc(hint * row_size);
	*cap = *rows ? hint : 0;
}

void side_file_reserve(const char *path, void **rows, size_t *cap, size_t row_size)
{
	reserve(path, rows, cap, row_size, 0);
}

void side_file_reserve_chunk(const char *path, void **rows, size_t *cap, size_t row_size)
{
	/* A chunk's rows: CSVR_CHUNK_BYTES of text, rows about as long as the struct. */
	reserve(path, rows, cap, row_size, CSVR_CHUNK_BYTES / row_size + 16);
}

int side_file_grow(void **rows, size_t *cap, size_t count, size_t row_size)
{
	if (count < *cap)
		return 0;
	size_t new_cap = *cap ? *cap * 2 : 1024;
	void *p = mem_realloc(*rows, new_cap * row_size);
	if (!p)
		return -1;
	*rows = p;
	*cap = new_cap;
	return 0;
}
