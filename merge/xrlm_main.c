/*
 * xrlm: the offline tool. main() looks the subcommand up in the table below
 * and runs it; each subcommand lives in its own cmd_<name>.c.
 *
 * Exit status: 0 success, 1 bad input or a failed operation, 2 bad
 * arguments; compare's is diff(1)'s, 1 for a regression and 2 for any
 * trouble (see cmd.h). Every failure prints exactly one line on stderr.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "heap.h"
#include "out_file.h"
#include "thread.h"
#include "workers.h"

#ifndef XRLM_VERSION
#define XRLM_VERSION "unknown"
#endif

/*
 * The subcommands, in the order `xrlm --help` lists them.
 *
 * To add a subcommand NAME:
 *  1. write merge/cmd_NAME.c defining `const struct cmd cmd_NAME` (see
 *     cmd.h: name, synopsis, help text, run function; use cmd.h's helpers
 *     for arguments and messages);
 *  2. add one X(NAME) row here;
 *  3. add cmd_NAME.c to the xrlm sources in merge/CMakeLists.txt.
 * `xrlm --help` and `xrlm NAME --help` then list it from its descriptor.
 */
#define XRLM_COMMANDS(X) \
	X(merge)         \
	X(stats)         \
	X(xlsx)          \
	X(ls)            \
	X(report)        \
	X(compare)       \
	X(trace)         \
	X(ctl)           \
	/* end of the table */

#define XRLM_DECLARE(name) extern const struct cmd cmd_##name;
XRLM_COMMANDS(XRLM_DECLARE)

#define XRLM_ENTRY(name) &cmd_##name,
static const struct cmd *const commands[] = {XRLM_COMMANDS(XRLM_ENTRY)};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

/*
 * Prints the lines of @p help, the first after @p label, every line
 * indented by @p indent columns.
 */
static void print_help(FILE *f, const char *label, const char *help, int indent)
{
	while (*help) {
		const char *nl = strchr(help, '\n');
		int len = nl ? (int)(nl - help) : (int)strlen(help);
		fprintf(f, "%-*s%.*s\n", indent, label, len, help);
		label = "";
		help += len + (nl != NULL);
	}
}

static void print_usage(FILE *f)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		fprintf(f, "%s xrlm %s %s\n", i ? "      " : "usage:", commands[i]->name,
		        commands[i]->synopsis);
	fprintf(f, "       xrlm COMMAND --help | xrlm --help | xrlm --version\n");
	for (size_t i = 0; i < COMMAND_COUNT; i++) {
		fprintf(f, "\n");
		print_help(f, commands[i]->name, commands[i]->help, 9);
	}
}

static int is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/*
 * True when a command's arguments ask for its help: --help or -h anywhere
 * before "--", and before a mark's text (`xrlm ctl mark PID TEXT...`: its
 * words are text, whatever they look like).
 */
static bool asks_help(int argc, char **argv)
{
	int end = argc;

	if (strcmp(argv[1], "ctl") == 0 && argc > 4 && strcmp(argv[2], "mark") == 0)
		end = 4;
	for (int i = 2; i < end && strcmp(argv[i], "--") != 0; i++)
		if (is_help(argv[i]))
			return true;
	return false;
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	/* Past a file size limit (ulimit -f), a write fails with EFBIG, which
	 * is reported, instead of SIGXFSZ killing xrlm without a word. */
	signal(SIGXFSZ, SIG_IGN);
	/* An interrupted command leaves no hidden partial output behind. */
	out_file_cleanup_on_signals();
	if (argc < 2)
		return cmd_usage_error("no command", NULL);
	const char *name = argv[1];
	if (is_help(name) || strcmp(name, "help") == 0) {
		print_usage(stdout);
		return cmd_finish_output(stdout);
	}
	if (strcmp(name, "--version") == 0) {
		printf("xrlm %s\n", XRLM_VERSION);
		return cmd_finish_output(stdout);
	}
	const struct cmd *cmd = find_command(name);
	if (!cmd)
		return cmd_usage_error("unknown command", name);
	heap_setup();
	thread_stacks_reserve(); /* before the prefault's first thread */
	/* A merge's parallel parts may use every CPU xrlm may run on (the
	 * in-layer merge keeps the default, beside its host application). */
	workers_set_max(workers_online_cpus());
	if (asks_help(argc, argv)) {
		printf("usage: xrlm %s %s\n\n", cmd->name, cmd->synopsis);
		print_help(stdout, "", cmd->help, 0);
		int ret = cmd_finish_output(stdout);
		return ret && cmd->exit_trouble ? cmd->exit_trouble : ret;
	}
	return cmd->run(argc - 2, argv + 2);
}
