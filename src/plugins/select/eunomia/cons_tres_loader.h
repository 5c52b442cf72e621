/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cons_tres_loader.h - select/cons_tres's entry points, which
 * select/eunomia loads under its own name and passes every call to.
 *
 * Slurm's select/other layer, which did this up to 23.11, went in 24.05;
 * the set of entry points changes from release to release (23.02, 23.11,
 * 24.11, 25.05), so the table below is written once, with each entry
 * under the releases that have it, and both the struct of pointers and
 * the names plugin_context_create() looks up are generated from it.
 */
#ifndef HORAE_CONS_TRES_LOADER_H
#define HORAE_CONS_TRES_LOADER_H

#include "src/slurmctld/slurmctld.h"
#include "horae_compat.h"
#include HORAE_INC_SELECT

/* job_test's last arguments: the reservation's cores from 23.11 on, and
 * backfill's will-run data from 24.11 on. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define CONS_TRES_JOB_TEST_TAIL \
	resv_exc_t *resv_exc_ptr, will_run_data_t *will_run_ptr
#define CONS_TRES_JOB_TEST_TAIL_ARGS resv_exc_ptr, will_run_ptr
#elif SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
#define CONS_TRES_JOB_TEST_TAIL resv_exc_t *resv_exc_ptr
#define CONS_TRES_JOB_TEST_TAIL_ARGS resv_exc_ptr
#else
#define CONS_TRES_JOB_TEST_TAIL bitstr_t *exc_core_bitmap
#define CONS_TRES_JOB_TEST_TAIL_ARGS exc_core_bitmap
#endif

/* Which entry points a release has. */
#define CONS_TRES_HAS_SIGNAL_SPRINT \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 2, 0))
#define CONS_TRES_HAS_RESV_TEST \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0))
#define CONS_TRES_HAS_STATE_STEPS_INFO \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(25, 5, 0))

/* X(name, return type, (parameters)) for every release. */
#define CONS_TRES_OPS_ALL(X)                                                \
	X(node_init, int, (void))                                           \
	X(job_test, int,                                                    \
	  (job_record_t * job_ptr, bitstr_t * bitmap, uint32_t min_nodes,   \
	   uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,           \
	   list_t * preemptee_candidates, list_t * *preemptee_job_list,     \
	   CONS_TRES_JOB_TEST_TAIL))                                        \
	X(job_begin, int, (job_record_t * job_ptr))                         \
	X(job_ready, int, (job_record_t * job_ptr))                         \
	X(job_expand, int, (job_record_t * from, job_record_t * to))        \
	X(job_resized, int, (job_record_t * job_ptr, node_record_t * node)) \
	X(job_fini, int, (job_record_t * job_ptr))                          \
	X(job_suspend, int, (job_record_t * job_ptr, bool indf_susp))       \
	X(job_resume, int, (job_record_t * job_ptr, bool indf_susp))        \
	X(select_nodeinfo_set_all, int, (void))                             \
	X(select_nodeinfo_set, int, (job_record_t * job_ptr))               \
	X(reconfigure, int, (void))

/* Up to 24.11: state, job_init, steps, nodeinfo and jobinfo. */
#if CONS_TRES_HAS_STATE_STEPS_INFO
#define CONS_TRES_OPS_TO_24_11(X)                                          \
	X(state_save, int, (char *dir_name))                               \
	X(state_restore, int, (char *dir_name))                            \
	X(job_init, int, (list_t * job_list))                              \
	X(step_pick_nodes, bitstr_t *,                                     \
	  (job_record_t * job_ptr, select_jobinfo_t * jobinfo,             \
	   uint32_t node_count, bitstr_t * *avail_nodes))                  \
	X(step_start, int, (step_record_t * step_ptr))                     \
	X(step_finish, int, (step_record_t * step_ptr, bool killing_step)) \
	X(select_nodeinfo_pack, int,                                       \
	  (select_nodeinfo_t * nodeinfo, buf_t * buffer,                   \
	   uint16_t protocol_version))                                     \
	X(select_nodeinfo_unpack, int,                                     \
	  (select_nodeinfo_t * *nodeinfo, buf_t * buffer,                  \
	   uint16_t protocol_version))                                     \
	X(select_nodeinfo_alloc, select_nodeinfo_t *, (void))              \
	X(select_nodeinfo_free, int, (select_nodeinfo_t * nodeinfo))       \
	X(select_nodeinfo_get, int,                                        \
	  (select_nodeinfo_t * nodeinfo, enum select_nodedata_type dinfo,  \
	   enum node_states state, void *data))                            \
	X(select_jobinfo_alloc, select_jobinfo_t *, (void))                \
	X(select_jobinfo_free, int, (select_jobinfo_t * jobinfo))          \
	X(select_jobinfo_set, int,                                         \
	  (select_jobinfo_t * jobinfo, enum select_jobdata_type data_type, \
	   void *data))                                                    \
	X(select_jobinfo_get, int,                                         \
	  (select_jobinfo_t * jobinfo, enum select_jobdata_type data_type, \
	   void *data))                                                    \
	X(select_jobinfo_copy, select_jobinfo_t *,                         \
	  (select_jobinfo_t * jobinfo))                                    \
	X(select_jobinfo_pack, int,                                        \
	  (select_jobinfo_t * jobinfo, buf_t * buffer,                     \
	   uint16_t protocol_version))                                     \
	X(select_jobinfo_unpack, int,                                      \
	  (select_jobinfo_t * *jobinfo, buf_t * buffer,                    \
	   uint16_t protocol_version))                                     \
	X(get_info_from_plugin, int,                                       \
	  (enum select_plugindata_info dinfo, job_record_t * job_ptr,      \
	   void *data))
#else
#define CONS_TRES_OPS_TO_24_11(X)
#endif

/* Up to 22.05: signals, sprint, node config. */
#if CONS_TRES_HAS_SIGNAL_SPRINT
#define CONS_TRES_OPS_TO_22_05(X)                                         \
	X(job_signal, int, (job_record_t * job_ptr, int signal))          \
	X(select_jobinfo_sprint, char *,                                  \
	  (select_jobinfo_t * jobinfo, char *buf, size_t size, int mode)) \
	X(select_jobinfo_xstrdup, char *,                                 \
	  (select_jobinfo_t * jobinfo, int mode))                         \
	X(update_node_config, int, (int index))
#else
#define CONS_TRES_OPS_TO_22_05(X)
#endif

/* Up to 23.02: reservations' node test. */
#if CONS_TRES_HAS_RESV_TEST
#define CONS_TRES_OPS_TO_23_02(X)                              \
	X(resv_test, bitstr_t *,                               \
	  (resv_desc_msg_t * resv_desc_ptr, uint32_t node_cnt, \
	   bitstr_t * avail_bitmap, bitstr_t * *core_bitmap))
#else
#define CONS_TRES_OPS_TO_23_02(X)
#endif

#define CONS_TRES_OPS(X)          \
	CONS_TRES_OPS_ALL(X)      \
	CONS_TRES_OPS_TO_24_11(X) \
	CONS_TRES_OPS_TO_22_05(X) \
	CONS_TRES_OPS_TO_23_02(X)

#define CONS_TRES_FIELD(name, ret, params) ret(*name) params;
typedef struct {
	const uint32_t *plugin_id;
	CONS_TRES_OPS(CONS_TRES_FIELD)
} cons_tres_ops_t;
#undef CONS_TRES_FIELD

/*
 * cons_tres's entry points, loaded on first use (select/eunomia is loaded
 * by slurmctld, slurmd and the commands alike); NULL if it cannot be
 * loaded, which the caller reports as SLURM_ERROR.
 */
extern const cons_tres_ops_t *cons_tres_ops(void);

/* Unload at select/eunomia's fini. */
extern int cons_tres_unload(void);

#endif /* HORAE_CONS_TRES_LOADER_H */
