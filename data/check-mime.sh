#!/bin/sh
# Build a private shared-mime-info database from the system definitions and
# ours, fail on any warning from update-mime-database, then (when the gio
# tool is available) check that sample file names and contents get the
# content types we expect.
#
# Usage: check-mime.sh MIME_XML
set -u

mime_xml=$1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chronoscope-mime.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir -p "$tmp/share/mime/packages" "$tmp/home" "$tmp/files"

# The freedesktop.org base definitions, for application/json and
# application/gzip that our types derive from.
base=
for dir in $(printf '%s' "${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" | tr ':' ' ') /usr/share; do
  if [ -f "$dir/mime/packages/freedesktop.org.xml" ]; then
    base="$dir/mime/packages/freedesktop.org.xml"
    break
  fi
done
if [ -z "$base" ]; then
  echo "SKIP: freedesktop.org.xml not found"
  exit 77
fi
cp "$base" "$tmp/share/mime/packages/"
cp "$mime_xml" "$tmp/share/mime/packages/io.github.chronoscope.Chronoscope.xml"

if ! out=$(XDG_DATA_DIRS="$tmp/share" XDG_DATA_HOME="$tmp/home" PKGSYSTEM_ENABLE_FSYNC=0 \
           update-mime-database "$tmp/share/mime" 2>&1); then
  printf '%s\n' "$out"
  echo "FAIL: update-mime-database failed" >&2
  exit 1
fi
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  echo "FAIL: update-mime-database reported problems" >&2
  exit 1
fi
echo "ok - update-mime-database accepts the definitions"

if ! command -v gio >/dev/null 2>&1; then
  echo "# gio not found: content type checks skipped"
  exit 0
fi

failures=0
expect() {
  # expect FILE_NAME EXPECTED_TYPE: the file must already exist in $tmp/files
  got=$(XDG_DATA_DIRS="$tmp/share" XDG_DATA_HOME="$tmp/home" GIO_USE_VFS=local \
        gio info -a standard::content-type "$tmp/files/$1" 2>&1 |
        sed -n 's/^ *standard::content-type: *//p')
  if [ "$got" = "$2" ]; then
    echo "ok - $1 is $2"
  else
    echo "not ok - $1 is '$got', expected $2"
    failures=$((failures + 1))
  fi
}
check() {
  # check FILE_NAME EXPECTED_TYPE CONTENT
  printf '%s' "$3" > "$tmp/files/$1"
  expect "$1" "$2"
}
check_gz() {
  # check_gz FILE_NAME EXPECTED_TYPE CONTENT: the content gzip-compressed
  printf '%s' "$3" | gzip -c > "$tmp/files/$1"
  expect "$1" "$2"
}

kineto='{
  "schemaVersion": 1,
  "deviceProperties": [],
  "traceEvents": []
}'
chrome='{"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1}]}'

check worker0.1623143089861.pt.trace.json application/x-pytorch-trace+json "$kineto"
check_gz worker0.1623143089861.pt.trace.json.gz application/x-pytorch-trace+gzip "$kineto"
check_gz other.json.gz application/gzip "$chrome"
check step12.trace.json application/x-chrome-trace+json "$chrome"
check trace.json application/x-chrome-trace+json "$chrome"
check capture application/x-chrome-trace+json "$chrome"
check run.pftrace application/x-perfetto-trace "$(printf '\n\002\010\001')"
check run.perfetto-trace application/x-perfetto-trace "$(printf '\n\002\010\001')"
check model.ntff.json application/x-neuron-profile+json '{}'
check system_profile.json application/x-neuron-profile+json '{}'
check resnet.chronoscope application/x-chronoscope-project '{}'
check settings.json application/json '{"a": 1}'

if [ "$failures" -ne 0 ]; then
  echo "FAIL: $failures content type checks failed" >&2
  exit 1
fi
exit 0
