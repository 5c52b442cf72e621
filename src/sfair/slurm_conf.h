/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_conf.h - what sfair needs from slurm.conf, read the way Slurm
 * writes it, without a daemon: "Key=Value" or "Key = Value", several to a
 * line, '#' comments, '\' continuations, "Include PATH" (relative to
 * slurm.conf's directory, shell wildcards), keys in any case.  Lines it
 * cannot read (NodeName lines it has no use for, say) are passed over:
 * slurmctld is the judge of slurm.conf, sfair only looks up a key.
 */
#ifndef HORAE_SFAIR_SLURM_CONF_H
#define HORAE_SFAIR_SLURM_CONF_H

/*
 * The slurm.conf in use: $SLURM_CONF; else /etc/slurm/slurm.conf if it is
 * there; else the copy slurmd keeps on a configless node
 * (/run/slurm/conf/slurm.conf) if it is there; else
 * /etc/slurm/slurm.conf.
 */
const char *sfair_slurm_conf(void);

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
 * there).  NULL with errno ENOENT when there is no slurm.conf, ENOMEM.
 */
char **sfair_slurm_conf_values(const char *key, int *n);
void sfair_slurm_conf_free(char **vals);

#endif /* HORAE_SFAIR_SLURM_CONF_H */
