#!/bin/sh
# Regenerate configure and the Makefile.in files from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf --install --force
