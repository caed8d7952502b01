/*
 * Helpers shared by xrlm's subcommands; see cmd.h.
 */
#include "cmd.h"
#include "functions_table.h"
#include "quote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int cmd_usage_error(const char *what, const char *arg)
{
	char q[QUOTE_PATH_MAX];

	/* The argument is often a file name. */
	fprintf(stderr, "xrlm: %s%s%s (see xrlm --help)\n", what, arg ? ": " : "",
	        arg ? quote_path(q, arg) : "");
	return CMD_EXIT_USAGE;
}

void cmd_log(void *ctx, const char *message)
{
	(void)ctx;
	fprintf(stderr, "xrlm: %s\n", message);
}

int cmd_option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];

	if (strncmp(arg, name, n) != 0)
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return **value ? 1 : -1;
	}
	if (arg[n] != '\0')
		return 0;
	if (*i + 1 >= argc || argv[*i + 1][0] == '\0')
		return -1;
	*value = argv[++*i];
	return 1;
}

int cmd_options(int argc, char **argv, int *i, const char *const *names, const char **const *slots,
                size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const char *value = NULL;
		int matched = cmd_option_value(argc, argv, i, names[k], &value);
		if (matched < 0)
			return cmd_usage_error("option needs a value", names[k]);
		if (!matched)
			continue;
		/* A second value would silently win over the first. */
		if (*slots[k])
			return cmd_usage_error("option given twice", names[k]);
		*slots[k] = value;
		return 1;
	}
	return 0;
}

int cmd_parse_args(int argc, char **argv, const char *const *names, const char **const *slots,
                   size_t n, const char **in, const char *missing)
{
	for (int i = 0; i < argc; i++) {
		int matched = cmd_options(argc, argv, &i, names, slots, n);
		if (matched == CMD_EXIT_USAGE)
			return matched;
		if (matched)
			continue;
		if (cmd_is_option(argv[i]))
			return cmd_usage_error("unknown option", argv[i]);
		if (*in)
			return cmd_usage_error("unexpected argument", argv[i]);
		*in = argv[i];
	}
	if (!*in)
		return cmd_usage_error(missing, NULL);
	return 0;
}

int cmd_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0';
}

int cmd_check_output(const char *out, const char *const *inputs, size_t n)
{
	struct stat out_st, in_st;
	char qo[QUOTE_PATH_MAX], qi[QUOTE_PATH_MAX];

	/* An output that does not exist yet is none of the inputs. */
	if (stat(out, &out_st) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!inputs[i] || stat(inputs[i], &in_st) != 0)
			continue;
		if (out_st.st_dev == in_st.st_dev && out_st.st_ino == in_st.st_ino) {
			fprintf(stderr, "xrlm: %s: error: is the input %s; not writing over it\n",
			        quote_path(qo, out), quote_path(qi, inputs[i]));
			return CMD_EXIT_USAGE;
		}
	}
	return 0;
}

int cmd_finish_output(FILE *f)
{
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	fprintf(stderr, "xrlm: error: cannot write the output: %s\n",
	        errno ? strerror(errno) : "write error");
	return CMD_EXIT_INPUT;
}

int cmd_default_output(const char *in, const char *ext, char *buf, size_t size)
{
	size_t n = strlen(in);
	const char *slash = strrchr(in, '/');
	const char *base = slash ? slash + 1 : in;

	if (n >= 4 && strcmp(in + n - 4, ".csv") == 0 && in + n - 4 > base)
		n -= 4;
	int w = snprintf(buf, size, "%.*s%s", (int)n, in, ext);
	return w >= 0 && (size_t)w < size ? 0 : -1;
}

int cmd_print_functions(const char *path, uint64_t merged_frames, bool all)
{
	struct csvr_diag diag;

	if (functions_table_print(stdout, path, merged_frames, all, &diag) != 0) {
		cmd_log(NULL, diag.error);
		return CMD_EXIT_INPUT;
	}
	for (int i = 0; i < diag.warning_count; i++)
		cmd_log(NULL, diag.warnings[i]);
	return 0;
}
