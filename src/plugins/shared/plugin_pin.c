/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin_pin.c - see plugin_pin.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "config.h"

#include <dlfcn.h>

#include "plugin_pin.h"

bool plugin_pin(void)
{
	Dl_info info;
	void *self;

	/* This function is linked into each plugin: its address names the
	 * plugin's own file. */
	if (!dladdr((void *)plugin_pin, &info) || !info.dli_fname)
		return false;
	self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	if (!self)
		return false;
	dlclose(self);
	return true;
}
