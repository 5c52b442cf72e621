/*
 * sfair.c - inspect Horae's fair shares (sprio/sshare style).
 *
 * NOT YET IMPLEMENTED: the per-account report, --json, --explain and
 * --check-config arrive with issue 6, once the plugins publish a snapshot.
 * Today sfair parses its options, answers --help and --version, and says
 * plainly that there is nothing to show yet (exit status 2).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "horae_config.h"

static void _usage(FILE *out)
{
	fprintf(out,
		"Usage: sfair [OPTIONS]\n"
		"Show Horae's per-account fair shares.\n\n"
		"  -h, --help       show this help and exit\n"
		"  -V, --version    show the version and exit\n\n"
		"The share report is not implemented yet.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			_usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return EXIT_SUCCESS;
		default:
			_usage(stderr);
			return 2;
		}
	}
	fprintf(stderr,
		"sfair: the share report is not implemented yet: the Horae plugins do not publish a share snapshot in this version\n");
	return 2;
}
