/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_conf.h - what sfair needs from slurm.conf, read the way Slurm
 * writes it, without a daemon: "Key=Value" or "Key = Value", several to a
 * line, '#' comments, '\' continuations, "Include PATH" (relative to
 * slurm.conf's directory, shell wildcards), keys in any case.  Lines it
 * cannot read (NodeName lines it has no use for, say) are passed over:
 * slurmctld is the judge of slurm.conf, sfair only looks up a key.
 *
 * Why a reader of sfair's own where a slurm.conf is on this host: sfair
 * must work while slurmctld is down (its figures come from the plugins'
 * files), and libslurm's reader ends the process on a file it does not
 * take.  Where no slurm.conf is on this host (configless), the lookups
 * go to slurmctld through libslurm (slurm_load_ctl_conf, slurm_load_node;
 * ctld_conf.h), which fetches its configuration as every Slurm command
 * does.
 */
#ifndef HORAE_SFAIR_SLURM_CONF_H
#define HORAE_SFAIR_SLURM_CONF_H

#include <stdbool.h>

/* What sfair_slurm_conf() names on a configless host. */
#define SFAIR_SLURM_CONF_REMOTE "slurmctld's slurm.conf (configless)"

/*
 * The slurm.conf in use: $SLURM_CONF; else /etc/slurm/slurm.conf if it is
 * there; else the copy slurmd or sackd keeps on a configless node
 * (/run/slurm/conf/slurm.conf) if it is there; else none on this host
 * (SFAIR_SLURM_CONF_REMOTE, for messages): then libslurm fetches it
 * from slurmctld as every Slurm command does (SLURM_CONF_SERVER or DNS
 * SRV records), and the lookups below ask slurmctld (ctld_conf.h).
 */
const char *sfair_slurm_conf(void);

/* Whether this host has no slurm.conf, as above (configless). */
bool sfair_slurm_conf_remote(void);

/*
 * The path of file name beside the slurm.conf in use, where the plugins
 * read their own files (hmrf.conf, ...), to free; NULL with errno ENOENT
 * on a configless host (slurmctld sends only Slurm's own files), ENOMEM.
 */
char *sfair_slurm_conf_beside(const char *name);

/*
 * The value of key in the slurm.conf in use (the last one given wins), as
 * a string the caller frees; NULL when the file or the key is not there
 * (errno ENOENT) or out of memory (ENOMEM).
 */
char *sfair_slurm_conf_get(const char *key);

/*
 * Every value of key in the slurm.conf in use, in the order given (a
 * NodeName line's Features, say): a NULL-terminated array the caller frees
 * with sfair_slurm_conf_free(), *n its length (0 when the key is not
 * there).  NULL with errno ENOENT when there is no slurm.conf, ENOMEM;
 * on a configless host, what slurmctld says (ctld_conf.h).
 */
char **sfair_slurm_conf_values(const char *key, int *n);
void sfair_slurm_conf_free(char **vals);

/*
 * Append a copy of value to the NULL-terminated array *vals of *n values
 * (both updated).  Returns 0 or -ENOMEM; on failure *vals stays an array
 * the caller frees with sfair_slurm_conf_free().
 */
int sfair_slurm_conf_append(char ***vals, int *n, const char *value);

#endif /* HORAE_SFAIR_SLURM_CONF_H */
