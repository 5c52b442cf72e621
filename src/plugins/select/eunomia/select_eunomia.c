/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select_eunomia.c - select/eunomia: speed-aware placement on mixed node
 * generations, layered on select/cons_tres.
 *
 * It loads select/cons_tres under its own name (cons_tres_loader.c) and
 * passes every call down; jobinfo and nodeinfo are cons_tres's own.
 *
 * Progress: every job's CPUs x its nodes' speed factors are charged to
 * its account at its end and every Period (eunomia_progress.c), saved in
 * StateSaveLocation/horae_eunomia.state, and offered to priority/hmrf
 * through the table horae_progress_ops_v1 (progress_info.h).
 *
 * Placement: with Placement= other than cons_tres in eunomia.conf (beside
 * slurm.conf), every job_test first ranks the candidate nodes with the
 * core's scorer (eunomia_steer.c) in the low byte of sched_weight, then
 * lets cons_tres choose, then restores the weights; backfill's will-run
 * plans are cons_tres's own, its starts are steered.  Placement=eunomia
 * steers by the job's account's gap to the fair progress share.  Without
 * the file, or with Placement=cons_tres, placement is exactly cons_tres's
 * and init says so.
 *
 * Known losses against naming select/cons_tres directly: slurmctld and
 * slurmd test the *name* of SelectType for "cons_tres" in a few places
 * (read_config.c MaxNodeCount, node_mgr.c dynamic node creation,
 * job_scheduler.c and gres_ctld.c heterogeneous GRES counts per node,
 * slurmd.c) and state_control.c tests plugin_id 109 for core-count
 * reservations.  Those features are unavailable under select/eunomia.
 *
 * This plugin is also loaded by slurmd and by the client commands (Slurm
 * loads every select plugin to unpack jobinfo, up to 24.11), so it must
 * not reference data symbols that exist only in slurmctld
 * (slurmctld_only.h), and calls what plain libslurm exports by its slurm_
 * names (slurm_xlator.h; t0530 runs a program on plain libslurm).
 */
#include "config.h"

#include <errno.h>

/* Slurm's internal functions by the slurm_ names plain libslurm exports:
 * a program on libslurm (not libslurmfull) loads this plugin too.  First,
 * as in Slurm's own plugins. */
#include "src/common/slurm_xlator.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "horae_compat.h"
#include HORAE_INC_SELECT
#include "src/common/xmalloc.h"

#include "src/common/xstring.h"

#include "common/eunomia_conf.h"
#include "cons_tres_loader.h"
#include "ctld_role.h"
#include "eunomia_progress.h"
#include "eunomia_steer.h"
#include "periodic.h"
#include "progress_info.h"
#include "views.h"

const char plugin_name[] = "Horae Eunomia speed-aware placement over cons_tres";
const char plugin_type[] = "select/eunomia";
#if CONS_TRES_HAS_STATE_STEPS_INFO
/* Unique among select plugins up to 24.11, which loads them all (jobinfo
 * carries the id): 101-110 are Slurm's own. */
uint32_t plugin_id = 150;
#else
/* From 25.05 slurmctld loads only the configured select plugin and takes
 * cons_tres's id (109) for "the cores and sockets are counted"
 * (running_cons_tres(); any other id is fatal with CR_CPU/CORE/SOCKET):
 * select/eunomia is cons_tres underneath. */
uint32_t plugin_id = SELECT_PLUGIN_CONS_TRES;
#endif
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* cons_tres's FN(...), or ERR when cons_tres cannot be loaded (logged). */
#define CONS_TRES(err, fn, ...)                                \
	({                                                     \
		const cons_tres_ops_t *_ops = cons_tres_ops(); \
		_ops ? _ops->fn(__VA_ARGS__) : (err);          \
	})

/* Set by slurmctld -i: start even if saved state cannot be read. */
extern bool ignore_state_errors __attribute__((weak));

/* In slurmctld with SelectType=select/eunomia only; NULL elsewhere. */
static eunomia_progress_t *prog;
static periodic_t *ticker;
/* With a Placement: the steering and its view of the allocations, which
 * every call that can change them touches. */
static eunomia_steer_t *steer;

static void _touch(void)
{
	eunomia_steer_touch(steer);
}

/* priority/hmrf's questions (progress_info.h). */
static int _progress_export(progress_info_t *info)
{
	if (!prog)
		return -ENODEV;
	eunomia_progress_export(prog, info);
	return 0;
}

static double _progress_job_rate(job_record_t *job_ptr)
{
	return prog ? eunomia_progress_job_rate(prog, job_ptr) : 0;
}

extern const progress_ops_t horae_progress_ops_v1;
const progress_ops_t horae_progress_ops_v1 = {
	.export = _progress_export,
	.job_rate = _progress_job_rate,
};

/*
 * The Eunomia factor orders the queue by progress share; slurmctld's main
 * scheduler stops for a whole partition at the first job that cannot
 * start (a job pinned to busy nodes), so nodes that job cannot use wait
 * for backfill.  SchedulerParameters=bf_min_prio_reserve (or a QOS's
 * MinPrioThreshold) lets the jobs below it pass.  Say so once a start or
 * reconfigure when the factor is on and the parameter is not set.
 */
static void _check_sched_params(void)
{
	if (!slurm_conf.priority_weight_assoc ||
	    xstrcmp(slurm_conf.priority_type, "priority/hmrf") ||
	    xstrcasestr(slurm_conf.sched_params, "bf_min_prio_reserve="))
		return;
	info("%s: SchedulerParameters has no bf_min_prio_reserve: a job that cannot start on the nodes its constraints allow stops the main scheduler for its partition, and other accounts' jobs wait for backfill (see horae-eunomia.conf(5), CONSTRAINTS)",
	     plugin_type);
}

/* eunomia.conf; a bad file stops slurmctld at start (fatal) or is
 * refused at reconfigure (NULL). */
static eunomia_conf_t *_read_conf(bool at_start)
{
	char *path = get_extra_conf_path("eunomia.conf");
	eunomia_conf_t *conf = eunomia_conf_create();
	horae_err_t err;
	int rc = eunomia_conf_read(conf, path, &err);

	if (rc && rc != -ENOENT) {
		if (at_start)
			fatal("%s: %s", plugin_type, err.text);
		error("%s: %s; keeping the previous configuration",
		      plugin_type, err.text);
		eunomia_conf_destroy(&conf);
	} else if (conf->steer) {
		info("%s: placement %s over select/cons_tres, progress period %.0fs (%s)",
		     plugin_type, place_policy_name(conf->placement),
		     conf->period, path);
	} else {
		info("%s: placement is cons_tres's (no Placement in %s); progress accounted every %.0fs",
		     plugin_type, path, conf->period);
	}
	if (conf)
		_check_sched_params();
	xfree(path);
	return conf;
}

static void _tick(void *arg)
{
	eunomia_progress_tick(prog);
}

static double _period(void *arg)
{
	return eunomia_progress_period(prog);
}

extern int init(void)
{
	bool start_empty = &ignore_state_errors && ignore_state_errors;

	/* select_g_init loads every select plugin; only the chosen one
	 * accounts progress. */
	if (!running_in_slurmctld() ||
	    xstrcmp(slurm_conf.select_type, plugin_type))
		return SLURM_SUCCESS;
	prog = eunomia_progress_create(
		_read_conf(true), slurm_conf.state_save_location, start_empty,
		ctld_role_follows_control());
	if (!prog)
		fatal("%s: cannot start: see the errors above", plugin_type);
	steer = eunomia_steer_create();
	ticker = periodic_start("eunomia", _tick, _period, NULL);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	periodic_stop(&ticker);
	eunomia_steer_destroy(&steer);
	eunomia_progress_destroy(&prog);
	views_fini();
	return cons_tres_unload();
}

/*
 * read_slurm_conf while not yet in control (at start, or taking over from
 * another slurmctld; not a reconfigure): take the progress, then match it
 * with the jobs slurmctld recovered.
 */
static void _take_and_sync(list_t *jobs)
{
	bool start_empty = &ignore_state_errors && ignore_state_errors;

	if (!prog)
		return;
	if (ctld_role_follows_control() && !ctld_role_control() &&
	    eunomia_progress_take(prog, start_empty))
		fatal("%s: cannot take control: see the errors above",
		      plugin_type);
	eunomia_progress_sync(prog, jobs);
}

#if CONS_TRES_HAS_STATE_STEPS_INFO
/* slurmctld saves all its state (now and then, when it shuts down and
 * when it gives control to another slurmctld): the progress too. */
extern int select_p_state_save(char *dir_name)
{
	if (prog)
		eunomia_progress_save(prog);
	return CONS_TRES(SLURM_ERROR, state_save, dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	_touch();
	return CONS_TRES(SLURM_ERROR, state_restore, dir_name);
}

extern int select_p_job_init(list_t *job_list)
{
	int rc = CONS_TRES(SLURM_ERROR, job_init, job_list);

	_touch();
	_take_and_sync(job_list);
	return rc;
}
#endif

extern int select_p_node_init(void)
{
	_touch();
	if (prog)
		eunomia_progress_nodes_changed(prog);
#if !CONS_TRES_HAS_STATE_STEPS_INFO
	/* 25.05 calls no job_init: the jobs are loaded by now. */
	_take_and_sync(job_list);
#endif
	return CONS_TRES(SLURM_ERROR, node_init);
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     CONS_TRES_JOB_TEST_TAIL)
{
	bool steered = false;
	int rc;

	/* Only when nodes are chosen for a start: backfill's will-run and
	 * test-only calls plan, and the start it then makes comes here
	 * again in run-now mode (backfill's _start_job -> select_nodes). */
	if (prog && steer && eunomia_progress_conf(prog)->steer &&
	    SELECT_IS_MODE_RUN_NOW(mode))
		steered = eunomia_steer_apply(steer, prog, job_ptr, bitmap) > 0;
	rc = CONS_TRES(SLURM_ERROR, job_test, job_ptr, bitmap, min_nodes,
		       max_nodes, req_nodes, mode, preemptee_candidates,
		       preemptee_job_list, CONS_TRES_JOB_TEST_TAIL_ARGS);
	if (steered)
		eunomia_steer_restore(steer);
	/* A start takes its resources in select_nodeinfo_set, after job_test
	 * (select_nodes, 22.05 to 25.11): a job_test changes none. */
	return rc;
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	int rc = CONS_TRES(SLURM_ERROR, job_begin, job_ptr);

	_touch();
	if (prog && rc == SLURM_SUCCESS)
		eunomia_progress_begin(prog, job_ptr);
	return rc;
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	return CONS_TRES(SLURM_ERROR, job_ready, job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	int rc = CONS_TRES(SLURM_ERROR, job_expand, from_job_ptr, to_job_ptr);

	_touch();
	if (prog) {
		eunomia_progress_resized(prog, from_job_ptr);
		eunomia_progress_resized(prog, to_job_ptr);
	}
	return rc;
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	int rc = CONS_TRES(SLURM_ERROR, job_resized, job_ptr, node_ptr);

	_touch();
	if (prog)
		eunomia_progress_resized(prog, job_ptr);
	return rc;
}

#if CONS_TRES_HAS_SIGNAL_SPRINT
extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	return CONS_TRES(SLURM_ERROR, job_signal, job_ptr, signal);
}
#endif

extern int select_p_job_fini(job_record_t *job_ptr)
{
	_touch();
	if (prog)
		eunomia_progress_end(prog, job_ptr);
	return CONS_TRES(SLURM_ERROR, job_fini, job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	_touch();
	if (prog)
		eunomia_progress_pause(prog, job_ptr, true);
	return CONS_TRES(SLURM_ERROR, job_suspend, job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	_touch();
	if (prog)
		eunomia_progress_pause(prog, job_ptr, false);
	return CONS_TRES(SLURM_ERROR, job_resume, job_ptr, indf_susp);
}

#if CONS_TRES_HAS_STATE_STEPS_INFO
extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	return CONS_TRES(NULL, step_pick_nodes, job_ptr, jobinfo, node_count,
			 avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	return CONS_TRES(SLURM_ERROR, step_start, step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	return CONS_TRES(SLURM_ERROR, step_finish, step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_pack, nodeinfo, buffer,
			 protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_unpack, nodeinfo, buffer,
			 protocol_version);
}
#endif

#if CONS_TRES_HAS_STATE_STEPS_INFO
extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	return CONS_TRES(NULL, select_nodeinfo_alloc);
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_free, nodeinfo);
}
#endif

extern int select_p_select_nodeinfo_set_all(void)
{
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_set_all);
}

/* Adds a running or suspended job's resources (slurmctld's restart). */
extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	_touch();
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_set, job_ptr);
}

#if CONS_TRES_HAS_STATE_STEPS_INFO
extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	return CONS_TRES(SLURM_ERROR, select_nodeinfo_get, nodeinfo, dinfo,
			 state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	return CONS_TRES(NULL, select_jobinfo_alloc);
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	return CONS_TRES(SLURM_ERROR, select_jobinfo_free, jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return CONS_TRES(SLURM_ERROR, select_jobinfo_set, jobinfo, data_type,
			 data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	return CONS_TRES(SLURM_ERROR, select_jobinfo_get, jobinfo, data_type,
			 data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(
	select_jobinfo_t *jobinfo)
{
	return CONS_TRES(NULL, select_jobinfo_copy, jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	return CONS_TRES(SLURM_ERROR, select_jobinfo_pack, jobinfo, buffer,
			 protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	return CONS_TRES(SLURM_ERROR, select_jobinfo_unpack, jobinfo, buffer,
			 protocol_version);
}
#endif

#if CONS_TRES_HAS_SIGNAL_SPRINT
extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	return CONS_TRES(NULL, select_jobinfo_sprint, jobinfo, buf, size, mode);
}
#endif

#if CONS_TRES_HAS_SIGNAL_SPRINT
extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	return CONS_TRES(NULL, select_jobinfo_xstrdup, jobinfo, mode);
}
#endif

#if CONS_TRES_HAS_STATE_STEPS_INFO
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	return CONS_TRES(SLURM_ERROR, get_info_from_plugin, dinfo, job_ptr,
			 data);
}
#endif

#if CONS_TRES_HAS_SIGNAL_SPRINT
extern int select_p_update_node_config(int index)
{
	_touch();
	return CONS_TRES(SLURM_ERROR, update_node_config, index);
}
#endif

extern int select_p_reconfigure(void)
{
	eunomia_conf_t *conf;

	_touch();
	if (prog && (conf = _read_conf(false)))
		eunomia_progress_reconfig(prog, conf);
	return CONS_TRES(SLURM_ERROR, reconfigure);
}

#if CONS_TRES_HAS_RESV_TEST
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt,
				    bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	return CONS_TRES(NULL, resv_test, resv_desc_ptr, node_cnt, avail_bitmap,
			 core_bitmap);
}
#endif
