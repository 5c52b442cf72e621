/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_run.h - the main() of every Check test binary: run the suite with
 * the environment's settings (CK_TAP_LOG_FILE_NAME, CK_FORK, ...) and turn
 * failures into the exit status.
 */
#ifndef HORAE_CHECK_RUN_H
#define HORAE_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* HORAE_CHECK_RUN_H */
