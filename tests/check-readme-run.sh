#!/bin/sh
# check-readme-run.sh README MESON BUILDDIR CI_RUN: the README's two
# commands as a newcomer runs them.
#
# The first command (install, build, open the example trace) installs only
# what building and running the application needs: a test-only package
# there (npm above all, which Debian refuses beside a Node.js of another
# vendor) would stop the one command a newcomer runs. It runs the
# application through `meson devenv`, and in that environment the settings
# schema compiled in the build is found, so the preferences work from the
# build directory. The second command (the whole test suite) is the one
# .ci/run runs, word for word.
set -eu

readme=$1
meson=$2
builddir=$3
ci_run=$4
app_id=io.github.chronoscope.Chronoscope

# The first line of the first shell block after a heading.
first_command() {
  sed -n "/^## $1\$/,/^## /p" "$readme" |
    sed -n '/^```sh$/,/^```$/p' | sed -n '2p'
}

# The packages an `apt-get install` of a command names: the words after
# `install` up to the next `&&`, without options.
apt_packages() {
  printf '%s\n' "$1" | awk '{
    for (i = 1; i <= NF; i++) {
      if ($i == "install" && $(i - 1) == "apt-get") {
        for (j = i + 1; j <= NF && $j != "&&"; j++)
          if ($j !~ /^-/) print $j
      }
    }
  }'
}

failed=0
fail() {
  echo "$*"
  failed=1
}

run=$(first_command 'Try it on a fresh Debian 12 machine')
tests=$(first_command 'Run the tests')
[ -n "$run" ] || fail "README.md has no command under \"## Try it on a fresh Debian 12 machine\""
[ -n "$tests" ] || fail "README.md has no command under \"## Run the tests\""

case $run in
  *"&& meson devenv -C _build chronoscope "*) ;;
  *) fail "README's first command does not open the app through meson devenv: $run" ;;
esac

# Test-only packages: what the test command installs, Node.js and npm
# (the MCP client and the Parquet writer of the tests), and what only CI
# and the benchmarks use.
test_only="nodejs npm libyajl-dev clang libclang-rt-14-dev slurm-wlm munge $(apt_packages "$tests")"
run_packages=$(apt_packages "$run")
[ -n "$run_packages" ] || fail "README's first command installs nothing: $run"
for p in $run_packages; do
  for t in $test_only; do
    if [ "$p" = "$t" ]; then
      fail "README's first command installs $p, which only the tests need"
    fi
  done
done

# CI installs everything the README's commands install.
ci_packages=$(sed -n '/^PACKAGES=(/,/^)/p' "$ci_run" | sed 's/#.*//')
for p in $run_packages $(apt_packages "$tests"); do
  case " $(echo $ci_packages) " in
    *" $p "*) ;;
    *) fail ".ci/run does not install $p, which README.md's commands install" ;;
  esac
done

# .ci/run runs the README's test command word for word.
ci_tests=$(sed -n '/^readme_test_command() {$/,/^}$/p' "$ci_run" | sed -n '2p' | sed 's/^ *//')
if [ "$ci_tests" != "$tests" ]; then
  fail "the test command of .ci/run (readme_test_command) differs from README.md's:"
  echo "  .ci/run:   $ci_tests"
  echo "  README.md: $tests"
fi

[ "$failed" -eq 0 ] || exit 1
echo "the README's first command installs no test-only package; .ci/run runs its test command"

if ! command -v gsettings > /dev/null; then
  echo "no gsettings: the schema lookup is not checked"
  exit 77
fi
# Nothing of an installed copy: only the build's schema can be found.
env XDG_DATA_DIRS=/nonexistent "$meson" devenv -C "$builddir" gsettings list-keys "$app_id" > /dev/null
echo "the schema is found under meson devenv"
