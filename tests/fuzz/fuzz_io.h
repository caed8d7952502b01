/*
 * What every fuzz entry point shares: fuzz bytes handed to the merge as
 * files that live only in memory (memfd, opened by path through
 * /proc/self/fd), and one private temporary directory for anything the
 * merge writes. Nothing an entry point does can create a file anywhere
 * else: inputs have no directory entry at all, and the only output path
 * handed to the merge is inside that directory, which is removed at exit.
 */
#ifndef XRLM_FUZZ_IO_H
#define XRLM_FUZZ_IO_H

#include <stddef.h>
#include <stdint.h>

/* Path max of the in-memory files and of the output path. */
#define FUZZ_PATH_MAX 4096

/* An in-memory file, rewritten for each input. */
struct fuzz_file {
	int fd;
	char path[64]; /* "/proc/self/fd/<fd>" */
};

/* Creates @p f (empty). Aborts on failure: a harness that cannot set up
 * is not a finding, but it must not silently test nothing. */
void fuzz_file_init(struct fuzz_file *f, const char *name);

/* Replaces the contents of @p f with @p size bytes at @p data. */
void fuzz_file_set(struct fuzz_file *f, const uint8_t *data, size_t size);

/*
 * The private temporary directory (mkdtemp under $TMPDIR or /tmp),
 * created on first use and removed (with what is in it) at exit.
 */
const char *fuzz_tmp_dir(void);

/* "<fuzz_tmp_dir()>/<name>"; aborts if @p name holds a '/' or is "..". */
void fuzz_tmp_path(char *out, size_t size, const char *name);

/* Number of entries in the temporary directory (not . and ..). */
int fuzz_tmp_count(void);

/* Aborts with @p what on stderr: a finding for both libFuzzer and replay. */
void fuzz_fail(const char *what) __attribute__((noreturn));

/*
 * For inputs made of several files, each ended by a line "====": the end
 * of the part that starts at @p from, and in *@p next where the next one
 * starts (@p size when there is none).
 */
size_t fuzz_part_end(const uint8_t *data, size_t size, size_t from, size_t *next);

#endif /* XRLM_FUZZ_IO_H */
