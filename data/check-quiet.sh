#!/bin/sh
# Run a validator and fail when it exits non-zero or prints anything at all,
# so that warnings and hints count as failures too.
#
# Usage: check-quiet.sh PROGRAM [ARGS...]
set -u
out=$("$@" 2>&1)
status=$?
if [ -n "$out" ]; then
  printf '%s\n' "$out"
fi
if [ "$status" -ne 0 ]; then
  echo "FAIL: $1 exited with status $status" >&2
  exit 1
fi
if [ -n "$out" ]; then
  echo "FAIL: $1 reported problems" >&2
  exit 1
fi
exit 0
