/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress_info.c - see progress_info.h.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "src/common/macros.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "progress_info.h"

static pthread_mutex_t find_lock = PTHREAD_MUTEX_INITIALIZER;
static const progress_ops_t *found;

/* PROGRESS_OPS_SYMBOL in dir/select_eunomia.so if that is loaded.  The
 * handle stays open: the table must outlive this call. */
static const progress_ops_t *_look_in(const char *dir)
{
	char *path = NULL;
	void *handle;
	const progress_ops_t *ops = NULL;

	xstrfmtcat(path, "%s/select_eunomia.so", dir);
	handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	xfree(path);
	if (handle && !(ops = dlsym(handle, PROGRESS_OPS_SYMBOL)))
		dlclose(handle);
	return ops;
}

const progress_ops_t *progress_ops_find(void)
{
	char *dirs, *dir, *save = NULL;

	slurm_mutex_lock(&find_lock);
	if (!found && slurm_conf.plugindir) {
		dirs = xstrdup(slurm_conf.plugindir);
		for (dir = strtok_r(dirs, ":", &save); dir && !found;
		     dir = strtok_r(NULL, ":", &save))
			found = _look_in(dir);
		xfree(dirs);
	}
	slurm_mutex_unlock(&find_lock);
	return found;
}

void progress_info_free(progress_info_t *info)
{
	if (!info)
		return;
	for (int i = 0; info->name && i < info->count; i++)
		xfree(info->name[i]);
	xfree(info->name);
	xfree(info->acct);
	info->count = 0;
	info->monopoly = 0;
}
