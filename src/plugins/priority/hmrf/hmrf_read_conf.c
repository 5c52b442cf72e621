/*
 * hmrf_read_conf.c - hmrf.conf through Slurm's s_p parser.  Every key has
 * a handler that hands the value to the core's validator (hmrf_conf.c), so
 * a bad value fails the parse and Slurm's parser logs the file and line;
 * our own error line, just before it, says what is wrong.
 */
#include "config.h"

#include <sys/stat.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/parse_config.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "hmrf_read_conf.h"

extern const char plugin_type[];

/* The configuration being read: s_p handlers take no context argument. */
static hmrf_conf_t *parsing;
static const char *parsing_path;

static void _bad(const char *what)
{
	error("%s: %s: %s", plugin_type, parsing_path, what);
}

static int _handle_key(void **data, slurm_parser_enum_t type,
		       const char *key, const char *value, const char *line,
		       char **leftover)
{
	horae_err_t err;

	*data = NULL;
	if (hmrf_conf_set(parsing, key, value, &err)) {
		_bad(err.text);
		return -1;
	}
	return 1;
}

static int _handle_account(void **data, slurm_parser_enum_t type,
			   const char *key, const char *value,
			   const char *line, char **leftover)
{
	static s_p_options_t account_options[] = {
		{ "Share", S_P_STRING },
		{ NULL },
	};
	s_p_hashtbl_t *tbl = s_p_hashtbl_create(account_options);
	char *share = NULL;
	horae_err_t err;
	int rc = -1;

	if (!s_p_parse_line(tbl, *leftover, leftover)) {
		_bad("Account= takes only Share=NUMBER after the name");
		goto cleanup;
	}
	s_p_get_string(&share, "Share", tbl);
	if (hmrf_conf_add_account(parsing, value, share, &err)) {
		_bad(err.text);
		goto cleanup;
	}
	*data = xstrdup(value);
	rc = 1;
cleanup:
	xfree(share);
	s_p_hashtbl_destroy(tbl);
	return rc;
}

static void _destroy(void *data)
{
	xfree(data);
}

static s_p_options_t options[] = {
	{ "Policy", S_P_POINTER, _handle_key, _destroy },
	{ "Window", S_P_POINTER, _handle_key, _destroy },
	{ "WindowBucket", S_P_POINTER, _handle_key, _destroy },
	{ "Timeout", S_P_POINTER, _handle_key, _destroy },
	{ "Period", S_P_POINTER, _handle_key, _destroy },
	{ "ChargeHorizon", S_P_POINTER, _handle_key, _destroy },
	{ "BorrowLimit", S_P_POINTER, _handle_key, _destroy },
	{ "DefaultShare", S_P_POINTER, _handle_key, _destroy },
	{ "PriorityWeight", S_P_POINTER, _handle_key, _destroy },
	{ "Tres", S_P_POINTER, _handle_key, _destroy },
	{ "Account", S_P_ARRAY, _handle_account, _destroy },
	{ NULL },
};

hmrf_conf_t *hmrf_read_conf(char **path)
{
	hmrf_conf_t *conf = hmrf_conf_create();
	s_p_hashtbl_t *tbl = NULL;
	horae_err_t err;
	struct stat st;

	*path = get_extra_conf_path("hmrf.conf");
	parsing_path = *path;
	if (!conf) {
		error("%s: out of memory", plugin_type);
		return NULL;
	}
	if (stat(*path, &st)) {
		info("%s: no %s: using the defaults", plugin_type, *path);
	} else {
		parsing = conf;
		tbl = s_p_hashtbl_create(options);
		if (s_p_parse_file(tbl, NULL, *path, false, NULL) !=
		    SLURM_SUCCESS) {
			error("%s: %s is invalid: see the line named above",
			      plugin_type, *path);
			goto fail;
		}
	}
	if (hmrf_conf_finish(conf, &err)) {
		_bad(err.text);
		goto fail;
	}
	s_p_hashtbl_destroy(tbl);
	parsing = NULL;
	return conf;
fail:
	s_p_hashtbl_destroy(tbl);
	parsing = NULL;
	hmrf_conf_destroy(&conf);
	return NULL;
}
