#!/bin/sh
# check-readme-run.sh README MESON BUILDDIR: the README's first command
# runs the application through `meson devenv`, and in that environment the
# settings schema compiled in the build is found, so the preferences work
# from the build directory.
set -eu

readme=$1
meson=$2
builddir=$3
app_id=io.github.chronoscope.Chronoscope

# The first shell block after the heading of the first steps.
first=$(sed -n '/^## Try it on a fresh Debian 12 machine/,/^## /p' "$readme" |
        sed -n '/^```sh$/,/^```$/p' | sed -n '2p')
case $first in
  *"&& meson devenv -C _build chronoscope "*) ;;
  *)
    echo "README's first command does not open the app through meson devenv:"
    echo "$first"
    exit 1
    ;;
esac

if ! command -v gsettings > /dev/null; then
  echo "no gsettings: the schema lookup is not checked"
  exit 77
fi
# Nothing of an installed copy: only the build's schema can be found.
env XDG_DATA_DIRS=/nonexistent "$meson" devenv -C "$builddir" gsettings list-keys "$app_id" > /dev/null
echo "the schema is found under meson devenv"
