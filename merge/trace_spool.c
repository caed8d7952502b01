/*
 * The record spool; see trace_spool.h.
 */
#include "trace_spool.h"

#include <errno.h>

int trace_spool_create(struct trace_spool *s)
{
	s->failed = false;
	s->f = tmpfile();
	return s->f ? 0 : -1;
}

void trace_spool_add(struct trace_spool *s, const struct trace_spool_rec *r)
{
	if (fwrite(r, sizeof(*r), 1, s->f) != 1)
		s->failed = true;
}

int trace_spool_rewind(struct trace_spool *s)
{
	if (fflush(s->f) != 0 || s->failed)
		return -1;
	rewind(s->f);
	return 0;
}

bool trace_spool_next(struct trace_spool *s, struct trace_spool_rec *r)
{
	return fread(r, sizeof(*r), 1, s->f) == 1;
}

void trace_spool_destroy(struct trace_spool *s)
{
	if (s->f)
		fclose(s->f);
	s->f = NULL;
}
