/*
 * The accepted ranges of the recording settings (README, "Starting and
 * stopping a recording"): the one definition shared by the layers
 * (xl_settings.c) and by xrlm-run, which reads them from xrlm-limits.sh,
 * a file the build generates from this one (layer/CMakeLists.txt).
 *
 * Keep every value on its own "#define XL_NAME VALUE" line with VALUE a
 * plain decimal number: the build reads them with a regular expression,
 * and fails if a define here does not match it.
 */
#ifndef XL_LIMITS_H
#define XL_LIMITS_H

/* XRLM_RECORD_DELAY_S, seconds: a week is far beyond any profiling session. */
#define XL_RECORD_DELAY_S_MIN 0
#define XL_RECORD_DELAY_S_MAX 604800

/* XRLM_RECORD_S, seconds: at least one millisecond; at most a week. */
#define XL_RECORD_S_MIN 0.001
#define XL_RECORD_S_MAX 604800

/* XRLM_RECORD_FRAMES: 2^48 frames, 99 years at 90 Hz. */
#define XL_RECORD_FRAMES_MIN 1
#define XL_RECORD_FRAMES_MAX 281474976710656

#endif /* XL_LIMITS_H */
