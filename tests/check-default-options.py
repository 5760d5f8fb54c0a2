#!/usr/bin/env python3
"""check-default-options.py MESON SOURCE_DIR CI_RUN: warnings are errors in
CI and development builds, not in the project's defaults (a packager's
build with other flags, or a newer compiler, must not break on a new
warning), and CI builds the configurations a packager does."""
import json
import subprocess
import sys

meson, source_dir, ci_run = sys.argv[1:4]
options = json.loads(subprocess.run(
    [meson, "introspect", "--buildoptions", source_dir + "/meson.build"],
    check=True, capture_output=True, text=True).stdout)
defaults = {o["name"]: o["value"] for o in options}
failures = []
if defaults.get("werror") is not False:
    failures.append("werror is on by default: %r" % defaults.get("werror"))

with open(ci_run) as f:
    ci = f.read()
for needle in ("--buildtype=release --werror", "--buildtype=plain --werror",
               "-D_FORTIFY_SOURCE=2", "-fstack-protector-strong",
               "meson setup _build --werror"):
    if needle not in ci:
        failures.append(".ci/run does not build with %s" % needle)

for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
