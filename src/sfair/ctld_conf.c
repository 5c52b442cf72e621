/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_conf.c - slurm.conf's settings from slurmctld: see ctld_conf.h.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <slurm/slurm.h>

#include "ctld_conf.h"
#include "ctld_open.h"
#include "slurm_conf.h"

/* slurmctld's configuration, asked once. */
static slurm_conf_t *ctl;

static int _load(void)
{
	if (ctl)
		return 0;
	if (sfair_ctld_open("the cluster's settings"))
		return -EHOSTUNREACH;
	if (slurm_load_ctl_conf(0, &ctl)) {
		fprintf(stderr,
			"sfair: there is no slurm.conf on this host, and slurmctld cannot be asked for its settings: %s\n",
			slurm_strerror(errno));
		ctl = NULL;
		sfair_ctld_close();
		return -EHOSTUNREACH;
	}
	sfair_ctld_close();
	return 0;
}

static const char *_scalar(const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "StateSaveLocation",
		  offsetof(slurm_conf_t, state_save_location) },
		{ "AccountingStorageType",
		  offsetof(slurm_conf_t, accounting_storage_type) },
		{ "AccountingStorageTRES",
		  offsetof(slurm_conf_t, accounting_storage_tres) },
		{ "SelectType", offsetof(slurm_conf_t, select_type) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcasecmp(key, keys[i].key))
			return *(char **)((char *)ctl + keys[i].off);
	return NULL;
}

static int _features(char ***vals, int *n)
{
	node_info_msg_t *nodes = NULL;
	int rc = 0;

	if (slurm_load_node(0, &nodes, SHOW_ALL)) {
		fprintf(stderr, "sfair: slurmctld cannot list its nodes: %s\n",
			slurm_strerror(errno));
		return -EHOSTUNREACH;
	}
	for (uint32_t i = 0; !rc && i < nodes->record_count; i++)
		if (nodes->node_array[i].features)
			rc = sfair_slurm_conf_append(vals, n,
						     nodes->node_array[i].features);
	slurm_free_node_info_msg(nodes);
	return rc;
}

char **sfair_ctld_conf_values(const char *key, int *n)
{
	char **vals = calloc(1, sizeof(*vals));
	const char *value;
	int rc;

	*n = 0;
	if (!vals) {
		errno = ENOMEM;
		return NULL;
	}
	if ((rc = _load()))
		goto fail;
	if (!strcasecmp(key, "Features"))
		rc = _features(&vals, n);
	else if ((value = _scalar(key)) && value[0])
		rc = sfair_slurm_conf_append(&vals, n, value);
	if (rc)
		goto fail;
	return vals;
fail:
	sfair_slurm_conf_free(vals);
	*n = 0;
	errno = -rc;
	return NULL;
}
