/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_trace.c - libFuzzer target for horae-sim's trace readers
 * (contribs/sim/sim_trace.h): every input is read as a JSON trace
 * (sim_trace_read_json) and as a Standard Workload Format log
 * (sim_trace_read_swf, once with the sizes from the header and once with
 * every option set), and as sacct's records of a site's history
 * (sim_trace_read_sacct, against the nodes of its test data, which
 * SIM_TEST_NODES names), through the scratch file, since the readers only
 * take a path.  Each format's seeds reach the other readers too, which
 * costs little: they give up on the first line.
 */
#include <stdint.h>
#include <stdlib.h>

#include "sim_trace.h"

#include "fuzz_util.h"

static const sim_swf_opts_t swf_opts[] = {
	{ 0 },
	{ .nodes = 3,
	  .cpus_per_node = 4,
	  .by_group = true,
	  .requested = true,
	  .max_jobs = 5 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	sim_trace_t t;
	horae_err_t err;
	size_t skipped;

	const char *nodes = getenv("SIM_TEST_NODES");
	sim_sacct_opts_t sacct = { .nodes_path = nodes,
				   .speed_map = "gen1:1,gen4:3" };
	sim_sacct_stats_t st;

	if (!sim_trace_read_json(path, &t, &err))
		sim_trace_free(&t);
	if (nodes && !sim_trace_read_sacct(path, &sacct, &t, &st, &err))
		sim_trace_free(&t);
	for (size_t i = 0; i < sizeof(swf_opts) / sizeof(swf_opts[0]); i++)
		if (!sim_trace_read_swf(path, &swf_opts[i], &t, &skipped, &err))
			sim_trace_free(&t);
	return 0;
}
