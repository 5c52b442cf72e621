/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_print.h - sfair --explain's output: a few lines of text, or one
 * JSON document (--json).
 */
#ifndef HORAE_SFAIR_EXPLAIN_PRINT_H
#define HORAE_SFAIR_EXPLAIN_PRINT_H

#include <stdio.h>

#include "explain.h"

void sfair_explain_print(FILE *out, const sfair_explain_t *x,
			 const sfair_report_t *rep, sfair_style_t style);

#endif /* HORAE_SFAIR_EXPLAIN_PRINT_H */
