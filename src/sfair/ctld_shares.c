/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctld_shares.c - sshare's RPC for sfair: see ctld_shares.h.  The one
 * file of sfair that uses Slurm's internal headers (the message and its
 * records are not in slurm.h), against the Slurm source the plugins are
 * built with; libslurmfull carries the calls.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "slurm/slurmdb.h"
#include "src/common/list.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "plugins/shared/horae_compat.h"

#include "ctld_open.h"
#include "ctld_shares.h"

/* A comma-separated list as a Slurm list of strings, lower-cased as
 * slurmdbd stores names (slurmctld compares them case-blind too). */
static list_t *_names(const char *csv)
{
	list_t *l = list_create(xfree_ptr);
	char *copy = xstrdup(csv), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (*tok) {
			/* xstrtolower returns the string before 23.11, a
			 * bool after: not used. */
			char *name = xstrdup(tok);

			xstrtolower(name);
			list_append(l, name);
		}
	xfree(copy);
	return l;
}

static bool _in(const char *csv, const char *name)
{
	char *copy, *save = NULL, *tok;
	bool found = false;

	if (!csv || !name)
		return false;
	copy = strdup(csv);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !found;
	     tok = strtok_r(NULL, ",", &save))
		found = !strcasecmp(tok, name);
	free(copy);
	return found;
}

static char *_dup(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* Whether q asks for share row s. */
static bool _wanted(const sfair_assocs_query_t *q,
		    const assoc_shares_object_t *s)
{
	if (!s->user) /* an account's own; the root's has no parent */
		return s->parent && *s->parent;
	return q->all_users || _in(q->users, s->name);
}

/* Translate slurmctld's answer into out. */
static int _translate(const sfair_assocs_query_t *q,
		      shares_response_msg_t *resp, sfair_assocs_t *out)
{
	assoc_shares_object_t *s;
	list_itr_t *it;
	int n = resp->assoc_shares_list ? list_count(resp->assoc_shares_list) :
					  0;

	out->ntres = (int)resp->tres_cnt;
	out->tres = calloc(out->ntres ? out->ntres : 1, sizeof(*out->tres));
	out->rows = calloc(n ? n : 1, sizeof(*out->rows));
	if (!out->tres || !out->rows)
		return -ENOMEM;
	for (int i = 0; i < out->ntres; i++)
		if (!(out->tres[i] =
			      strdup(resp->tres_names && resp->tres_names[i] ?
					     resp->tres_names[i] :
					     "?")))
			return -ENOMEM;
	if (!n)
		return 0;
	it = list_iterator_create(resp->assoc_shares_list);
	while ((s = list_next(it))) {
		sfair_assoc_t *r = &out->rows[out->nrows];

		if (!_wanted(q, s))
			continue;
		out->nrows++;
		/* An account's row is named after the account; a user's
		 * after the user, its account the parent's. */
		r->account = _dup(s->user ? s->parent : s->name);
		r->user = s->user ? _dup(s->name) : NULL;
		r->parent = s->user ? NULL : _dup(s->parent);
		r->partition = _dup(s->partition);
		r->raw_shares = s->shares_raw;
		r->norm_shares = s->shares_norm;
		r->raw_usage = (double)s->usage_raw;
		r->norm_usage = s->usage_norm;
		r->efctv_usage = s->usage_efctv;
		r->fair_share = s->fs_factor;
		r->tres_usage = calloc(out->ntres ? out->ntres : 1,
				       sizeof(*r->tres_usage));
		if (!r->account || !r->tres_usage) {
			list_iterator_destroy(it);
			return -ENOMEM;
		}
		for (int i = 0; s->usage_tres_raw && i < out->ntres; i++)
			r->tres_usage[i] = (double)s->usage_tres_raw[i];
	}
	list_iterator_destroy(it);
	return 0;
}

/* sshare's exchange: 0 with *resp (NULL when slurmctld sent none), or
 * -1 with Slurm's errno set. */
static int _ask(shares_request_msg_t *req, shares_response_msg_t **resp)
{
	slurm_msg_t req_msg, resp_msg;
	int rc;

	*resp = NULL;
	slurm_msg_t_init(&req_msg);
	slurm_msg_t_init(&resp_msg);
	req_msg.msg_type = REQUEST_SHARE_INFO;
	req_msg.data = req;
	if (slurm_send_recv_controller_msg(&req_msg, &resp_msg,
					   working_cluster_rec) < 0)
		return -1;
	switch (resp_msg.msg_type) {
	case RESPONSE_SHARE_INFO:
		*resp = resp_msg.data;
		return 0;
	case RESPONSE_SLURM_RC:
		rc = ((return_code_msg_t *)resp_msg.data)->return_code;
		slurm_free_return_code_msg(resp_msg.data);
		if (rc) {
			errno = rc;
			return -1;
		}
		return 0;
	default:
		slurm_free_msg_data(resp_msg.msg_type, resp_msg.data);
		errno = SLURM_UNEXPECTED_MSG_ERROR;
		return -1;
	}
}

int sfair_assocs_load(const sfair_assocs_query_t *q, sfair_assocs_t *out)
{
	shares_request_msg_t req = { 0 };
	shares_response_msg_t *resp = NULL;
	list_t *clusters = NULL;
	int rc = 2;

	memset(out, 0, sizeof(*out));
	if (sfair_ctld_open("slurmctld's view"))
		return 2;
	if (q->cluster) {
		/* slurmdbd knows where each cluster's slurmctld is. */
		clusters = slurmdb_get_info_cluster((char *)q->cluster);
		if (!clusters || !list_count(clusters)) {
			fprintf(stderr,
				"sfair: -M %s: slurmdbd knows no such cluster%s\n",
				q->cluster,
				clusters ?
					"" :
					", or cannot be reached (-M needs AccountingStorageType=accounting_storage/slurmdbd)");
			goto cleanup;
		}
		if (list_count(clusters) > 1) {
			fprintf(stderr, "sfair: -M %s: one cluster at a time\n",
				q->cluster);
			goto cleanup;
		}
		working_cluster_rec = list_peek(clusters);
		out->cluster = strdup(working_cluster_rec->name);
	}
	if (q->accounts)
		req.acct_list = _names(q->accounts);
	if (q->users && !q->all_users)
		req.user_list = _names(q->users);
	if (_ask(&req, &resp)) {
		fprintf(stderr,
			"sfair: slurmctld%s%s did not answer sshare's request: %s\n",
			q->cluster ? " of " : "", q->cluster ? q->cluster : "",
			slurm_strerror(errno));
		goto cleanup;
	}
	if (!resp) {
		fprintf(stderr,
			"sfair: slurmctld sent no associations: is AccountingStorageType set, and do you have an association?\n");
		goto cleanup;
	}
	if (_translate(q, resp, out)) {
		fprintf(stderr, "sfair: out of memory\n");
		sfair_assocs_free(out);
		goto cleanup;
	}
	rc = 0;
cleanup:
	if (resp)
		slurm_free_shares_response_msg(resp);
	FREE_NULL_LIST(req.acct_list);
	FREE_NULL_LIST(req.user_list);
	working_cluster_rec = NULL;
	FREE_NULL_LIST(clusters);
	slurm_fini();
	sfair_ctld_close();
	return rc;
}

void sfair_assocs_free(sfair_assocs_t *a)
{
	for (int i = 0; a->rows && i < a->nrows; i++) {
		free(a->rows[i].account);
		free(a->rows[i].user);
		free(a->rows[i].parent);
		free(a->rows[i].partition);
		free(a->rows[i].tres_usage);
	}
	for (int i = 0; a->tres && i < a->ntres; i++)
		free(a->tres[i]);
	free(a->rows);
	free(a->tres);
	free(a->cluster);
	memset(a, 0, sizeof(*a));
}
