/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger_test.c - Check tests of ledger.c: the errno contract, the three
 * window kinds (tumbling reset at the boundary, sliding clip and its error
 * bound), bounded memory, L -> 0, JSON round trips and the rows' text,
 * and sliding windows against a model of the bucket scheme on generated
 * sequences.
 */
#include <check.h>

#include "check_run.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ledger.h"

static tres_vec_t _vec(double cpu, double mem)
{
	tres_vec_t v;

	tres_zero(&v);
	v.v[0] = cpu;
	v.v[1] = mem;
	return v;
}

static ledger_t *_ledger(window_kind_t kind, double length, double bucket)
{
	window_spec_t w = { kind, length };
	horae_err_t err;
	ledger_t *l = ledger_create(&w, bucket, 2, 0, &err);

	ck_assert_msg(l, "ledger_create: %s", err.text);
	ck_assert_int_eq(ledger_grow(l, 2), 0);
	return l;
}

static double _cpu(const ledger_t *l, int acct)
{
	tres_vec_t u;

	ck_assert_int_eq(ledger_usage(l, acct, &u), 0);
	return u.v[0];
}

START_TEST(test_badargs)
{
	window_spec_t w = { WINDOW_SLIDING, 100 };
	horae_err_t err;
	ledger_t *l;
	tres_vec_t r = _vec(1, 1), u;

	errno = 0;
	ck_assert_ptr_null(ledger_create(NULL, 0, 2, 0, &err));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(ledger_create(&w, 0, 0, 0, &err));
	ck_assert_ptr_null(ledger_create(&w, 0, TRES_MAX + 1, 0, &err));
	ck_assert_ptr_null(ledger_create(&w, -1, 2, 0, &err));
	ck_assert_ptr_null(ledger_create(&w, 200, 2, 0, &err));
	ck_assert(strstr(err.text, "at most the window length"));
	ck_assert_ptr_null(ledger_create(&w, 0.001, 2, 0, &err));
	ck_assert(strstr(err.text, "buckets; at most"));
	ck_assert_ptr_null(ledger_create(&w, 0, 2, NAN, &err));

	l = _ledger(WINDOW_SLIDING, 100, 10);
	ck_assert_int_eq(ledger_grow(l, -1), -EINVAL);
	ck_assert_int_eq(ledger_charge(l, 2, &r, 0, 1), -EINVAL);
	ck_assert_int_eq(ledger_charge(l, -1, &r, 0, 1), -EINVAL);
	ck_assert_int_eq(ledger_charge(l, 0, &r, 5, 4), -EINVAL);
	ck_assert_int_eq(ledger_charge(l, 0, &r, 0, INFINITY), -EINVAL);
	ck_assert_int_eq(ledger_charge(l, 0, NULL, 0, 1), -EINVAL);
	ck_assert_int_eq(ledger_usage(l, 5, &u), -EINVAL);
	ck_assert_int_eq(ledger_advance(l, NAN), -EINVAL);
	/* Failed calls changed nothing. */
	ck_assert_double_eq(ledger_now(l), 0);
	ck_assert_double_eq(_cpu(l, 0), 0);
	ledger_destroy(&l);
	ck_assert_ptr_null(l);
	ledger_destroy(NULL);
}
END_TEST

START_TEST(test_none)
{
	ledger_t *l = _ledger(WINDOW_NONE, 0, 0);
	tres_vec_t r = _vec(4, 1000);

	ck_assert_int_eq(ledger_charge(l, 0, &r, 0, 10), 0);
	ck_assert_int_eq(ledger_charge(l, 0, &r, 1e6, 1e6 + 5), 0);
	ck_assert_double_eq(_cpu(l, 0), 60);
	ck_assert_double_eq(_cpu(l, 1), 0);
	ck_assert_double_eq(ledger_now(l), 1e6 + 5);
	ck_assert(isinf(ledger_window_start(l)));
	ledger_destroy(&l);
}
END_TEST

START_TEST(test_tumbling_reset)
{
	ledger_t *l = _ledger(WINDOW_TUMBLING, 100, 0);
	tres_vec_t r = _vec(1, 0);

	ck_assert_int_eq(ledger_charge(l, 0, &r, 10, 60), 0);
	ck_assert_double_eq(_cpu(l, 0), 50);
	ck_assert_int_eq(ledger_advance(l, 99.9), 0);
	ck_assert_double_eq(_cpu(l, 0), 50);
	/* The boundary forgets everything at once. */
	ck_assert_int_eq(ledger_advance(l, 100), 0);
	ck_assert_double_eq(_cpu(l, 0), 0);
	ck_assert_double_eq(ledger_window_start(l), 100);
	/* A job running across the boundary counts only inside the window. */
	ck_assert_int_eq(ledger_charge(l, 1, &r, 80, 130), 0);
	ck_assert_double_eq(_cpu(l, 1), 30);
	/* The clock never goes back. */
	ck_assert_int_eq(ledger_advance(l, 50), 0);
	ck_assert_double_eq(ledger_now(l), 130);
	ledger_destroy(&l);
	/* A boundary before any account (no memory yet: the sanitizers'
	 * null pointer to memset). */
	l = ledger_create(&(window_spec_t){ WINDOW_TUMBLING, 100 }, 0, 2, 0,
			  NULL);
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ledger_advance(l, 250), 0);
	ck_assert_double_eq(ledger_window_start(l), 200);
	ledger_destroy(&l);
}
END_TEST

START_TEST(test_sliding_clip)
{
	ledger_t *l = _ledger(WINDOW_SLIDING, 100, 10);
	tres_vec_t r = _vec(2, 0);

	/* 2 CPUs over [0, 50]: 100 CPU-seconds. */
	ck_assert_int_eq(ledger_charge(l, 0, &r, 0, 50), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 100, 1e-9);
	/* At 120 the window is [20, 120]: 30 s of it remain. */
	ck_assert_int_eq(ledger_advance(l, 120), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 60, 1e-9);
	/* Forgetting is gradual: at 140, 10 s remain; at 150, none. */
	ck_assert_int_eq(ledger_advance(l, 140), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 20, 1e-9);
	ck_assert_int_eq(ledger_advance(l, 150), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 0, 1e-9);
	/* Charging an interval that began before the window clips it. */
	ck_assert_int_eq(ledger_charge(l, 1, &r, 0, 150), 0);
	ck_assert_double_eq_tol(_cpu(l, 1), 200, 1e-9);
	ledger_destroy(&l);
}
END_TEST

/*
 * Random intervals against an exact computation: the sliding error never
 * exceeds one bucket of the largest rate (the bound ledger.h documents).
 */
START_TEST(test_sliding_error_bound)
{
	enum { N = 200 };
	const double L = 1000, G = 37;
	double t0[N], t1[N], rate[N], now = 0;
	ledger_t *l = _ledger(WINDOW_SLIDING, L, G);
	unsigned seed = 12345;

	for (int i = 0; i < N; i++) {
		t0[i] = now + rand_r(&seed) % 50;
		t1[i] = t0[i] + 1 + rand_r(&seed) % 200;
		rate[i] = 1 + rand_r(&seed) % 4;
		now = t0[i];
		tres_vec_t r = _vec(rate[i], 0);
		ck_assert_int_eq(ledger_charge(l, 0, &r, t0[i], t1[i]), 0);
		double clock = ledger_now(l), exact = 0;

		for (int j = 0; j <= i; j++) {
			double a = fmax(t0[j], clock - L), b = fmin(t1[j], clock);
			if (b > a)
				exact += rate[j] * (b - a);
		}
		ck_assert_msg(fabs(_cpu(l, 0) - exact) <= 4 * G * 5 + 1e-6,
			      "at %g: ledger %g, exact %g", clock, _cpu(l, 0),
			      exact);
	}
	ledger_destroy(&l);
}
END_TEST

START_TEST(test_sliding_memory_bounded)
{
	window_spec_t w = { WINDOW_SLIDING, 7 * 86400 };
	ledger_t *l = ledger_create(&w, 0, 4, 0, NULL);
	json_object *obj, *accts;

	ck_assert_ptr_nonnull(l);
	ck_assert_double_eq(ledger_bucket(l), 7 * 86400 / 64.0);
	ck_assert_int_eq(ledger_grow(l, 3), 0);
	/* However long it runs, an account holds 65 buckets of 4 TRES. */
	for (int day = 0; day < 60; day++) {
		tres_vec_t r = _vec(1, 1);
		ck_assert_int_eq(ledger_charge(l, day % 3, &r, day * 86400.0,
					       day * 86400.0 + 3600), 0);
	}
	obj = ledger_to_json(l);
	ck_assert(json_object_object_get_ex(obj, "accounts", &accts));
	/* An account's row names only its non-zero slots, at most 65 x 4. */
	const char *row = json_object_get_string(
		json_object_array_get_idx(accts, 0));
	int entries = row[0] ? 1 : 0;
	for (const char *c = row; *c; c++)
		entries += *c == ',';
	ck_assert_int_le(entries, 65 * 4);
	ck_assert_int_gt(entries, 0);
	json_object_put(obj);
	ledger_destroy(&l);
}
END_TEST

/*
 * A constant rate makes the pro-rata count of the straddling bucket exact:
 * the window start falls inside a bucket here.
 */
START_TEST(test_sliding_partial_bucket)
{
	ledger_t *l = _ledger(WINDOW_SLIDING, 100, 10);
	tres_vec_t r = _vec(1, 0);

	ck_assert_int_eq(ledger_charge(l, 0, &r, 0, 333), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 100, 1e-9);
	ck_assert_int_eq(ledger_advance(l, 377), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 333 - 277, 1e-9);
	ledger_destroy(&l);
}
END_TEST

/* L -> 0: what is left is L times the rate held just before now. */
START_TEST(test_sliding_short_window)
{
	ledger_t *l = _ledger(WINDOW_SLIDING, 0.001, 0);
	tres_vec_t r1 = _vec(10, 0), r2 = _vec(3, 0);

	ck_assert_int_eq(ledger_charge(l, 0, &r1, 0, 100), 0);
	ck_assert_int_eq(ledger_charge(l, 0, &r2, 100, 200), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 0.003, 1e-9);
	ck_assert_int_eq(ledger_advance(l, 201), 0);
	ck_assert_double_eq_tol(_cpu(l, 0), 0, 1e-12);
	ledger_destroy(&l);
}
END_TEST

START_TEST(test_json_roundtrip)
{
	const window_kind_t kinds[] = { WINDOW_NONE, WINDOW_TUMBLING,
					WINDOW_SLIDING };

	for (int k = 0; k < 3; k++) {
		ledger_t *l = _ledger(kinds[k], 1000, 100), *m;
		tres_vec_t r = _vec(3, 7);
		horae_err_t err;
		json_object *obj;
		tres_vec_t a, b;

		ledger_charge(l, 0, &r, 100, 950);
		ledger_charge(l, 1, &r, 900, 1250);
		obj = ledger_to_json(l);
		m = ledger_from_json(obj, &err);
		ck_assert_msg(m, "from_json: %s", err.text);
		ck_assert_double_eq(ledger_now(m), ledger_now(l));
		for (int acct = 0; acct < 2; acct++) {
			ledger_usage(l, acct, &a);
			ledger_usage(m, acct, &b);
			ck_assert_mem_eq(&a, &b, sizeof(a));
		}
		/* And they go on forgetting alike. */
		ledger_advance(l, 1700);
		ledger_advance(m, 1700);
		ledger_usage(l, 1, &a);
		ledger_usage(m, 1, &b);
		ck_assert_mem_eq(&a, &b, sizeof(a));
		json_object_put(obj);
		ledger_destroy(&l);
		ledger_destroy(&m);
	}
}
END_TEST

/*
 * Rows hold hexadecimal floats: every value comes back bit for bit,
 * including those no short decimal writes (a third, a tenth, values
 * a few ulps apart); and rows in decimals, as files written before were,
 * still load.
 */
START_TEST(test_json_row_values)
{
	const char *old = "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,"
			  "\"now\":0,\"accounts\":[\"0:0.1,1:2.5e6\"]}";
	json_object *obj = json_tokener_parse(old);
	horae_err_t err = { "" };
	unsigned seed = 7;
	double prev = 0;
	ledger_t *l, *m;
	tres_vec_t a, b;

	ck_assert_ptr_nonnull(obj);
	m = ledger_from_json(obj, &err);
	ck_assert_msg(m, "decimal rows: %s", err.text);
	ledger_usage(m, 0, &a);
	ck_assert_double_eq(a.v[0], 0.1);
	ck_assert_double_eq(a.v[1], 2.5e6);
	json_object_put(obj);
	ledger_destroy(&m);

	for (int round = 0; round < 200; round++) {
		l = _ledger(WINDOW_NONE, 0, 0);
		ck_assert_int_eq(ledger_grow(l, 4), 0);
		for (int acct = 0; acct < 4; acct++) {
			tres_vec_t r = _vec(rand_r(&seed) / 3.0,
					    (double)rand_r(&seed) / 7e9);

			if (acct == 3) /* two ulps above what acct 2 has */
				r.v[0] = nextafter(nextafter(prev, 1e300),
						   1e300);
			prev = r.v[0];
			ck_assert_int_eq(ledger_charge(l, acct, &r, 0, 1), 0);
		}
		obj = ledger_to_json(l);
		m = ledger_from_json(obj, &err);
		ck_assert_msg(m, "from_json: %s", err.text);
		for (int acct = 0; acct < 4; acct++) {
			ledger_usage(l, acct, &a);
			ledger_usage(m, acct, &b);
			ck_assert_mem_eq(&a, &b, sizeof(a));
		}
		json_object_put(obj);
		ledger_destroy(&l);
		ledger_destroy(&m);
	}
}
END_TEST

/*
 * The text of a saved ledger: each row is "slot:value" for the slots not
 * 0, joined by commas, the value as C's %a (rebuilt here with snprintf
 * from the values the row holds), and the document as json-c writes it
 * with the rows as its own strings (the rows' printer skips json-c's
 * escaping).  Generated sliding ledgers, many slots, charges of every
 * magnitude.
 */
START_TEST(test_json_row_text)
{
	unsigned seed = 13 + _i;
	ledger_t *l = _ledger(WINDOW_SLIDING, 86400, 900);
	json_object *obj, *accts, *plain, *paccts;
	char want[8192], *end;
	const char *row, *p;
	size_t len;

	ck_assert_int_eq(ledger_grow(l, 6), 0);
	for (int k = 0; k < 300; k++) {
		double t = 86400.0 * 2 * k / 300, d = rand_r(&seed) % 5000;
		tres_vec_t r =
			_vec(ldexp(rand_r(&seed), rand_r(&seed) % 40 - 20),
			     rand_r(&seed) / 3.0);

		ck_assert_int_eq(
			ledger_charge(l, rand_r(&seed) % 6, &r, t, t + d), 0);
	}
	obj = ledger_to_json(l);
	ck_assert_ptr_nonnull(obj);
	ck_assert(json_object_object_get_ex(obj, "accounts", &accts));
	plain = json_tokener_parse(
		json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN));
	ck_assert(json_object_object_get_ex(plain, "accounts", &paccts));
	for (size_t a = 0; a < json_object_array_length(accts); a++) {
		row = json_object_get_string(json_object_array_get_idx(accts, a));
		len = 0;
		want[0] = '\0';
		for (p = row; *p; p = *end ? end + 1 : end) {
			unsigned long slot = strtoul(p, &end, 10);
			double v;

			ck_assert_int_eq(*end, ':');
			v = strtod(end + 1, &end);
			ck_assert(v != 0);
			len += snprintf(want + len, sizeof(want) - len,
					"%s%lu:%a", len ? "," : "", slot, v);
			ck_assert_uint_lt(len, sizeof(want));
		}
		ck_assert_str_eq(row, want);
		/* what was read back is what the row holds */
		ck_assert_str_eq(json_object_get_string(
					 json_object_array_get_idx(paccts, a)),
				 row);
		/* json-c's own printer writes the same */
		json_object_array_put_idx(paccts, a, json_object_new_string(row));
	}
	ck_assert_str_eq(json_object_to_json_string_ext(plain,
							JSON_C_TO_STRING_PLAIN),
			 json_object_to_json_string_ext(obj,
							JSON_C_TO_STRING_PLAIN));
	json_object_put(plain);
	json_object_put(obj);
	ledger_destroy(&l);
}
END_TEST

static const struct {
	const char *json;
	const char *msg;
} bad_json[] = {
	{ "[]", "not a JSON object" },
	{ "{}", "'window' is missing" },
	{ "{\"window\":\"weekly\"}", "'window': window 'weekly'" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2}",
	  "'now' is missing" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":\"2\",\"now\":0,\"accounts\":[]}",
	  "'ntres' is missing or not a finite number" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2.5,\"now\":0,\"accounts\":[]}",
	  "'ntres' must be a whole number" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0}",
	  "'accounts' is missing" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0,\"accounts\":[[1]]}",
	  "'accounts[0]' is not a string" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0,\"accounts\":[\"0:1,2:5\"]}",
	  "'accounts[0]': bad slot at '2:5' (slots 0..1)" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0,\"accounts\":[\"0:x\"]}",
	  "'accounts[0]': value at 'x' is negative" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0,\"accounts\":[\"1:-2\"]}",
	  "'accounts[0]': value at '-2' is negative" },
	{ "{\"window\":\"none\",\"bucket\":0,\"ntres\":2,\"now\":0,\"accounts\":[\"1:2;0:1\"]}",
	  "'accounts[0]': value at '2;0:1' is negative" },
	{ "{\"window\":\"sliding:100\",\"bucket\":1000,\"ntres\":2,\"now\":0,\"accounts\":[]}",
	  "at most the window length" },
};

START_TEST(test_json_bad)
{
	json_object *obj = json_tokener_parse(bad_json[_i].json);
	horae_err_t err = { "" };
	ledger_t *l;

	ck_assert_ptr_nonnull(obj);
	l = ledger_from_json(obj, &err);
	ck_assert_msg(!l, "accepted %s", bad_json[_i].json);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(strstr(err.text, bad_json[_i].msg), "'%s' lacks '%s'",
		      err.text, bad_json[_i].msg);
	json_object_put(obj);
}
END_TEST

/*
 * A model of the bucket scheme ledger.h documents, written apart from
 * ledger.c: every bucket kG..(k+1)G an account was ever charged in, kept
 * for ever; the window sum reads the live ones (the last ceil(L/G)+1 up
 * to the clock's), the one straddling now - L in proportion.
 */
enum { MODEL_ACCTS = 4, MODEL_BUCKETS = 4096 };

struct model {
	double len, g, now;
	double amt[MODEL_ACCTS][MODEL_BUCKETS][2];
};

static void _model_charge(struct model *m, int a, const double *rate, double t0,
			  double t1)
{
	for (int k = (int)floor(t0 / m->g); k < MODEL_BUCKETS; k++) {
		double lo = fmax(t0, k * m->g), hi = fmin(t1, (k + 1) * m->g);

		if (lo >= t1)
			break;
		for (int i = 0; i < 2 && hi > lo; i++)
			m->amt[a][k][i] += rate[i] * (hi - lo);
	}
	m->now = fmax(m->now, t1);
}

static double _model_usage(const struct model *m, int a, int i)
{
	int head = (int)floor(m->now / m->g);
	int live = (int)ceil(m->len / m->g) + 1;
	double ws = m->now - m->len, sum = 0;

	for (int k = head - live + 1; k <= head; k++) {
		double w = ((k + 1) * m->g - ws) / m->g;

		if (k >= 0)
			sum += m->amt[a][k][i] * (w < 0 ? 0 : w > 1 ? 1 : w);
	}
	return sum;
}

static void _assert_model(const ledger_t *l, const struct model *m, int n,
			  const char *what, int step)
{
	for (int a = 0; a < n; a++) {
		tres_vec_t u;

		ck_assert_int_eq(ledger_usage(l, a, &u), 0);
		for (int i = 0; i < 2; i++) {
			double want = _model_usage(m, a, i);

			ck_assert_msg(
				fabs(u.v[i] - want) <=
					1e-9 * fmax(1, fabs(want)),
				"%s, step %d, account %d, TRES %d: ledger %.17g, model %.17g",
				what, step, a, i, u.v[i], want);
		}
	}
}

/* Two ledgers holding the same buckets give the same sums, to the bit. */
static void _assert_same(const ledger_t *l, const ledger_t *c, int n,
			 const char *what, int step)
{
	for (int a = 0; a < n; a++) {
		tres_vec_t u, v;

		ck_assert_int_eq(ledger_usage(l, a, &u), 0);
		ck_assert_int_eq(ledger_usage(c, a, &v), 0);
		for (int i = 0; i < 2; i++)
			ck_assert_msg(
				u.v[i] == v.v[i],
				"%s, step %d, account %d: %.17g against %.17g",
				what, step, a, u.v[i], v.v[i]);
	}
}

/*
 * Generated sequences of charges (some reaching back over many buckets,
 * some starting before the window), clock moves (within a bucket, across
 * a few, past the whole window), accounts added on the way, and copies
 * (dup, select, remap, JSON) taken at random points: every window sum
 * against the model, every copy against the original.  The sums a ledger
 * keeps between calls must never go stale.
 */
START_TEST(test_sliding_model)
{
	static const double shapes[][2] = {
		{ 640, 10 }, { 1000, 37 },    { 100, 100 },
		{ 90, 7.5 }, { 3600, 56.25 }, { 50, 0.75 },
	};
	unsigned seed = 4242 + _i;
	double len = shapes[_i % 6][0], g = shapes[_i % 6][1];
	window_spec_t w = { WINDOW_SLIDING, len };
	struct model *m = calloc(1, sizeof(*m));
	ledger_t *l = ledger_create(&w, g, 2, 0, NULL);
	int n = 2, steps = 600;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ledger_grow(l, n), 0);
	m->len = len;
	m->g = g;
	for (int step = 0; step < steps; step++) {
		int op = rand_r(&seed) % 16, a = rand_r(&seed) % n;
		double rate[2] = { 1 + rand_r(&seed) % 8,
				   (rand_r(&seed) % 1000) / 7.0 };
		double now = ledger_now(l), t0, t1, horizon;

		/* Stay inside the model's buckets. */
		horizon = (MODEL_BUCKETS - 2) * g;
		if (now + 3 * len > horizon)
			break;
		if (op < 8) { /* a charge ending at or after the clock */
			t1 = now + (rand_r(&seed) % 100) * g / 37.0;
			t0 = t1 - (rand_r(&seed) % 4 ?
					   rand_r(&seed) % 5 * g / 3 :
					   (rand_r(&seed) % 200) * len / 50);
			t0 = fmax(t0, 0);
			tres_vec_t r = _vec(rate[0], rate[1]);
			ck_assert_int_eq(ledger_charge(l, a, &r, t0, t1), 0);
			_model_charge(m, a, rate, t0, t1);
		} else if (op < 12) { /* the clock moves */
			t1 = now + (op == 11 ?
					    len * (1 + rand_r(&seed) % 3) :
					    (rand_r(&seed) % 300) * g / 100.0);
			ck_assert_int_eq(ledger_advance(l, t1), 0);
			m->now = fmax(m->now, t1);
		} else if (op == 12 && n < MODEL_ACCTS) {
			ck_assert_int_eq(ledger_grow(l, ++n), 0);
		} else if (op == 13) {
			ledger_t *c = ledger_dup(l);

			ck_assert_ptr_nonnull(c);
			_assert_same(l, c, n, "dup", step);
			ledger_destroy(&c);
		} else if (op == 14) {
			int idx[MODEL_ACCTS], from[2] = { 0, 1 };
			ledger_t *c, *r;

			for (int k = 0; k < n; k++)
				idx[k] = k;
			c = ledger_select(l, idx, n);
			r = ledger_remap(l, from, 2);
			ck_assert_ptr_nonnull(c);
			ck_assert_ptr_nonnull(r);
			_assert_same(l, c, n, "select", step);
			_assert_same(l, r, n, "remap", step);
			ledger_destroy(&c);
			ledger_destroy(&r);
		} else {
			json_object *obj = ledger_to_json(l);
			horae_err_t err;
			ledger_t *c = ledger_from_json(obj, &err);

			ck_assert_msg(c, "ledger_from_json: %s", err.text);
			_assert_same(l, c, n, "JSON", step);
			ledger_destroy(&c);
			json_object_put(obj);
		}
		_assert_model(l, m, n, "original", step);
	}
	ledger_destroy(&l);
	free(m);
}
END_TEST

/* Remapping slots: kept, moved, new and dropped; the errno contract. */
START_TEST(test_remap)
{
	window_spec_t w = { WINDOW_TUMBLING, 100 };
	ledger_t *l = ledger_create(&w, 0, 3, 0, NULL), *m;
	tres_vec_t r, u;
	int from[3] = { 2, -1, 0 }, bad[1] = { 3 };

	ck_assert_int_eq(ledger_grow(l, 2), 0);
	tres_zero(&r);
	r.v[0] = 1;
	r.v[1] = 2;
	r.v[2] = 3;
	ck_assert_int_eq(ledger_charge(l, 1, &r, 0, 10), 0);
	m = ledger_remap(l, from, 3);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(ledger_usage(m, 1, &u), 0);
	ck_assert_double_eq(u.v[0], 30);
	ck_assert_double_eq(u.v[1], 0);
	ck_assert_double_eq(u.v[2], 10);
	ck_assert_int_eq(ledger_usage(m, 0, &u), 0);
	ck_assert(tres_is_zero(&u));
	ck_assert_ptr_null(ledger_remap(l, bad, 1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(ledger_remap(l, from, 0));
	ck_assert_ptr_null(ledger_remap(l, NULL, 1));
	ledger_destroy(&m);
	ledger_destroy(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ledger");
	TCase *tc = tcase_create("badargs");

	tcase_add_test(tc, test_badargs);
	suite_add_tcase(s, tc);
	tc = tcase_create("windows");
	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_tumbling_reset);
	tcase_add_test(tc, test_sliding_clip);
	tcase_add_test(tc, test_sliding_error_bound);
	tcase_add_test(tc, test_sliding_partial_bucket);
	tcase_add_test(tc, test_sliding_memory_bounded);
	tcase_add_test(tc, test_sliding_short_window);
	tcase_add_loop_test(tc, test_sliding_model, 0, 24);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, test_json_roundtrip);
	tcase_add_test(tc, test_json_row_values);
	tcase_add_loop_test(tc, test_json_row_text, 0, 20);
	tcase_add_test(tc, test_remap);
	tcase_add_loop_test(tc, test_json_bad, 0,
			    sizeof(bad_json) / sizeof(bad_json[0]));
	suite_add_tcase(s, tc);

	return check_run(s);
}
