/*
 * priority_hmrf.c - priority/hmrf: long-term multi-resource fairness (H-MRF)
 * per account.
 *
 * STILL PASS-THROUGH: until the H-MRF core lands (issue 3), this plugin
 * orders pending jobs by submission, like priority/basic, and reports that
 * order to sprio as the age factor.  It says so at init.
 *
 * Locks: priority_p_set() is called by slurmctld with the job write lock
 * held; priority_p_get_priority_factors_list() takes the job read lock
 * itself, as priority/multifactor does.
 */
#include "config.h"

#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/slurm_priority.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

const char plugin_name[] = "Horae H-MRF long-term multi-resource fairness";
const char plugin_type[] = "priority/hmrf";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

int init(void)
{
	info("%s: loaded; STILL PASS-THROUGH: jobs are ordered by submit time until the H-MRF policy is enabled",
	     plugin_type);
	return SLURM_SUCCESS;
}

int fini(void)
{
	return SLURM_SUCCESS;
}

/*
 * Each new job gets one less than the previous one, so earlier submissions
 * go first; nice moves a job down (never below 1: 0 means held).
 */
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio = 1;
	int nice;

	if (job_ptr->direct_set_prio && job_ptr->priority > 1)
		return job_ptr->priority;
	if (last_prio >= 2)
		prio = last_prio - 1;
	if (job_ptr->details) {
		nice = (int)job_ptr->details->nice - NICE_OFFSET;
		if (nice > 0 && prio > (uint32_t)nice + 1)
			prio -= nice;
		else if (nice < 0)
			prio += (uint32_t)(-nice);
	}
	return prio ? prio : 1;
}

extern void priority_p_reconfig(bool assoc_clear)
{
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
}

extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	/* sshare asks this; H-MRF has no single fair-share number yet. */
	return 0.0;
}

static int _find_uint32(void *x, void *key)
{
	return *(uint32_t *)x == *(uint32_t *)key;
}

static bool _uid_wanted(List uid_list, uint32_t uid)
{
	return !uid_list || !list_count(uid_list) ||
	       list_find_first(uid_list, _find_uint32, &uid);
}

static bool _job_wanted(List job_id_list, uint32_t job_id)
{
	return !job_id_list || !list_count(job_id_list) ||
	       list_find_first(job_id_list, _find_uint32, &job_id);
}

static bool _part_wanted(const char *partitions, const char *part)
{
	char *copy, *tok, *save = NULL;
	bool found = false;

	if (!partitions || !partitions[0])
		return true;
	if (!part)
		return false;
	copy = xstrdup(partitions);
	for (tok = strtok_r(copy, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save))
		found = !xstrcmp(tok, part);
	xfree(copy);
	return found;
}

static priority_factors_object_t *_factors(job_record_t *job_ptr)
{
	priority_factors_object_t *obj = xmalloc(sizeof(*obj));

	obj->job_id = job_ptr->job_id;
	obj->user_id = job_ptr->user_id;
	obj->partition = xstrdup(job_ptr->part_ptr ? job_ptr->part_ptr->name :
						     job_ptr->partition);
	obj->priority_age = job_ptr->priority;
	/* sprio prints priority_site - NICE_OFFSET: this is a zero site factor. */
	obj->priority_site = NICE_OFFSET;
	obj->nice = job_ptr->details ? job_ptr->details->nice : NICE_OFFSET;
	return obj;
}

extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	slurmctld_lock_t job_read_lock = { .job = READ_LOCK,
					   .node = READ_LOCK,
					   .part = READ_LOCK };
	List ret_list = list_create(slurm_destroy_priority_factors_object);
	ListIterator itr;
	job_record_t *job_ptr;

	lock_slurmctld(job_read_lock);
	itr = list_iterator_create(job_list);
	while ((job_ptr = list_next(itr))) {
		if (!IS_JOB_PENDING(job_ptr) || IS_JOB_REVOKED(job_ptr) ||
		    job_ptr->priority == 0)
			continue;
		if ((slurm_conf.private_data & PRIVATE_DATA_JOBS) &&
		    job_ptr->user_id != uid && !validate_operator(uid))
			continue;
		if (!_job_wanted(req_msg->job_id_list, job_ptr->job_id) ||
		    !_uid_wanted(req_msg->uid_list, job_ptr->user_id) ||
		    !_part_wanted(req_msg->partitions, job_ptr->partition))
			continue;
		list_append(ret_list, _factors(job_ptr));
	}
	list_iterator_destroy(itr);
	unlock_slurmctld(job_read_lock);

	if (!list_count(ret_list))
		FREE_NULL_LIST(ret_list);
	return ret_list;
}

extern void priority_p_job_end(job_record_t *job_ptr)
{
}
