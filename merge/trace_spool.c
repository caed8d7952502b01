/*
 * The record spool; see trace_spool.h.
 */
#include "trace_spool.h"

#include <errno.h>
#include <string.h>

int trace_spool_create(struct trace_spool *s)
{
	s->error = 0;
	s->f = tmpfile();
	return s->f ? 0 : -1;
}

void trace_spool_add(struct trace_spool *s, const struct trace_spool_rec *r)
{
	if (fwrite(r, sizeof(*r), 1, s->f) != 1 && !s->error)
		s->error = errno ? errno : EIO;
}

int trace_spool_rewind(struct trace_spool *s)
{
	if (fflush(s->f) != 0 && !s->error)
		s->error = errno ? errno : EIO;
	if (s->error) {
		fprintf(stderr, "xrlm: writing a temporary file failed: %s\n", strerror(s->error));
		return -1;
	}
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
