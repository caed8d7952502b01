/*
 * The recording sessions in an output directory; see sessions.h.
 */
#include "sessions.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proc_fd.h"
#include "quote.h"
#include "u_names.h"

/* Each file's kind and side (NULL: the merged file), named by u_names. */
static const struct {
	const char *kind, *side;
} file_names[SESSIONS_FILE_COUNT] = {
	[SESSIONS_FRAMES_PRE] = {U_NAMES_FRAMES, U_NAMES_PRE},
	[SESSIONS_FRAMES_POST] = {U_NAMES_FRAMES, U_NAMES_POST},
	[SESSIONS_GPU_PRE] = {U_NAMES_GPU, U_NAMES_PRE},
	[SESSIONS_GPU_POST] = {U_NAMES_GPU, U_NAMES_POST},
	[SESSIONS_MERGED] = {U_NAMES_FRAMES, NULL},
};

/* Counts the decimal digits at @p s. */
static size_t digits(const char *s)
{
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* Parses @p len bytes at @p s as a tag <pid>-<YYYYmmddTHHMMSS>[-<n>] into @p e. */
static bool parse_tag(const char *s, size_t len, struct sessions_entry *e)
{
	size_t p = digits(s);

	if (len >= SESSIONS_TAG_MAX || p == 0 || p > 9 || p + 16 > len || s[p] != '-' ||
	    digits(s + p + 1) != 8 || s[p + 9] != 'T' || digits(s + p + 10) != 6)
		return false;
	size_t end = p + 16;
	unsigned seq = 0;
	if (end < len) {
		size_t n = digits(s + end + 1);
		if (s[end] != '-' || n == 0 || n > 9 || end + 1 + n != len)
			return false;
		seq = (unsigned)strtoul(s + end + 1, NULL, 10);
	}
	memset(e, 0, sizeof(*e));
	memcpy(e->tag, s, len);
	e->pid = (pid_t)strtol(s, NULL, 10);
	memcpy(e->stamp, s + p + 1, 15);
	e->seq = seq;
	return true;
}

/* Which session file @p name is, with its tag in @p e; -1 when none. */
static int classify(const char *name, struct sessions_entry *e)
{
	struct u_names_parsed n;

	if (!u_names_parse(name, &n))
		return -1;
	for (int f = 0; f < SESSIONS_FILE_COUNT; f++) {
		if (!u_names_is(&n, file_names[f].kind, file_names[f].side))
			continue;
		if (!parse_tag(n.tag, strlen(n.tag), e))
			return -1;
		e->has[f] = true;
		return f;
	}
	return -1;
}

/* Start time, then pid, then sequence; the tag breaks any remaining tie. */
static int compare_entries(const void *a, const void *b)
{
	const struct sessions_entry *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return strcmp(x->tag, y->tag);
}

/* Folds adjacent entries of the same tag (the list is sorted) into one. */
static void fold(struct sessions *s)
{
	size_t out = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (out > 0 && strcmp(s->v[out - 1].tag, s->v[i].tag) == 0) {
			for (int f = 0; f < SESSIONS_FILE_COUNT; f++)
				s->v[out - 1].has[f] |= s->v[i].has[f];
			continue;
		}
		s->v[out++] = s->v[i];
	}
	s->n = out;
}

/* Appends one file's entry; -1 when out of memory. */
static int push(struct sessions *s, size_t *cap, const struct sessions_entry *e)
{
	if (s->n == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct sessions_entry *v = realloc(s->v, n * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		*cap = n;
	}
	s->v[s->n++] = *e;
	return 0;
}

/* Reads the session files of the open directory @p d into @p s. */
static int read_entries(DIR *d, struct sessions *s)
{
	size_t cap = 0;
	struct dirent *de;
	struct stat st;
	struct sessions_entry e;

	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (classify(de->d_name, &e) < 0)
			continue;
		/* Only regular files: a link or directory named like ours is not one. */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (push(s, &cap, &e) != 0)
			return -1;
		errno = 0;
	}
	return errno ? -1 : 0;
}

int sessions_scan(const char *dir, struct sessions *out, char *msg, size_t msg_size)
{
	char q[QUOTE_PATH_MAX];

	memset(out, 0, sizeof(*out));
	if (snprintf(out->dir, sizeof(out->dir), "%s", dir) >= (int)sizeof(out->dir)) {
		snprintf(msg, msg_size, "%.200s...: error: path too long", quote_path(q, dir));
		return -1;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		snprintf(msg, msg_size, "%s: error: cannot open the directory: %s",
		         quote_path(q, dir), strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int ret = read_entries(d, out);
	int err = errno;
	closedir(d);
	if (ret != 0) {
		snprintf(msg, msg_size, "%s: error: cannot read the directory: %s",
		         quote_path(q, dir), strerror(err ? err : ENOMEM));
		sessions_destroy(out);
		return -1;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), compare_entries);
	fold(out);
	return 0;
}

bool sessions_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void sessions_destroy(struct sessions *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int sessions_path(const struct sessions *s, const struct sessions_entry *e,
                  enum sessions_file which, char *buf, size_t size)
{
	const char *kind = file_names[which].kind, *side = file_names[which].side;
	int n = side ? u_names_side_file(buf, size, s->dir, kind, e->tag, side)
	             : u_names_merged_file(buf, size, s->dir, kind, e->tag);
	return n < 0 ? -1 : 0;
}

void sessions_start_text(const struct sessions_entry *e, char *buf, size_t size)
{
	const char *t = e->stamp;
	snprintf(buf, size, "%.4s-%.2s-%.2s %.2s:%.2s:%.2s", t, t + 4, t + 6, t + 9, t + 11, t + 13);
}

/* When process @p pid started (seconds since the epoch), or -1 if unknown. */
static time_t process_start(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long start_ticks = 0, btime = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	/* Field 22 (starttime); the command name (field 2) may hold blanks
	 * and parentheses, so count from the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
	                        "%*s %*s %*s %llu", &start_ticks) != 1)
		return (time_t)-1;
	f = fopen("/proc/stat", "re");
	while (f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	if (f)
		fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	if (btime == 0 || hz <= 0)
		return (time_t)-1;
	return (time_t)(btime + start_ticks / (unsigned long long)hz);
}

/* The latest status change (ctime, which no one can set back) of @p files[0..n-1]; -1 if none. */
static time_t newest_change(const struct stat *files, int n)
{
	time_t newest = (time_t)-1;
	for (int i = 0; i < n; i++)
		if (files[i].st_ctim.tv_sec > newest)
			newest = files[i].st_ctim.tv_sec;
	return newest;
}

/*
 * Whether process @p pid started no later than @p files[0..n-1] last
 * changed, as their writer did. Not the tag's stamp: that is the writer's
 * local time, and its time zone may not be ours. The boot time has a
 * second's resolution: allowed for. Unknown: taken as yes, the safe side
 * for a merge.
 */
static bool started_no_later(pid_t pid, const struct stat *files, int n)
{
	time_t proc = process_start(pid), changed = newest_change(files, n);
	return proc == (time_t)-1 || changed == (time_t)-1 || proc <= changed + 1;
}

/*
 * Whether post's log in @p dir says that the application left session
 * @p tag to `xrlm merge` (u_names.h): its process lives on, but will not
 * merge it.
 */
static bool left_by_app(const char *dir, const char *tag)
{
	char path[MERGE_PATH_MAX], want[U_NAMES_TAG_MAX + 64], line[1024];
	bool found = false;

	if (snprintf(path, sizeof(path), "%s/%s", dir, U_NAMES_POST_LOG) >= (int)sizeof(path))
		return false;
	snprintf(want, sizeof(want), "session %s: %s", tag, U_NAMES_LEFT_UNMERGED);
	FILE *f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

enum sessions_writer sessions_writer(const struct sessions *s, const struct sessions_entry *e)
{
	static const enum sessions_file sides[] = {SESSIONS_FRAMES_PRE, SESSIONS_FRAMES_POST};
	struct stat files[2], dir;
	char path[MERGE_PATH_MAX];
	int n = 0;

	if (e->pid <= 0 || (kill(e->pid, 0) != 0 && errno != EPERM))
		return SESSIONS_WRITER_GONE;
	for (int i = 0; i < 2; i++)
		if (e->has[sides[i]] && sessions_path(s, e, sides[i], path, sizeof(path)) == 0 &&
		    stat(path, &files[n]) == 0)
			n++;
	int open = proc_fd_open(e->pid, files, n, stat(s->dir, &dir) == 0 ? &dir : NULL);
	if (open >= 0 && (open & PROC_FD_FILE))
		return SESSIONS_WRITER_RECORDING; /* no later process has these files open */
	if (open == 0)
		return SESSIONS_WRITER_GONE;
	/* Its descriptors unreadable, or the directory open (which any later
	 * process given the same pid may hold too, every app the layers
	 * record holding the same default directory): the writer made these
	 * files, so it started before their last change. */
	bool started_before = started_no_later(e->pid, files, n);
	if (open < 0)
		return started_before ? SESSIONS_WRITER_RECORDING : SESSIONS_WRITER_GONE;
	return started_before && !left_by_app(s->dir, e->tag) ? SESSIONS_WRITER_MERGING
	                                                      : SESSIONS_WRITER_GONE;
}
