/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress_info.c - see progress_info.h.
 */
#include "config.h"

#include "src/common/xmalloc.h"

#include "progress_info.h"

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
