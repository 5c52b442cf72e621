/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_conf.h - slurm.conf's settings as slurmctld reports them, for a
 * host with no slurm.conf of its own (configless: libslurm fetches the
 * configuration from slurmctld, through SLURM_CONF_SERVER or DNS SRV
 * records, as every Slurm command does there).
 */
#ifndef HORAE_SFAIR_CTLD_CONF_H
#define HORAE_SFAIR_CTLD_CONF_H

/*
 * The values of key as slurmctld has them, as sfair_slurm_conf_values()
 * gives a file's: StateSaveLocation, AccountingStorageType,
 * AccountingStorageTRES and SelectType from slurm_load_ctl_conf(); the
 * nodes' Features (key "Features"; "Feature" gives none, the nodes'
 * features being all in the first) from slurm_load_node().  Another key
 * has no value (*n 0).  NULL with errno set, and the reason printed,
 * when slurmctld cannot be asked (EHOSTUNREACH) or out of memory
 * (ENOMEM).  The caller frees the array with sfair_slurm_conf_free().
 */
char **sfair_ctld_conf_values(const char *key, int *n);

#endif /* HORAE_SFAIR_CTLD_CONF_H */
