dnl SPDX-License-Identifier: GPL-2.0-or-later
# HORAE_WITH_SLURM_SOURCE
# -----------------------
# Find a configured Slurm source tree whose version equals the installed
# slurmctld's: the plugins compile against its internal headers and its
# config.h, so any mismatch would give struct layouts that differ from the
# running daemons.  Sets SLURM_SRC, SLURM_SRC_VERSION and SLURM_CPPFLAGS.
AC_DEFUN([HORAE_WITH_SLURM_SOURCE], [
	AS_IF([test -n "$slurm_prefix"],
		[AC_PATH_PROG([SLURMCTLD], [slurmctld], [], [$slurm_prefix/sbin])],
		[AC_PATH_PROG([SLURMCTLD], [slurmctld], [], [$PATH:/usr/sbin:/sbin])])
	AS_IF([test -z "$SLURMCTLD"],
		[AC_MSG_ERROR([slurmctld is not installed${slurm_prefix:+ in $slurm_prefix/sbin}; run contribs/horae-deps as root])])
	SLURM_SBINDIR=`dirname "$SLURMCTLD"`
	AC_SUBST([SLURM_SBINDIR])
	slurm_installed_version=`"$SLURMCTLD" -V 2>/dev/null | $AWK '{print $NF}'`
	AS_IF([test -z "$slurm_installed_version"],
		[AC_MSG_ERROR([cannot tell the version of $SLURMCTLD ('slurmctld -V' printed nothing)])])

	AC_ARG_WITH([slurm-source],
		[AS_HELP_STRING([--with-slurm-source=DIR],
			[configured Slurm source tree of the installed version
			 (default: /var/cache/horae/slurm-wlm-VERSION, made by
			 contribs/horae-deps)])],
		[SLURM_SRC=$withval],
		[SLURM_SRC=/var/cache/horae/slurm-wlm-$slurm_installed_version])

	AC_MSG_CHECKING([for a configured Slurm source tree in $SLURM_SRC])
	AS_IF([test ! -f "$SLURM_SRC/src/slurmctld/slurmctld.h"],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([no Slurm source in $SLURM_SRC (src/slurmctld/slurmctld.h is missing).
  Run contribs/horae-deps as root to fetch and configure it, or pass
  --with-slurm-source=DIR pointing at slurm-wlm $slurm_installed_version source.])])
	AS_IF([test ! -f "$SLURM_SRC/config.h"],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([$SLURM_SRC is not configured ($SLURM_SRC/config.h is missing).
  Run contribs/horae-deps as root, which configures it with Debian's flags.])])
	AC_MSG_RESULT([yes])

	SLURM_SRC_VERSION=`sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$SLURM_SRC/config.h"`
	AC_MSG_CHECKING([that the Slurm source version equals installed slurmctld $slurm_installed_version])
	AS_IF([test "x$SLURM_SRC_VERSION" != "x$slurm_installed_version"],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([Slurm source in $SLURM_SRC is version '$SLURM_SRC_VERSION' but the installed slurmctld is $slurm_installed_version.
  Plugins built against other headers would not load or would corrupt
  slurmctld's memory.  Run contribs/horae-deps again to fetch the matching source.])])
	AC_MSG_RESULT([yes])

	AC_MSG_CHECKING([that $SLURM_SRC/config.h has Debian's flags])
	AS_IF([grep -q '^#define MULTIPLE_SLURMD' "$SLURM_SRC/config.h" &&
	       grep -q '^#define NDEBUG' "$SLURM_SRC/config.h"],
		[AC_MSG_RESULT([yes])],
		[AC_MSG_RESULT([no])
		 AC_MSG_ERROR([$SLURM_SRC/config.h lacks MULTIPLE_SLURMD or NDEBUG: it was not configured like Debian's slurmctld (--enable-multiple-slurmd --disable-debug).  Run contribs/horae-deps.])])

	dnl -isystem: Slurm's own headers are not ours to warn about.
	SLURM_CPPFLAGS="-isystem $SLURM_SRC"
	AC_SUBST([SLURM_SRC])
	AC_SUBST([SLURM_SRC_VERSION])
	AC_SUBST([SLURM_CPPFLAGS])
])

# HORAE_WITH_SLURM_PREFIX
# -----------------------
# --with-slurm=PREFIX: build for the Slurm installed in PREFIX (its sbin,
# bin and lib/slurm, as contribs/horae-slurm-build installs 24.11) instead
# of Debian's.  Sets slurm_prefix (empty for Debian's) and SLURM_BINDIR,
# where the tests find Slurm's commands.
AC_DEFUN([HORAE_WITH_SLURM_PREFIX], [
	AC_ARG_WITH([slurm],
		[AS_HELP_STRING([--with-slurm=PREFIX],
			[a Slurm installed in PREFIX rather than Debian's (contribs/horae-slurm-build)])],
		[slurm_prefix=$withval], [slurm_prefix=])
	AS_IF([test -n "$slurm_prefix" && test ! -x "$slurm_prefix/sbin/slurmctld"],
		[AC_MSG_ERROR([--with-slurm=$slurm_prefix: no $slurm_prefix/sbin/slurmctld])])
	AS_IF([test -n "$slurm_prefix"], [SLURM_BINDIR=$slurm_prefix/bin],
		[SLURM_BINDIR=/usr/bin])
	AC_SUBST([SLURM_BINDIR])
])

# HORAE_WITH_PLUGINDIR
# --------------------
# Where make install puts the plugins.  With --prefix=/usr and Debian's
# --libdir this is Debian's own plugin directory; with any other prefix it
# is a directory to add to PluginDir in slurm.conf.
AC_DEFUN([HORAE_WITH_PLUGINDIR], [
	AC_ARG_WITH([plugindir],
		[AS_HELP_STRING([--with-plugindir=DIR],
			[install the Slurm plugins in DIR (default: LIBDIR/slurm-wlm)])],
		[plugindir=$withval], [plugindir='${libdir}/slurm-wlm'])
	AC_SUBST([plugindir])
])
