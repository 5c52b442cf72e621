/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ledger.c - windowed per-account usage accumulators.  See ledger.h for
 * the window kinds, the bucket scheme and its error bound.
 *
 * Storage is one array of count x nslots x ntres doubles.  For a sliding
 * window, slot (k mod nslots) holds bucket k = [kG, (k+1)G); the buckets
 * head-nslots+1 .. head are live, head being the clock's bucket.
 *
 * A window sum is the oldest bucket inside it (kmin, which straddles now -
 * L) in proportion, the buckets between kmin and head whole, and head
 * whole.  The whole buckets strictly between kmin and head change only
 * when the clock crosses a bucket boundary or a charge reaches back past
 * head's start, so their sum is kept per account (mid) and worked out
 * afresh, always in the same order, whenever either happens: a window sum
 * then reads three vectors instead of nslots, and depends only on the
 * buckets, never on the order of the charges that filled them.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/printbuf.h>

#include "hexfloat.h"
#include "json_field.h"
#include "ledger.h"

struct ledger {
	window_spec_t w;
	double bucket;	/* G, sliding only */
	int nslots;	/* buckets per account: 1 unless sliding */
	int ntres;
	int count;	/* accounts */
	double now;	/* the clock */
	int64_t head;	/* bucket of the clock, sliding only */
	int64_t kmin;	/* oldest bucket inside the window, sliding only */
	double *data;
	double *mid;	/* count x ntres: sum of buckets kmin+1 .. head-1 */
};

/* Largest |t / G| whose floor still fits an int64 exactly enough. */
#define BUCKET_INDEX_MAX 4.0e15

static double *_slot(const ledger_t *l, int acct, int64_t k)
{
	int64_t s = k % l->nslots;

	if (s < 0)
		s += l->nslots;
	return l->data + ((size_t)acct * l->nslots + s) * l->ntres;
}

static bool _time_ok(const ledger_t *l, double t)
{
	if (!isfinite(t))
		return false;
	return l->w.kind != WINDOW_SLIDING ||
	       fabs(t / l->bucket) < BUCKET_INDEX_MAX;
}

static int64_t _bucket_of(const ledger_t *l, double t)
{
	return (int64_t)floor(t / l->bucket);
}

/* The oldest live bucket inside the window ending at the clock. */
static int64_t _kmin_of(const ledger_t *l)
{
	int64_t k = _bucket_of(l, l->now - l->w.length);

	return k < l->head - l->nslots + 1 ? l->head - l->nslots + 1 : k;
}

/* Work out account acct's sum of the buckets strictly between kmin and
 * head afresh, in increasing bucket order. */
static void _mid_refresh(ledger_t *l, int acct)
{
	double *m = l->mid + (size_t)acct * l->ntres;

	memset(m, 0, l->ntres * sizeof(double));
	for (int64_t k = l->kmin + 1; k < l->head; k++) {
		const double *s = _slot(l, acct, k);

		for (int i = 0; i < l->ntres; i++)
			m[i] += s[i];
	}
}

static void _mid_refresh_all(ledger_t *l)
{
	if (l->w.kind != WINDOW_SLIDING)
		return;
	for (int a = 0; a < l->count; a++)
		_mid_refresh(l, a);
}

ledger_t *ledger_create(const window_spec_t *w, double bucket, int ntres,
			double now, horae_err_t *err)
{
	ledger_t *l;
	double nb = 1;

	if (!w || ntres < 1 || ntres > TRES_MAX || !isfinite(now)) {
		err_set(err, -EINVAL, "ledger: bad window, TRES count or time");
		goto einval;
	}
	if (w->kind == WINDOW_SLIDING) {
		if (bucket == 0)
			bucket = w->length / 64;
		if (!(bucket > 0) || bucket > w->length) {
			err_set(err, -EINVAL,
				"ledger: bucket of %gs must be > 0 and at most the window length %gs",
				bucket, w->length);
			goto einval;
		}
		nb = ceil(w->length / bucket) + 1;
		if (nb > LEDGER_MAX_BUCKETS) {
			err_set(err, -EINVAL,
				"ledger: a %gs window in %gs buckets needs %.0f buckets; at most %d",
				w->length, bucket, nb, LEDGER_MAX_BUCKETS);
			goto einval;
		}
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	l->w = *w;
	l->bucket = w->kind == WINDOW_SLIDING ? bucket : 0;
	l->nslots = (int)nb;
	l->ntres = ntres;
	l->now = now;
	if (w->kind == WINDOW_SLIDING) {
		if (!_time_ok(l, now)) {
			free(l);
			err_set(err, -EINVAL,
				"ledger: time %g is too far from 0 for %gs buckets",
				now, bucket);
			goto einval;
		}
		l->head = _bucket_of(l, now);
		l->kmin = _kmin_of(l);
	}
	return l;
einval:
	errno = EINVAL;
	return NULL;
}

void ledger_destroy(ledger_t **l)
{
	if (!l || !*l)
		return;
	free((*l)->data);
	free((*l)->mid);
	free(*l);
	*l = NULL;
}

int ledger_grow(ledger_t *l, int n)
{
	size_t per, size;
	double *data, *mid;

	if (!l || n < 0)
		return -EINVAL;
	if (n <= l->count)
		return 0;
	per = (size_t)l->nslots * l->ntres;
	size = (size_t)n * per * sizeof(double);
	/* Both arrays are grown before either is used at the new size: if
	 * the second fails, the first only has spare room. */
	data = realloc(l->data, size);
	if (!data)
		return -ENOMEM;
	l->data = data;
	mid = realloc(l->mid, (size_t)n * l->ntres * sizeof(double));
	if (!mid)
		return -ENOMEM;
	l->mid = mid;
	memset(data + (size_t)l->count * per, 0,
	       (size_t)(n - l->count) * per * sizeof(double));
	memset(mid + (size_t)l->count * l->ntres, 0,
	       (size_t)(n - l->count) * l->ntres * sizeof(double));
	l->count = n;
	return 0;
}

int ledger_count(const ledger_t *l)
{
	return l ? l->count : 0;
}

static void _zero_all(ledger_t *l)
{
	if (!l->count) /* no arrays before the first account */
		return;
	memset(l->data, 0,
	       (size_t)l->count * l->nslots * l->ntres * sizeof(double));
	memset(l->mid, 0, (size_t)l->count * l->ntres * sizeof(double));
}

int ledger_advance(ledger_t *l, double now)
{
	int64_t h, k, kmin;
	bool moved;

	if (!l || !_time_ok(l, now))
		return -EINVAL;
	if (now <= l->now)
		return 0;
	switch (l->w.kind) {
	case WINDOW_TUMBLING:
		if (window_start(&l->w, now) != window_start(&l->w, l->now))
			_zero_all(l);
		break;
	case WINDOW_SLIDING:
		h = _bucket_of(l, now);
		if (h - l->head >= l->nslots) {
			_zero_all(l);
		} else {
			for (k = l->head + 1; k <= h; k++)
				for (int a = 0; a < l->count; a++)
					memset(_slot(l, a, k), 0,
					       l->ntres * sizeof(double));
		}
		moved = h != l->head;
		l->head = h;
		l->now = now;
		kmin = _kmin_of(l);
		if (moved || kmin != l->kmin) {
			l->kmin = kmin;
			_mid_refresh_all(l);
		}
		return 0;
	default:
		break;
	}
	l->now = now;
	return 0;
}

static void _add(double *slot, const tres_vec_t *rate, int ntres, double dt)
{
	for (int i = 0; i < ntres; i++)
		slot[i] += rate->v[i] * dt;
}

static void _charge_sliding(ledger_t *l, int acct, const tres_vec_t *rate,
			    double t0, double t1)
{
	int64_t oldest = l->head - l->nslots + 1, k, last, first;
	double lo = fmax(t0, (double)oldest * l->bucket), a, b;

	if (t1 <= lo)
		return;
	last = _bucket_of(l, t1);
	first = _bucket_of(l, lo);
	for (k = first; k <= last && k <= l->head; k++) {
		a = fmax(lo, (double)k * l->bucket);
		b = fmin(t1, (double)(k + 1) * l->bucket);
		if (b > a)
			_add(_slot(l, acct, k), rate, l->ntres, b - a);
	}
	/* Reaching back past head's start changes the middle buckets. */
	if (first < l->head && last > l->kmin)
		_mid_refresh(l, acct);
}

int ledger_charge(ledger_t *l, int acct, const tres_vec_t *rate, double t0,
		  double t1)
{
	double lo;
	int rc;

	if (!l || !rate || acct < 0 || acct >= l->count || !_time_ok(l, t0) ||
	    !_time_ok(l, t1) || t1 < t0)
		return -EINVAL;
	rc = ledger_advance(l, t1);
	if (rc)
		return rc;
	switch (l->w.kind) {
	case WINDOW_NONE:
		_add(_slot(l, acct, 0), rate, l->ntres, t1 - t0);
		break;
	case WINDOW_TUMBLING:
		lo = fmax(t0, window_start(&l->w, l->now));
		if (t1 > lo)
			_add(_slot(l, acct, 0), rate, l->ntres, t1 - lo);
		break;
	case WINDOW_SLIDING:
		_charge_sliding(l, acct, rate, t0, t1);
		break;
	}
	return 0;
}

int ledger_usage(const ledger_t *l, int acct, tres_vec_t *out)
{
	tres_vec_t sum;
	double weight;
	const double *old, *mid, *head;

	if (!l || !out || acct < 0 || acct >= l->count)
		return -EINVAL;
	tres_zero(&sum);
	if (l->w.kind != WINDOW_SLIDING) {
		old = _slot(l, acct, 0);
		for (int i = 0; i < l->ntres; i++)
			sum.v[i] = old[i];
		*out = sum;
		return 0;
	}
	/* The bucket straddling now - L counts for its inside part, the
	 * others whole; clipped to [0, 1] inline (fmin and fmax are calls
	 * into libm; weight is never NaN: the bucket is > 0 and the times
	 * finite). */
	weight = ((double)(l->kmin + 1) * l->bucket - (l->now - l->w.length)) /
		 l->bucket;
	weight = weight < 0 ? 0 : weight > 1 ? 1 : weight;
	old = _slot(l, acct, l->kmin);
	if (l->kmin == l->head) {
		for (int i = 0; i < l->ntres; i++)
			sum.v[i] = old[i] * weight;
		*out = sum;
		return 0;
	}
	mid = l->mid + (size_t)acct * l->ntres;
	head = _slot(l, acct, l->head);
	for (int i = 0; i < l->ntres; i++)
		sum.v[i] = old[i] * weight + mid[i] + head[i];
	*out = sum;
	return 0;
}

double ledger_now(const ledger_t *l)
{
	return l->now;
}

double ledger_window_start(const ledger_t *l)
{
	return window_start(&l->w, l->now);
}

const window_spec_t *ledger_window(const ledger_t *l)
{
	return &l->w;
}

double ledger_bucket(const ledger_t *l)
{
	return l->bucket;
}

/* The most a row's entry takes: its index, ':', the number, ','. */
#define ROW_ENTRY_MAX (20 + 1 + HEXFLOAT_MAX + 1)

/*
 * A row's text needs no escaping (digits, hex digits, "x.p+-:,"): it is
 * written between quotes as it is, which is what json-c would write after
 * looking at every character.
 */
static int _print_row(json_object *jso, struct printbuf *pb, int level,
		      int flags)
{
	(void)level;
	(void)flags;
	if (printbuf_memappend(pb, "\"", 1) < 0 ||
	    printbuf_memappend(pb, json_object_get_string(jso),
			       json_object_get_string_len(jso)) < 0 ||
	    printbuf_memappend(pb, "\"", 1) < 0)
		return -1;
	return 0;
}

/*
 * An account's slots (d, per doubles) as one string of its non-zero
 * entries, "slot:value,slot:value", formatted in buf (per x
 * ROW_ENTRY_MAX bytes); far smaller and faster than a JSON number per
 * bucket.  The values are C99 hexadecimal floats (%a, which strtod reads
 * back, as it reads the decimals of files written before): exact, and
 * written by hexfloat_format, without printf, since a week's buckets of
 * a thousand accounts are most of a save.
 */
static json_object *_row_to_json(const double *d, size_t per, char *buf)
{
	char digits[24], *p = buf;
	json_object *str;

	for (size_t i = 0; i < per; i++) {
		size_t u = i;
		int k = 0;

		if (d[i] == 0)
			continue;
		if (p != buf)
			*p++ = ',';
		do {
			digits[k++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		while (k)
			*p++ = digits[--k];
		*p++ = ':';
		p += hexfloat_format(d[i], p);
	}
	str = json_object_new_string_len(buf, (int)(p - buf));
	if (str)
		json_object_set_serializer(str, _print_row, NULL, NULL);
	return str;
}

json_object *ledger_to_json(const ledger_t *l)
{
	json_object *obj, *accts, *row;
	size_t per = (size_t)l->nslots * l->ntres;
	char win[64], *buf = NULL;

	obj = json_object_new_object();
	accts = json_object_new_array_ext(l->count);
	if (!obj || !accts || window_format(&l->w, win, sizeof(win)))
		goto nomem;
	json_object_object_add(obj, "window", json_object_new_string(win));
	json_object_object_add(obj, "bucket", json_object_new_double(l->bucket));
	json_object_object_add(obj, "ntres", json_object_new_int(l->ntres));
	json_object_object_add(obj, "now", json_object_new_double(l->now));
	json_object_object_add(obj, "accounts", accts);
	buf = malloc(per * ROW_ENTRY_MAX + 1);
	if (!buf)
		goto nomem_obj;
	for (int a = 0; a < l->count; a++) {
		row = _row_to_json(l->data + (size_t)a * per, per, buf);
		if (!row)
			goto nomem_obj;
		json_object_array_add(accts, row);
	}
	free(buf);
	return obj;
nomem:
	json_object_put(accts);
nomem_obj:
	free(buf);
	json_object_put(obj);
	errno = ENOMEM;
	return NULL;
}

ledger_t *ledger_dup(const ledger_t *l)
{
	ledger_t *c = malloc(sizeof(*c));
	size_t size = (size_t)l->count * l->nslots * l->ntres * sizeof(double);
	size_t msize = (size_t)l->count * l->ntres * sizeof(double);

	if (!c)
		goto nomem;
	*c = *l;
	c->data = NULL;
	c->mid = NULL;
	if (size && (!(c->data = malloc(size)) || !(c->mid = malloc(msize)))) {
		free(c->data);
		free(c);
		goto nomem;
	}
	if (size) {
		memcpy(c->data, l->data, size);
		memcpy(c->mid, l->mid, msize);
	}
	return c;
nomem:
	errno = ENOMEM;
	return NULL;
}

ledger_t *ledger_select(const ledger_t *l, const int *idx, int n)
{
	size_t per = (size_t)l->nslots * l->ntres;
	ledger_t *c;

	for (int k = 0; k < n; k++) {
		if (idx[k] < 0 || idx[k] >= l->count) {
			errno = EINVAL;
			return NULL;
		}
	}
	c = malloc(sizeof(*c));
	if (!c)
		goto nomem;
	*c = *l;
	c->count = n;
	c->data = NULL;
	c->mid = NULL;
	if (n && per &&
	    (!(c->data = malloc(n * per * sizeof(double))) ||
	     !(c->mid = malloc(n * l->ntres * sizeof(double))))) {
		free(c->data);
		free(c);
		goto nomem;
	}
	for (int k = 0; k < n && per; k++) {
		memcpy(c->data + k * per, l->data + (size_t)idx[k] * per,
		       per * sizeof(double));
		memcpy(c->mid + k * l->ntres,
		       l->mid + (size_t)idx[k] * l->ntres,
		       l->ntres * sizeof(double));
	}
	return c;
nomem:
	errno = ENOMEM;
	return NULL;
}

ledger_t *ledger_remap(const ledger_t *l, const int *from, int ntres)
{
	size_t cells = (size_t)l->count * l->nslots;
	ledger_t *c;

	if (!from || ntres < 1 || ntres > TRES_MAX)
		goto einval;
	for (int i = 0; i < ntres; i++)
		if (from[i] >= l->ntres)
			goto einval;
	c = malloc(sizeof(*c));
	if (!c)
		goto nomem;
	*c = *l;
	c->ntres = ntres;
	c->data = cells ? calloc(cells * ntres, sizeof(double)) : NULL;
	c->mid =
		cells ? calloc((size_t)l->count * ntres, sizeof(double)) : NULL;
	if (cells && (!c->data || !c->mid)) {
		free(c->data);
		free(c->mid);
		free(c);
		goto nomem;
	}
	for (size_t k = 0; k < cells; k++)
		for (int i = 0; i < ntres; i++)
			if (from[i] >= 0)
				c->data[k * ntres + i] =
					l->data[k * l->ntres + from[i]];
	_mid_refresh_all(c);
	return c;
einval:
	errno = EINVAL;
	return NULL;
nomem:
	errno = ENOMEM;
	return NULL;
}

/* Read a finite number member; json-c getters coerce, so check the type. */
static int _get_number(json_object *obj, const char *key, double *out,
		       horae_err_t *err)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_number(v, out))
		return err_set(err, -EINVAL,
			       "'%s' is missing or not a finite number", key);
	return 0;
}

/* Parse one "slot:value,..." row into d (per slots, zeroed). */
static int _row_from_json(json_object *row, double *d, size_t per, size_t a,
			  horae_err_t *err)
{
	const char *p;
	char *end;
	unsigned long slot;
	double v;

	if (!json_object_is_type(row, json_type_string))
		return err_set(err, -EINVAL, "'accounts[%zu]' is not a string",
			       a);
	p = json_object_get_string(row);
	while (*p) {
		errno = 0;
		slot = strtoul(p, &end, 10);
		if (end == p || *end != ':' || errno || slot >= per)
			return err_set(err, -EINVAL,
				       "'accounts[%zu]': bad slot at '%.20s' (slots 0..%zu)",
				       a, p, per - 1);
		p = end + 1;
		v = strtod(p, &end);
		if (end == p || (*end && *end != ',') || !isfinite(v) || v < 0)
			return err_set(err, -EINVAL,
				       "'accounts[%zu]': value at '%.20s' is negative, not finite or not a number",
				       a, p);
		d[slot] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int _load_accounts(ledger_t *l, json_object *accts, horae_err_t *err)
{
	size_t n = json_object_array_length(accts);
	size_t per = (size_t)l->nslots * l->ntres;
	int rc;

	if (ledger_grow(l, (int)n))
		return err_set(err, -ENOMEM, "out of memory");
	for (size_t a = 0; a < n; a++) {
		rc = _row_from_json(json_object_array_get_idx(accts, a),
				    l->data + a * per, per, a, err);
		if (rc)
			return rc;
	}
	return 0;
}

ledger_t *ledger_from_json(json_object *obj, horae_err_t *err)
{
	json_object *v, *accts;
	window_spec_t w;
	double bucket, ntres, now;
	horae_err_t werr;
	ledger_t *l = NULL;

	if (!json_object_is_type(obj, json_type_object)) {
		err_set(err, -EINVAL, "ledger is not a JSON object");
		goto einval;
	}
	if (!json_object_object_get_ex(obj, "window", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		err_set(err, -EINVAL, "'window' is missing or not a string");
		goto einval;
	}
	if (window_parse(json_object_get_string(v), &w, &werr)) {
		err_set(err, -EINVAL, "'window': %s", werr.text);
		goto einval;
	}
	if (_get_number(obj, "bucket", &bucket, err) ||
	    _get_number(obj, "ntres", &ntres, err) ||
	    _get_number(obj, "now", &now, err))
		goto einval;
	if (!json_object_object_get_ex(obj, "accounts", &accts) ||
	    !json_object_is_type(accts, json_type_array)) {
		err_set(err, -EINVAL, "'accounts' is missing or not an array");
		goto einval;
	}
	if (ntres != floor(ntres) || ntres < 1 || ntres > TRES_MAX) {
		err_set(err, -EINVAL, "'ntres' must be a whole number 1..%d",
			TRES_MAX);
		goto einval;
	}
	l = ledger_create(&w, bucket, (int)ntres, now, &werr);
	if (!l) {
		err_set(err, -EINVAL, "%s", werr.text);
		goto einval;
	}
	if (_load_accounts(l, accts, err))
		goto einval;
	_mid_refresh_all(l);
	return l;
einval:
	ledger_destroy(&l);
	errno = EINVAL;
	return NULL;
}
