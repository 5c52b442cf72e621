/*
 * hmrf_test.c - Check tests of hmrf.c: the errno contract; shares, the
 * non-sharing allocation and beta on hand-computed cases; Table 1 of the
 * H-MRF paper (Example 3) reproduced exactly in a step model for DRF and
 * H-MRF; a short tumbling window behaving memoryless; 2:1 weights giving a
 * 2:1 aggregate; the starvation timeout; the borrow limit.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../hmrf.h"
#include "../ledger.h"

static tres_vec_t _v(double cpu, double mem)
{
	tres_vec_t v;

	tres_zero(&v);
	v.v[0] = cpu;
	v.v[1] = mem;
	return v;
}

/* --- errno contract ------------------------------------------------------ */

START_TEST(test_badargs)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t j = { .account = 0, .duration = 1 };
	size_t order[1] = { 99 };
	horae_err_t err;
	hmrf_policy_t pol = HMRF_POLICY_AF;

	p.capacity = _v(10, 10);
	ck_assert_int_eq(hmrf_rank(NULL, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, NULL, &err), -EINVAL);
	a[1].weight = 0;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "account 1 has weight 0"));
	a[1].weight = 1;
	j.account = 2;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "job 0 names account 2 of 2"));
	j.account = 0;
	j.duration = INFINITY;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert(strstr(err.text, "must be finite"));
	j.duration = 1;
	p.horizon = -1;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, &j, 1, order, &err), -EINVAL);
	ck_assert_uint_eq(order[0], 99); /* untouched on failure */
	p.horizon = 1;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, NULL, 0, NULL, &err), 0);

	ck_assert_int_eq(hmrf_policy_parse("wfq", &pol, &err), -EINVAL);
	ck_assert(strstr(err.text, "unknown policy 'wfq' (use hmrf, drf"));
	ck_assert_int_eq(pol, HMRF_POLICY_AF);
	ck_assert_int_eq(hmrf_policy_parse(NULL, &pol, &err), -EINVAL);
}
END_TEST

START_TEST(test_policy_names)
{
	const char *names[] = { "hmrf", "drf", "af", "lt-drf", "lt-af" };
	hmrf_policy_t p;

	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(hmrf_policy_parse(names[i], &p, NULL), 0);
		ck_assert_int_eq(p, i);
		ck_assert_str_eq(hmrf_policy_name(p), names[i]);
	}
	ck_assert_str_eq(hmrf_policy_name((hmrf_policy_t)42), "unknown");
}
END_TEST

/* --- shares, non-sharing allocation, beta -------------------------------- */

START_TEST(test_shares)
{
	tres_vec_t R = _v(100, 100), S, d, ns;

	hmrf_fair_share(&R, 2, 3, &S);
	ck_assert_double_eq_tol(S.v[0], 200.0 / 3, 1e-12);
	ck_assert_double_eq_tol(S.v[1], 200.0 / 3, 1e-12);

	/* Example 3 at t1: A's 30 tasks of <1, 4> fit <50, 50> as 12.5. */
	S = _v(50, 50);
	d = _v(30, 120);
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert_double_eq_tol(ns.v[0], 12.5, 1e-12);
	ck_assert_double_eq_tol(ns.v[1], 50, 1e-12);
	/* B's 4 tasks of <4, 1> fit whole. */
	d = _v(16, 4);
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert_double_eq(ns.v[0], 16);
	ck_assert_double_eq(ns.v[1], 4);
	/* A demand for a TRES the share lacks cannot run without sharing. */
	d = _v(1, 1);
	d.v[3] = 1;
	hmrf_nonsharing(&d, &S, &ns);
	ck_assert(tres_is_zero(&ns));
}
END_TEST

START_TEST(test_beta)
{
	tres_vec_t used, ns;

	/* A after t1 of Example 3: used <24, 96>, ns <12.5, 50>. */
	used = _v(24, 96);
	ns = _v(12.5, 50);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 1.92, 1e-12);
	/* The smallest TRES decides: min(20/25, 90/100) = 0.8. */
	used = _v(20, 90);
	ns = _v(25, 100);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 0.8, 1e-12);
	/* TRES without non-sharing demand do not count. */
	used = _v(0, 30);
	ns = _v(0, 20);
	ck_assert_double_eq_tol(hmrf_beta(&used, &ns), 1.5, 1e-12);
	/* No demand yet: no loss. */
	tres_zero(&ns);
	ck_assert(isinf(hmrf_beta(&used, &ns)));
	/* Demand but nothing used: total loss. */
	tres_zero(&used);
	ns = _v(1, 1);
	ck_assert_double_eq(hmrf_beta(&used, &ns), 0);
}
END_TEST

START_TEST(test_aggregate_dominant)
{
	tres_vec_t R = _v(100, 50), u = _v(20, 20);

	ck_assert_double_eq_tol(hmrf_aggregate(&u, &R, 2), (0.2 + 0.4) / 2,
				1e-12);
	ck_assert_double_eq_tol(hmrf_dominant(&u, &R, 2), 0.2, 1e-12);
}
END_TEST

/* --- the step model: Example 3 / Table 1 --------------------------------- */

/*
 * Each step every running task ends; pending tasks (new ones plus those
 * left over) are ranked by hmrf_rank() and started in that order, each
 * that still fits, on 100 CPUs / 100 GB; then usage and the non-sharing
 * allocation of the step are charged to the ledgers over [t, t+1].
 */
typedef struct step_model {
	hmrf_policy_t policy;
	window_spec_t window;
	double weight[2];
	tres_vec_t task[2];
	int steps;
	const int *arrivals[2]; /* new tasks per step; NULL: always 200 */
	int ran[2][512];
	ledger_t *usage, *nonsharing;
} step_model_t;

static void _step(step_model_t *m, int t, int *pending)
{
	hmrf_params_t p = { .policy = m->policy, .now = t, .horizon = 1 };
	hmrf_account_t acct[2];
	hmrf_job_t jobs[1024];
	size_t order[1024], n = 0;
	tres_vec_t used, share, demand, ns;
	double wsum = m->weight[0] + m->weight[1];
	int run[2] = { 0, 0 };

	p.capacity = _v(100, 100);
	ck_assert_int_eq(ledger_advance(m->usage, t), 0);
	ck_assert_int_eq(ledger_advance(m->nonsharing, t), 0);
	for (int a = 0; a < 2; a++) {
		memset(&acct[a], 0, sizeof(acct[a]));
		acct[a].weight = m->weight[a];
		ledger_usage(m->usage, a, &acct[a].used);
		ledger_usage(m->nonsharing, a, &acct[a].ns);
		for (int k = 0; k < pending[a]; k++) {
			ck_assert_uint_lt(n, 1024);
			jobs[n].account = a;
			jobs[n].tres = m->task[a];
			jobs[n++].duration = 1;
		}
	}
	ck_assert_int_eq(hmrf_rank(&p, acct, 2, jobs, n, order, NULL), 0);
	tres_zero(&used);
	for (size_t k = 0; k < n; k++) {
		tres_vec_t after = used;

		tres_add(&after, &jobs[order[k]].tres);
		if (!tres_fits(&after, &p.capacity))
			continue;
		used = after;
		run[jobs[order[k]].account]++;
	}
	for (int a = 0; a < 2; a++) {
		demand = m->task[a];
		tres_scale(&demand, pending[a]);
		hmrf_fair_share(&p.capacity, m->weight[a], wsum, &share);
		hmrf_nonsharing(&demand, &share, &ns);
		ck_assert_int_eq(ledger_charge(m->nonsharing, a, &ns, t, t + 1),
				 0);
		tres_vec_t rate = m->task[a];
		tres_scale(&rate, run[a]);
		ck_assert_int_eq(ledger_charge(m->usage, a, &rate, t, t + 1), 0);
		pending[a] -= run[a];
		m->ran[a][t] = run[a];
	}
}

static void _run(step_model_t *m)
{
	int pending[2] = { 0, 0 };

	m->usage = ledger_create(&m->window, 0, 2, 0, NULL);
	m->nonsharing = ledger_create(&m->window, 0, 2, 0, NULL);
	ck_assert(m->usage && m->nonsharing);
	ck_assert_int_eq(ledger_grow(m->usage, 2), 0);
	ck_assert_int_eq(ledger_grow(m->nonsharing, 2), 0);
	for (int t = 0; t < m->steps; t++) {
		for (int a = 0; a < 2; a++)
			pending[a] = m->arrivals[a] ? pending[a] +
							      m->arrivals[a][t] :
						      200;
		_step(m, t, pending);
	}
}

static void _done(step_model_t *m)
{
	ledger_destroy(&m->usage);
	ledger_destroy(&m->nonsharing);
}

static const int example3_a[] = { 30, 20, 27, 10 };
static const int example3_b[] = { 4, 24, 8, 30 };

static void _example3(step_model_t *m, hmrf_policy_t policy,
		      window_kind_t kind, double length)
{
	memset(m, 0, sizeof(*m));
	m->policy = policy;
	m->window.kind = kind;
	m->window.length = length;
	m->weight[0] = m->weight[1] = 1;
	m->task[0] = _v(1, 4);
	m->task[1] = _v(4, 1);
	m->steps = 4;
	m->arrivals[0] = example3_a;
	m->arrivals[1] = example3_b;
	_run(m);
}

static void _assert_steps(const step_model_t *m, const int *a, const int *b)
{
	for (int t = 0; t < 4; t++) {
		ck_assert_msg(m->ran[0][t] == a[t] && m->ran[1][t] == b[t],
			      "%s t%d: A %d (want %d), B %d (want %d)",
			      hmrf_policy_name(m->policy), t + 1, m->ran[0][t],
			      a[t], m->ran[1][t], b[t]);
	}
}

START_TEST(test_table1_drf)
{
	static const int a[] = { 24, 20, 22, 20 }, b[] = { 4, 20, 12, 20 };
	step_model_t m;

	_example3(&m, HMRF_POLICY_DRF, WINDOW_NONE, 0);
	_assert_steps(&m, a, b);
	_done(&m);
}
END_TEST

START_TEST(test_table1_hmrf)
{
	static const int a[] = { 24, 4, 23, 8 }, b[] = { 4, 24, 8, 23 };
	step_model_t m;
	tres_vec_t ua, ub;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_NONE, 0);
	_assert_steps(&m, a, b);
	/* Totals 59 and 59: equal aggregate usage, as the paper says. */
	ledger_usage(m.usage, 0, &ua);
	ledger_usage(m.usage, 1, &ub);
	ck_assert_double_eq(ua.v[0] + ua.v[1], 59 * 5);
	ck_assert_double_eq(ub.v[0] + ub.v[1], 59 * 5);
	_done(&m);
}
END_TEST

/* A window no longer than a step forgets everything between steps. */
START_TEST(test_short_window_is_memoryless)
{
	static const int a[] = { 24, 20, 22, 20 }, b[] = { 4, 20, 12, 20 };
	step_model_t m;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_TUMBLING, 1);
	_assert_steps(&m, a, b);
	_done(&m);
	_example3(&m, HMRF_POLICY_HMRF, WINDOW_TUMBLING, 0.25);
	_assert_steps(&m, a, b);
	_done(&m);
}
END_TEST

/* The long-term policies without memory lose the long-term property. */
START_TEST(test_table1_long_windows_remember)
{
	step_model_t m;

	_example3(&m, HMRF_POLICY_HMRF, WINDOW_SLIDING, 10);
	ck_assert_int_eq(m.ran[0][3] + m.ran[0][2] + m.ran[0][1] + m.ran[0][0],
			 59);
	_done(&m);
}
END_TEST

START_TEST(test_weights_2_to_1)
{
	step_model_t m;
	tres_vec_t R = _v(100, 100), ua, ub;
	double ratio;

	memset(&m, 0, sizeof(m));
	m.policy = HMRF_POLICY_HMRF;
	m.window.kind = WINDOW_NONE;
	m.weight[0] = 2;
	m.weight[1] = 1;
	m.task[0] = _v(1, 4);
	m.task[1] = _v(4, 1);
	m.steps = 300;
	_run(&m);
	ledger_usage(m.usage, 0, &ua);
	ledger_usage(m.usage, 1, &ub);
	ratio = hmrf_aggregate(&ua, &R, 1) / hmrf_aggregate(&ub, &R, 1);
	ck_assert_msg(fabs(ratio / 2 - 1) < 0.01,
		      "aggregate ratio %.4f, want 2 within 1%%", ratio);
	_done(&m);
}
END_TEST

/* --- the starvation timeout and the borrow limit ------------------------- */

START_TEST(test_timeout_guard)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_LT_AF, .now = 10000,
			    .horizon = 100, .timeout = 600 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t jobs[4];
	size_t order[4];

	p.capacity = _v(10, 10);
	a[0].used = _v(1e6, 1e6); /* A used far more: normally last */
	for (int i = 0; i < 4; i++) {
		jobs[i].account = i < 2 ? 0 : 1;
		jobs[i].tres = _v(1, 1);
		jobs[i].duration = 100;
	}
	/* Waiting, but not yet for the timeout: B's jobs first. */
	a[0].waiting_since = p.now - 599;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 2);
	ck_assert_uint_eq(order[1], 3);
	/* Past it, one of A's jobs jumps to the front, then order resumes. */
	a[0].waiting_since = p.now - 600;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 3);
	ck_assert_uint_eq(order[3], 1);
	/* Timeout 0 turns the guard off. */
	p.timeout = 0;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 4, order, NULL), 0);
	ck_assert_uint_eq(order[0], 2);
}
END_TEST

START_TEST(test_borrow_limit)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_DRF, .now = 1000,
			    .horizon = 10, .elapsed = 1000 };
	hmrf_account_t a[2] = { { .weight = 1 }, { .weight = 1 } };
	hmrf_job_t jobs[2] = { { .account = 0, .duration = 10 },
			       { .account = 1, .duration = 10 } };
	size_t order[2];

	p.capacity = _v(10, 10);
	jobs[0].tres = jobs[1].tres = _v(1, 1);
	/* A runs nothing now but used the whole cluster all window long;
	 * B runs something.  Memoryless DRF prefers A. */
	a[0].used = _v(10 * 1000, 10 * 1000);
	a[1].running = _v(2, 2);
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
	/* Fair aggregate is 2 x 1000 / 2 = 1000; A has 2000: 100% above. */
	p.borrow_limit = 0.5;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 1);
	p.borrow_limit = 1.5;
	ck_assert_int_eq(hmrf_rank(&p, a, 2, jobs, 2, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0);
}
END_TEST

/*
 * An account in sharing loss goes first under H-MRF even with the larger
 * aggregate; LT-AF looks only at the aggregate.
 */
START_TEST(test_sharing_loss_first)
{
	hmrf_params_t p = { .horizon = 1 };
	hmrf_account_t a[3] = { { .weight = 1 }, { .weight = 1 },
				{ .weight = 1 } };
	hmrf_job_t jobs[3] = { { .account = 0, .duration = 1 },
			       { .account = 1, .duration = 1 },
			       { .account = 2, .duration = 1 } };
	size_t order[3];

	p.capacity = _v(100, 100);
	for (int i = 0; i < 3; i++)
		jobs[i].tres = _v(1, 1);
	a[0].used = _v(10, 10); /* beta 0.1: loss */
	a[0].ns = _v(100, 100);
	a[1].used = _v(5, 5); /* beta 5: benefit, smallest aggregate */
	a[1].ns = _v(1, 1);
	a[2].used = _v(40, 40); /* beta 0.5: loss, larger aggregate */
	a[2].ns = _v(80, 80);
	p.policy = HMRF_POLICY_HMRF;
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 3, order, NULL), 0);
	ck_assert_uint_eq(order[0], 0); /* lowest beta first */
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 1);
	p.policy = HMRF_POLICY_LT_AF;
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 3, order, NULL), 0);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 0);
	ck_assert_uint_eq(order[2], 2);
}
END_TEST

/* An account's jobs keep their relative order. */
START_TEST(test_order_within_account)
{
	hmrf_params_t p = { .policy = HMRF_POLICY_HMRF, .horizon = 1 };
	hmrf_account_t a[3] = { { .weight = 1 }, { .weight = 1 },
				{ .weight = 1 } };
	hmrf_job_t jobs[9];
	size_t order[9];
	int last[3] = { -1, -1, -1 };

	p.capacity = _v(10, 10);
	for (int i = 0; i < 9; i++) {
		jobs[i].account = (i * 7) % 3;
		jobs[i].tres = _v(1 + i % 2, 1);
		jobs[i].duration = 1;
	}
	ck_assert_int_eq(hmrf_rank(&p, a, 3, jobs, 9, order, NULL), 0);
	for (int k = 0; k < 9; k++) {
		int acc = jobs[order[k]].account;

		ck_assert_int_gt((int)order[k], last[acc]);
		last[acc] = (int)order[k];
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hmrf");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	tcase_add_test(tc, test_policy_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("quantities");
	tcase_add_test(tc, test_shares);
	tcase_add_test(tc, test_beta);
	tcase_add_test(tc, test_aggregate_dominant);
	suite_add_tcase(s, tc);
	tc = tcase_create("example3");
	tcase_add_test(tc, test_table1_drf);
	tcase_add_test(tc, test_table1_hmrf);
	tcase_add_test(tc, test_short_window_is_memoryless);
	tcase_add_test(tc, test_table1_long_windows_remember);
	tcase_add_test(tc, test_weights_2_to_1);
	suite_add_tcase(s, tc);
	tc = tcase_create("guards");
	tcase_add_test(tc, test_sharing_loss_first);
	tcase_add_test(tc, test_timeout_guard);
	tcase_add_test(tc, test_borrow_limit);
	tcase_add_test(tc, test_order_within_account);
	suite_add_tcase(s, tc);

	return check_run(s);
}
