#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate configure and the Makefile.in files from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf --install --force
