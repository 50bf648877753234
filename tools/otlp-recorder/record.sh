#!/bin/sh
# Records the OTLP fixtures (tests/fixtures/otlp/<framework>/): for every recorder folder here,
# or only the ones named (`npm run otlp:record -- ai-sdk-6 strands`), installs its own locked
# packages (each folder is a package of its own, on the Node its lockfile pins) and runs it.
# The app, its tests and CI never run this: they replay the committed fixtures.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "$#" -eq 0 ]; then
  set -- $(cd "$here" && for d in */; do [ -f "$d/package.json" ] && printf '%s\n' "${d%/}"; done)
fi
for framework in "$@"; do
  dir="$here/$framework"
  if [ ! -f "$dir/package.json" ]; then
    echo "otlp:record: no recorder '$framework' in $here" >&2
    exit 1
  fi
  echo "otlp:record: $framework"
  npm ci --prefix "$dir"
  npm --prefix "$dir" run record
done
