/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cons_tres_loader.c - load select/cons_tres for select/eunomia through
 * Slurm's plugin_context_create(), with the table of cons_tres_loader.h.
 */
#include "config.h"

#include <pthread.h>

/* Slurm's internal functions by the slurm_ names plain libslurm exports:
 * a program on libslurm (not libslurmfull) loads this plugin too.  First,
 * as in Slurm's own plugins. */
#include "src/common/slurm_xlator.h"
#include "src/common/log.h"
#include "src/common/plugin.h"

#include "cons_tres_loader.h"

#define CONS_TRES_NAME(name, ret, params) "select_p_" #name,
static const char *syms[] = { "plugin_id", CONS_TRES_OPS(CONS_TRES_NAME) };
#undef CONS_TRES_NAME

static cons_tres_ops_t ops;
static plugin_context_t *context;
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;

/* The names and the struct come from one table: the same count. */
_Static_assert(sizeof(syms) / sizeof(syms[0]) ==
		       sizeof(cons_tres_ops_t) / sizeof(void *),
	       "cons_tres_loader.h: names and pointers differ in number");

extern const cons_tres_ops_t *cons_tres_ops(void)
{
	const cons_tres_ops_t *ret = NULL;

	slurm_mutex_lock(&context_lock);
	if (!context)
		context = plugin_context_create("select", "select/cons_tres",
						(void **)&ops, syms,
						sizeof(syms));
	if (context)
		ret = &ops;
	else
		error("select/eunomia: cannot load select/cons_tres");
	slurm_mutex_unlock(&context_lock);
	return ret;
}

extern int cons_tres_unload(void)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&context_lock);
	if (context)
		rc = plugin_context_destroy(context);
	context = NULL;
	slurm_mutex_unlock(&context_lock);
	return rc;
}
