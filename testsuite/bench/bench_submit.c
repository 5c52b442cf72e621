/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_submit.c - queue many batch jobs quickly for the benchmarks that
 * need a long queue (bench-priority-recalc.sh, bench-select-cycle.sh):
 * one libslurm call per job instead of one sbatch process, so that
 * 50,000 jobs take a minute, not an hour.  What the benchmarks measure
 * comes after the queue is built; sbatch's own throughput is
 * bench-submit.sh's.
 *
 * Reads one job a line from standard input, blank-separated:
 *
 *   [@UID] PARTITION ACCOUNT TASKS MINUTES MEM_MB NODELIST SCRIPT
 *
 * ("-" for PARTITION, MEM_MB or NODELIST: Slurm's default; SCRIPT is the
 * rest of the line, run by /bin/sh; @UID: the job is that user's, which
 * root may ask for, the user needing no account on the machine for a
 * job that never starts; else the caller's).  Submits each through
 * slurm_submit_batch_job() with SLURM_CONF's slurmctld; prints
 * "submitted N failed M" and the first failure.  Exit 0 when all were
 * queued, 1 otherwise, 2 on a bad line (naming it).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

extern char **environ;

static char *_opt(char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

int main(void)
{
	char line[4096], script[4200], first[256] = "";
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	long lineno = 0, ok = 0, failed = 0;

	slurm_init(NULL);
	while (fgets(line, sizeof(line), stdin)) {
		char part[256], acct[256], nodes[1024];
		char mem[64];
		unsigned tasks, minutes;
		unsigned long uid = getuid();
		int off = 0, skip = 0;
		const char *at;
		job_desc_msg_t d;
		submit_response_msg_t *r = NULL;

		lineno++;
		if (line[strspn(line, " \t\n")] == '\0')
			continue;
		at = line + strspn(line, " \t");
		if (*at == '@' &&
		    (!isdigit((unsigned char)at[1]) ||
		     sscanf(line, " @%lu %n", &uid, &skip) != 1 || !skip ||
		     uid >= UINT32_MAX)) {
			fprintf(stderr, "bench_submit: line %ld: expected @UID before PARTITION\n",
				lineno);
			return 2;
		}
		if (sscanf(line + skip, "%255s %255s %u %u %63s %1023s %n",
			   part, acct, &tasks, &minutes, mem, nodes,
			   &off) != 6 ||
		    !off || !tasks) {
			fprintf(stderr, "bench_submit: line %ld: expected [@UID] PARTITION ACCOUNT TASKS MINUTES MEM_MB NODELIST SCRIPT\n",
				lineno);
			return 2;
		}
		line[strcspn(line, "\n")] = '\0';
		snprintf(script, sizeof(script), "#!/bin/sh\n%s\n",
			 line + skip + off);
		slurm_init_job_desc_msg(&d);
		d.script = script;
		d.name = "bench";
		d.partition = _opt(part);
		d.account = acct;
		d.num_tasks = tasks;
		d.min_cpus = tasks;
		d.time_limit = minutes;
		if (_opt(mem))
			d.pn_min_memory = strtoull(mem, NULL, 10);
		d.req_nodes = _opt(nodes);
		d.work_dir = "/tmp";
		d.std_out = "/dev/null";
		d.environment = env;
		d.env_size = 1;
		d.user_id = (uint32_t)uid;
		d.group_id = getgid();
		if (slurm_submit_batch_job(&d, &r)) {
			if (!failed++)
				snprintf(first, sizeof(first), "line %ld: %s",
					 lineno,
					 slurm_strerror(slurm_get_errno()));
			continue;
		}
		slurm_free_submit_response_response_msg(r);
		ok++;
	}
	printf("submitted %ld failed %ld%s%s\n", ok, failed,
	       failed ? "; first: " : "", first);
	slurm_fini();
	return failed ? 1 : 0;
}
