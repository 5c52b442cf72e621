/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * justice_history.c - Justice's job tracking.  See justice_history.h.
 * The kept rates and errors are two rings of `length` entries; the error
 * average and the minimum and maximum are maintained as jobs come and go,
 * so tracking a job and asking for the fractions cost O(1) (a scan of the
 * ring only when the minimum or maximum leaves it).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_field.h"
#include "justice_history.h"

struct justice_history {
	int length;		  /* ring size */
	int n;			  /* entries kept */
	int head;		  /* next slot to write */
	long count;		  /* jobs learnt, all time */
	justice_smoothing_t smoothing;
	double alpha;
	double *rate;		  /* minReqRate ring */
	double *error;		  /* minReqRate - LastCPUFrac ring */
	double min, max, last;
	bool last_success;
	double err_sum;		  /* equal: sum of the kept errors */
	double err_smooth;	  /* exp: the smoothed error */
};

justice_history_t *justice_history_create(int length, justice_smoothing_t s,
					  double alpha, horae_err_t *err)
{
	justice_history_t *h;

	if (length < 1 || length > JUSTICE_HISTORY_MAX) {
		err_set(err, -EINVAL, "history length %d must be 1 to %d",
			length, JUSTICE_HISTORY_MAX);
		errno = EINVAL;
		return NULL;
	}
	if (s != JUSTICE_SMOOTH_EQUAL &&
	    (s != JUSTICE_SMOOTH_EXP || !(alpha > 0 && alpha <= 1))) {
		err_set(err, -EINVAL,
			"exponential smoothing needs 0 < alpha <= 1, not %g",
			alpha);
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (h) {
		h->rate = calloc(length, sizeof(double));
		h->error = calloc(length, sizeof(double));
	}
	if (!h || !h->rate || !h->error) {
		justice_history_destroy(&h);
		err_set(err, -ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	h->length = length;
	h->smoothing = s;
	h->alpha = alpha;
	return h;
}

void justice_history_destroy(justice_history_t **h)
{
	if (!h || !*h)
		return;
	free((*h)->rate);
	free((*h)->error);
	free(*h);
	*h = NULL;
}

static void _rescan(justice_history_t *h)
{
	h->min = INFINITY;
	h->max = -INFINITY;
	for (int i = 0; i < h->n; i++) {
		h->min = fmin(h->min, h->rate[i]);
		h->max = fmax(h->max, h->rate[i]);
	}
	if (!h->n)
		h->min = h->max = 0;
}

/* minReqRate; a job cut short needed at least what its limit claimed. */
static double _rate(const justice_done_t *job, double max_cpus)
{
	double per_window = job->deadline * max_cpus;

	if (!job->cut)
		return job->comp_time / per_window;
	if (!(job->claim > 0))
		return 1;
	return fmin(1, fmax(job->comp_time, job->claim) / per_window);
}

int justice_history_track(justice_history_t *h, const justice_done_t *job,
			  double capacity, horae_err_t *err)
{
	double max_cpus, rate, last, e, old_rate = NAN, old_err = 0;

	if (!h || !job)
		return err_set(err, -EINVAL, "justice history: missing arguments");
	if (!(job->deadline > 0) || !isfinite(job->deadline) ||
	    !(job->requested > 0) || !isfinite(job->requested) ||
	    !(capacity > 0) || !isfinite(capacity) ||
	    !(job->comp_time >= 0) || !isfinite(job->comp_time) ||
	    !(job->cpus >= 0) || !isfinite(job->cpus) ||
	    !(job->allotted >= 0) || !isfinite(job->allotted) ||
	    !(job->claim >= 0) || !isfinite(job->claim))
		return err_set(err, -EINVAL,
			       "justice history: a finished job needs a deadline window, size and capacity > 0 and finite CPU time, CPUs, allotment and claim >= 0");
	max_cpus = fmin(job->requested, capacity);
	rate = _rate(job, max_cpus);
	last = (job->allotted > 0 ? job->allotted : job->cpus) / max_cpus;
	e = rate - last;
	if (h->n == h->length) {
		old_rate = h->rate[h->head];
		old_err = h->error[h->head];
	} else {
		h->n++;
	}
	h->rate[h->head] = rate;
	h->error[h->head] = e;
	h->head = (h->head + 1) % h->length;
	h->err_sum += e - old_err;
	h->err_smooth = h->count ? h->alpha * e + (1 - h->alpha) * h->err_smooth
				 : e;
	if (old_rate == h->min || old_rate == h->max || h->n == 1) {
		_rescan(h);
	} else {
		h->min = fmin(h->min, rate);
		h->max = fmax(h->max, rate);
	}
	h->last = last;
	h->last_success = job->success;
	h->count++;
	return 0;
}

long justice_history_count(const justice_history_t *h)
{
	return h ? h->count : 0;
}

double justice_history_min(const justice_history_t *h)
{
	return h && h->n ? h->min : 0;
}

double justice_history_max(const justice_history_t *h)
{
	return h && h->n ? h->max : 0;
}

double justice_history_last(const justice_history_t *h)
{
	return h && h->n ? h->last : 0;
}

bool justice_history_last_success(const justice_history_t *h)
{
	return h && h->last_success;
}

double justice_history_correction(const justice_history_t *h)
{
	if (!h || !h->n)
		return 0;
	if (h->smoothing == JUSTICE_SMOOTH_EXP)
		return h->err_smooth;
	return h->err_sum / h->n;
}

json_object *justice_history_to_json(const justice_history_t *h)
{
	json_object *o = json_object_new_object();
	json_object *rate = json_object_new_array();
	json_object *error = json_object_new_array();

	if (!o || !rate || !error) {
		json_object_put(o);
		json_object_put(rate);
		json_object_put(error);
		errno = ENOMEM;
		return NULL;
	}
	/* Oldest first, so that reading them back in order rebuilds the
	 * rings. */
	for (int k = 0; k < h->n; k++) {
		int i = (h->head - h->n + k + h->length) % h->length;

		json_object_array_add(rate, json_object_new_double(h->rate[i]));
		json_object_array_add(error,
				      json_object_new_double(h->error[i]));
	}
	json_object_object_add(o, "length", json_object_new_int(h->length));
	json_object_object_add(o, "smoothing",
			       json_object_new_string(
				       h->smoothing == JUSTICE_SMOOTH_EXP ?
					       "exp" : "equal"));
	json_object_object_add(o, "alpha", json_object_new_double(h->alpha));
	json_object_object_add(o, "count", json_object_new_int64(h->count));
	json_object_object_add(o, "last", json_object_new_double(h->last));
	json_object_object_add(o, "last_success",
			       json_object_new_boolean(h->last_success));
	json_object_object_add(o, "err_smooth",
			       json_object_new_double(h->err_smooth));
	json_object_object_add(o, "rate", rate);
	json_object_object_add(o, "error", error);
	return o;
}

static bool _number(json_object *o, const char *key, double *out)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_number(v, out);
}

justice_history_t *justice_history_from_json(json_object *obj,
					     horae_err_t *err)
{
	json_object *rate, *error, *sm, *ls;
	double length, alpha, count, last, smooth;
	justice_history_t *h;
	size_t n;

	if (!obj || !_number(obj, "length", &length) ||
	    !_number(obj, "alpha", &alpha) || !_number(obj, "count", &count) ||
	    !_number(obj, "last", &last) ||
	    !_number(obj, "err_smooth", &smooth) ||
	    !json_object_object_get_ex(obj, "smoothing", &sm) ||
	    !json_object_is_type(sm, json_type_string) ||
	    !json_object_object_get_ex(obj, "last_success", &ls) ||
	    !json_object_is_type(ls, json_type_boolean) ||
	    !json_object_object_get_ex(obj, "rate", &rate) ||
	    !json_object_is_type(rate, json_type_array) ||
	    !json_object_object_get_ex(obj, "error", &error) ||
	    !json_object_is_type(error, json_type_array)) {
		err_set(err, -EINVAL,
			"history: missing or mistyped length, alpha, count, last, err_smooth, smoothing, last_success, rate or error");
		errno = EINVAL;
		return NULL;
	}
	/* Range first: the casts below are undefined out of range. */
	if (!(length >= 1 && length <= JUSTICE_HISTORY_MAX) ||
	    !(count >= 0 && count < 0x1p63)) {
		err_set(err, -EINVAL,
			"history: length %g or count %g out of range", length,
			count);
		errno = EINVAL;
		return NULL;
	}
	n = json_object_array_length(rate);
	if (n != json_object_array_length(error) || n > (size_t)length ||
	    count < (double)n) {
		err_set(err, -EINVAL,
			"history: %zu rates, %zu errors, length %g, count %g do not agree",
			n, json_object_array_length(error), length, count);
		errno = EINVAL;
		return NULL;
	}
	h = justice_history_create((int)length,
				   strcmp(json_object_get_string(sm), "exp") ?
					   JUSTICE_SMOOTH_EQUAL :
					   JUSTICE_SMOOTH_EXP,
				   alpha, err);
	if (!h)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rate, i);
		json_object *e = json_object_array_get_idx(error, i);

		if (!json_number(r, &h->rate[i]) ||
		    !json_number(e, &h->error[i])) {
			err_set(err, -EINVAL,
				"history: rate or error %zu is not a number", i);
			justice_history_destroy(&h);
			errno = EINVAL;
			return NULL;
		}
		h->err_sum += h->error[i];
	}
	h->n = (int)n;
	h->head = (int)(n % h->length);
	_rescan(h);
	h->count = (long)count;
	h->last = last;
	h->last_success = json_object_get_boolean(ls);
	h->err_smooth = smooth;
	return h;
}
