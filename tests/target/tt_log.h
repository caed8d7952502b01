/*
 * Logging of the synthetic target layer: every line goes to stderr,
 * prefixed "[xrlm-test-target]", so tests can grep for it.
 */
#ifndef TT_LOG_H
#define TT_LOG_H

/* Prints one prefixed line to stderr (a newline is added). */
void tt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* u_warn_fn adapter for the u_env_* parsers: logs @p message as one line. */
void tt_log_warn(void *ctx, const char *message);

#endif /* TT_LOG_H */
