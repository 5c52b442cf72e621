/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hmrf_usage.c - Slurm's association and QOS usage.  See hmrf_usage.h;
 * the rules are the core's (common/assoc_usage.c), this file applies them
 * to assoc_mgr's records.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"

#include "common/assoc_usage.h"
#include "hmrf_usage.h"
#include "horae_compat.h"

extern const char plugin_type[];

/* slurmctld's; absent where a client (sshare) loads the plugin. */
#pragma weak calc_job_billable_tres
#pragma weak verify_assoc_lock

#define ASSERT_ASSOC_LOCK(type, level) \
	xassert(!verify_assoc_lock || verify_assoc_lock(type, level))

static void _assert_locks(void)
{
	ASSERT_ASSOC_LOCK(ASSOC_LOCK, WRITE_LOCK);
	ASSERT_ASSOC_LOCK(QOS_LOCK, WRITE_LOCK);
	ASSERT_ASSOC_LOCK(TRES_LOCK, READ_LOCK);
}

static assoc_usage_reset_t _reset_kind(void)
{
	switch (slurm_conf.priority_reset_period) {
	case PRIORITY_RESET_DAILY:
		return ASSOC_USAGE_RESET_DAILY;
	case PRIORITY_RESET_WEEKLY:
		return ASSOC_USAGE_RESET_WEEKLY;
	case PRIORITY_RESET_MONTHLY:
		return ASSOC_USAGE_RESET_MONTHLY;
	case PRIORITY_RESET_QUARTERLY:
		return ASSOC_USAGE_RESET_QUARTERLY;
	case PRIORITY_RESET_YEARLY:
		return ASSOC_USAGE_RESET_YEARLY;
	default: /* NONE; NOW is a one-off at start, not a period */
		return ASSOC_USAGE_RESET_NONE;
	}
}

/* Scale one record's usage by k (0: reset). */
static void _scale(long double *raw, long double *tres_raw, double *wall,
		   double k)
{
	*raw *= k;
	*wall *= k;
	for (uint32_t i = 0; tres_raw && i < g_tres_count; i++)
		tres_raw[i] *= k;
}

void hmrf_usage_advance(double charged, double now)
{
	bool reset = assoc_usage_reset_due(_reset_kind(), charged, now);
	double k = reset ? 0 :
			   assoc_usage_decay(slurm_conf.priority_decay_hl,
					     now - charged);
	slurmdb_assoc_rec_t *a;
	slurmdb_qos_rec_t *q;
	list_itr_t *it;

	_assert_locks();
	if (k == 1)
		return;
	if (reset)
		info("%s: PriorityUsageResetPeriod: association and QOS usage reset to 0",
		     plugin_type);
	if (assoc_mgr_assoc_list) {
		it = list_iterator_create(assoc_mgr_assoc_list);
		while ((a = list_next(it)))
			if (a->usage)
				_scale(&a->usage->usage_raw,
				       a->usage->usage_tres_raw,
				       &a->usage->grp_used_wall, k);
		list_iterator_destroy(it);
	}
	if (assoc_mgr_qos_list) {
		it = list_iterator_create(assoc_mgr_qos_list);
		while ((q = list_next(it)))
			if (q->usage && (reset || !(q->flags & QOS_FLAG_NO_DECAY)))
				_scale(&q->usage->usage_raw,
				       q->usage->usage_tres_raw,
				       &q->usage->grp_used_wall, k);
		list_iterator_destroy(it);
	}
}

/* What one charge adds, per TRES and in all. */
typedef struct charge {
	double secs;	     /* run seconds charged, x UsageFactor */
	double billing;	     /* billing TRES x secs */
	long double *tres;   /* TRES x secs */
	uint64_t *release;   /* reserved TRES-seconds to give back */
} charge_t;

static void _release(uint64_t *run_secs, const uint64_t *release)
{
	for (uint32_t i = 0; run_secs && i < g_tres_count; i++)
		run_secs[i] = run_secs[i] > release[i] ?
				      run_secs[i] - release[i] :
				      0;
}

static void _add(long double *raw, long double *tres_raw, double *wall,
		 uint64_t *run_secs, const charge_t *c)
{
	*raw += c->billing;
	*wall += c->secs;
	for (uint32_t i = 0; tres_raw && i < g_tres_count; i++)
		tres_raw[i] += c->tres[i];
	_release(run_secs, c->release);
}

/*
 * The per-TRES arrays of a charge, kept between charges: one per running
 * job per recalculation, under slurmctld's job lock, would otherwise be
 * two allocations each.  Only callers holding assoc_mgr's association
 * write lock use them, so one at a time.
 */
static long double *tres_buf;
static uint64_t *release_buf;
static uint32_t buf_cap;

static void _charge_arrays(charge_t *c)
{
	if (g_tres_count > buf_cap) {
		xrecalloc(tres_buf, g_tres_count, sizeof(*tres_buf));
		xrecalloc(release_buf, g_tres_count, sizeof(*release_buf));
		buf_cap = g_tres_count;
	}
	memset(tres_buf, 0, g_tres_count * sizeof(*tres_buf));
	memset(release_buf, 0, g_tres_count * sizeof(*release_buf));
	c->tres = tres_buf;
	c->release = release_buf;
}

void hmrf_usage_fini(void)
{
	xfree(tres_buf);
	xfree(release_buf);
	buf_cap = 0;
}

static void _add_qos(slurmdb_qos_rec_t *q, const charge_t *c)
{
	if (q && q->usage)
		_add(&q->usage->usage_raw, q->usage->usage_tres_raw,
		     &q->usage->grp_used_wall,
		     q->usage->grp_used_tres_run_secs, c);
}

void hmrf_usage_charge(job_record_t *job_ptr, double charged, double now,
		       bool ended)
{
	slurmdb_qos_rec_t *qos = job_ptr->qos_ptr;
	double start = (double)job_ptr->start_time;
	double end = ended ? (double)job_ptr->end_time : 0;
	double from = fmax(start, charged);
	double limit_end = start + (double)job_ptr->time_limit * 60;
	double secs = assoc_usage_seconds(start, end, charged, now);
	double factor = 1, reserved;
	assoc_charge_t charge;
	charge_t c = { 0 };

	_assert_locks();
	HORAE_ASSERT_LOCK(JOB_LOCK, WRITE_LOCK);
	/* Its end is charged once (multifactor's marker, so the two agree
	 * on a job that ends while either is loaded). */
	if (!job_ptr->tres_alloc_cnt || !job_ptr->start_time ||
	    job_ptr->end_time_exp == (time_t)NO_VAL)
		return;
	if (ended)
		job_ptr->end_time_exp = (time_t)NO_VAL;
	if (qos)
		factor = assoc_usage_factor(qos->usage_factor);
	/* Reserved run time (acct_policy reserved TRES x its time limit x
	 * UsageFactor at its start): what this charge used of it, and at
	 * the end all that is left. */
	reserved = assoc_usage_reserved(limit_end, from, secs, ended);
	if (!(secs > 0) && !(reserved > 0))
		return;
	charge = assoc_usage_charge(secs, factor,
				    calc_job_billable_tres ?
					    calc_job_billable_tres(
						    job_ptr,
						    job_ptr->start_time, true) :
					    (double)job_ptr->total_cpus);
	c.secs = charge.secs;
	c.billing = charge.raw;
	_charge_arrays(&c);
	for (uint32_t i = 0; i < g_tres_count; i++) {
		uint64_t n = job_ptr->tres_alloc_cnt[i];

		if (!n || n == NO_CONSUME_VAL64)
			continue;
		c.tres[i] = (long double)n * c.secs;
		c.release[i] = (uint64_t)llround((double)n * reserved * factor);
	}
	_add_qos(qos, &c);
	if (job_ptr->part_ptr && job_ptr->part_ptr->qos_ptr != qos)
		_add_qos(job_ptr->part_ptr->qos_ptr, &c);
	for (slurmdb_assoc_rec_t *a = job_ptr->assoc_ptr; a && a->usage;
	     a = a->usage->parent_assoc_ptr)
		_add(&a->usage->usage_raw, a->usage->usage_tres_raw,
		     &a->usage->grp_used_wall,
		     a->usage->grp_used_tres_run_secs, &c);
}

void hmrf_usage_publish(const hmrf_books_t *books)
{
	int n = hmrf_books_count(books);
	double *standing = xcalloc(n ? n : 1, sizeof(*standing));
	long double root = assoc_mgr_root_assoc && assoc_mgr_root_assoc->usage ?
				   assoc_mgr_root_assoc->usage->usage_raw :
				   0;
	slurmdb_assoc_rec_t *a;
	list_itr_t *it;

	_assert_locks();
	if (!assoc_mgr_assoc_list)
		goto out;
	if (hmrf_books_standing(books, standing))
		error("%s: out of memory ranking the accounts", plugin_type);
	it = list_iterator_create(assoc_mgr_assoc_list);
	while ((a = list_next(it))) {
		int k;

		if (!a->usage)
			continue;
		a->usage->usage_norm = root > 0 ? a->usage->usage_raw / root :
						  0;
		a->usage->usage_efctv = a->usage->usage_norm;
		k = a->acct ? hmrf_books_find(books, a->acct) : -ENOENT;
		a->usage->fs_factor = k >= 0 && k < n ? standing[k] : 0;
		a->usage->level_fs = a->usage->fs_factor;
	}
	list_iterator_destroy(it);
out:
	xfree(standing);
}
