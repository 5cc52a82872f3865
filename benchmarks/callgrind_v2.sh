#!/bin/sh
# Instructions of a bench_v2 case (or of its bare loop), the setup subtracted:
#   sh benchmarks/callgrind_v2.sh SRC_DIR CASE [--bare]
# SRC_DIR: src/ of the version to count (empty: the installed package, e.g. the compiled
# build with PYTHON=/path/venv/bin/python); CASE: a bench_v2 case name; --bare: count the
# bare loop over the same chunks instead of the session. PYTHON picks the interpreter.
set -e
here=$(dirname "$0")
python=${PYTHON:-python}
count() {
    PYTHONHASHSEED=0 PYTHONPATH="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$python" "$here/bench_v2.py" --case "$2" $3 2>&1 | sed -n 's/.*Collected : //p'
}
count "$1" "$2" --setup >/dev/null  # (compiles the .pyc files first)
if [ "$3" = "--bare" ]; then fed=$(count "$1" "$2" "--once --bare"); else fed=$(count "$1" "$2" --once); fi
setup=$(count "$1" "$2" --setup)
echo "$2 $3 $(( fed - setup ))"
