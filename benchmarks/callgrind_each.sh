#!/bin/sh
# Instructions per fed item of bench_default cases, all in one callgrind run (see
# callgrind_each.py): the same counts as callgrind_default.sh, about three times sooner.
#   sh benchmarks/callgrind_each.sh SRC_DIR CASE...
# SRC_DIR: src/ of the version to count (empty: the installed package, e.g. the compiled
# build with PYTHON=/path/venv/bin/python); CASE: SOURCE/DRIVER as bench_default names it.
# BLOCKS: the document's blocks (default 100); PYTHON picks the interpreter.
set -e
here=$(dirname "$0")
python=${PYTHON:-python}
src=$1
shift
out=$(mktemp -d)
PYTHONHASHSEED=0 PYTHONPATH="$src" "$python" "$here/callgrind_each.py" >/dev/null  # (.pyc files)
PYTHONHASHSEED=0 PYTHONPATH="$src" valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect=_operator_call --dump-after=_operator_call \
    --callgrind-out-file="$out/cg" "$python" "$here/callgrind_each.py" "$@" \
    >"$out/cases" 2>"$out/log" || { cat "$out/log"; exit 1; }
n=0
while read -r case items; do
    n=$((n + 1))
    total=$(sed -n 's/^summary: *//p' "$out/cg.$n" | awk '{print $1}')
    echo "$case $((total / items)) instructions per item ($items items)"
done <"$out/cases"
rm -rf "$out"
