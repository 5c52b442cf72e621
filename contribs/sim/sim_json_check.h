/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim_json_check.h - what a trace file's JSON must be beyond what json-c
 * accepts: json-c (0.16) takes single-quoted strings and trailing commas
 * and keeps the last of a key given twice, silently; its strict mode
 * refuses the comments the trace format allows.  sim_json_check refuses
 * those three and names the line; comments (slash-slash and slash-star)
 * stay allowed.
 */
#ifndef HORAE_SIM_JSON_CHECK_H
#define HORAE_SIM_JSON_CHECK_H

#include <stddef.h>

#include "err.h"

/* 0, or -EINVAL with "PATH: line N: what" in err. */
int sim_json_check(const char *buf, size_t len, const char *path,
		   horae_err_t *err);

#endif /* HORAE_SIM_JSON_CHECK_H */
