/*
 * xrlm's subcommands: the descriptor each one defines and the helpers they
 * share (argument parsing, messages, exit status). The table that lists
 * them is in xrlm_main.c.
 *
 * Exit status of every subcommand but compare: 0 success, CMD_EXIT_INPUT
 * (1) for bad input or a failed operation, CMD_EXIT_USAGE (2) for bad
 * arguments. compare follows diff(1) instead (cmd_compare.c): 1 is its
 * regression past --fail-above, and bad input or a failed operation is 2,
 * like bad arguments, so that a CI gate can tell the two apart. Every
 * failure prints exactly one line on stderr, starting with "xrlm: ".
 */
#ifndef XRLM_CMD_H
#define XRLM_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>

#define CMD_EXIT_INPUT 1
#define CMD_EXIT_USAGE 2

/* One subcommand. */
struct cmd {
	const char *name;     /* "merge" */
	const char *synopsis; /* arguments after the name, for the usage lines */
	const char *help;     /* what it does: lines of at most 72 columns, each ending in '\n' */
	/* Runs it with the arguments after the name (argv[0] is the first). */
	int (*run)(int argc, char **argv);
	/* Its status for a failed operation outside run() (its --help that
	 * cannot be written): 0 for CMD_EXIT_INPUT; compare's is 2. */
	int exit_trouble;
};

/*
 * Prints "xrlm: WHAT[: ARG] (see xrlm --help)" on stderr and returns
 * CMD_EXIT_USAGE, for a subcommand to return.
 */
int cmd_usage_error(const char *what, const char *arg);

/* A merge_log_fn (and general message sink): "xrlm: MESSAGE" on stderr. */
void cmd_log(void *ctx, const char *message);

/*
 * Matches "--name VALUE" or "--name=VALUE" at argv[*i]. Returns 1 on a
 * match (advancing *i past a separate value), 0 when argv[*i] is not this
 * option, -1 when the value is missing or empty.
 */
int cmd_option_value(int argc, char **argv, int *i, const char *name, const char **value);

/*
 * Matches argv[*i] against the @p n value options @p names (each as
 * cmd_option_value() takes it), storing a value in *@p slots[k]. Returns 1
 * on a match, 0 when argv[*i] is none of them, or CMD_EXIT_USAGE after
 * the usage error for a missing value or a slot already set (an option
 * given twice; slots that share a value, -o and --output, count as one).
 */
int cmd_options(int argc, char **argv, int *i, const char *const *names, const char **const *slots,
                size_t n);

/*
 * Parses a command line of value options (@p names, @p slots as
 * cmd_options() takes them) and one operand, stored in *@p in. Returns 0,
 * or CMD_EXIT_USAGE after the usage error (an unknown option, a second
 * operand, or none: @p missing says what is needed).
 */
int cmd_parse_args(int argc, char **argv, const char *const *names, const char **const *slots,
                   size_t n, const char **in, const char *missing);

/* True when @p arg looks like an option ("-x", "--x"; "-" alone is a file name). */
int cmd_is_option(const char *arg);

/*
 * The default output path of a command that turns MERGED.csv into another
 * format: @p in with its ".csv" (if any, and not the whole name) replaced
 * by @p ext, into @p buf. Returns 0, or -1 when it does not fit.
 */
int cmd_default_output(const char *in, const char *ext, char *buf, size_t size);

/*
 * Refuses an output file that is one of the command's inputs: @p out and
 * an entry of @p inputs (@p n of them; NULL entries are skipped) that are
 * the same file, by device and inode, so that a link or another spelling
 * of the path counts too. Writing it would destroy the input (`xrlm report`
 * replaces its output) or fail only after the work (the others never
 * replace a file). Returns 0, or CMD_EXIT_USAGE after one line naming both.
 */
int cmd_check_output(const char *out, const char *const *inputs, size_t n);

/*
 * Flushes @p f (stdout after a report) and returns 0, or prints one line
 * naming the error and returns CMD_EXIT_INPUT.
 */
int cmd_finish_output(FILE *f);

/*
 * Prints the per-function table of the functions file @p path under the
 * statistics of its merged file's @p merged_frames frames (every row when
 * @p all). Returns 0, or CMD_EXIT_INPUT after one line naming the problem.
 */
int cmd_print_functions(const char *path, uint64_t merged_frames, bool all);

#endif /* XRLM_CMD_H */
