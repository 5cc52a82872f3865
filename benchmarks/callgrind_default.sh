#!/bin/sh
# Instructions per fed item of a bench_default case, the setup subtracted:
#   sh benchmarks/callgrind_default.sh SRC_DIR CASE [BLOCKS]
# SRC_DIR: src/ of the version to count (empty: the installed package, e.g. the compiled
# build with PYTHON=/path/venv/bin/python); CASE: SOURCE/DRIVER as bench_default names it
# (openai-chat-sdk/sync, str-none/feed...); BLOCKS: the document's blocks (default 100).
# PYTHON picks the interpreter.
set -e
here=$(dirname "$0")
python=${PYTHON:-python}
blocks=${3:-100}
count() {
    PYTHONHASHSEED=0 PYTHONPATH="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$python" "$here/bench_default.py" --blocks "$blocks" --case "$2" $3 2>&1 \
        | sed -n 's/.*Collected : //p'
}
count "$1" "$2" --setup >/dev/null  # (compiles the .pyc files first)
fed=$(count "$1" "$2" --once)
setup=$(count "$1" "$2" --setup)
items=$(PYTHONPATH="$1" "$python" "$here/bench_default.py" --blocks "$blocks" --case "$2" --count)
echo "$2 $(( (fed - setup) / items )) instructions per item ($items items)"
