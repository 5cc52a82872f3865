#!/bin/sh
# Instructions per fed item of bench_default cases: a case fed twice (two streams, one
# after the other) less the case fed once, so the one-time costs (imports, the adapters'
# discovery, compiled searches, building the items) are left out:
#   sh benchmarks/callgrind_default.sh SRC_DIR CASE...
# SRC_DIR: src/ of the version to count (empty: the installed package, e.g. the compiled
# build with PYTHON=/path/venv/bin/python); CASE: SOURCE/DRIVER as bench_default names it
# (openai-chat-sdk/sync, str-none/feed...). Each case's count is also given ÷ the same
# driver's str-none case when that was counted before it (list str-none/DRIVER first;
# async ÷ loop for an async case whose loop case came before it). BLOCKS: the document's
# blocks (default 100); PYTHON picks the interpreter.
set -e
here=$(dirname "$0")
python=${PYTHON:-python}
blocks=${BLOCKS:-100}
src=$1
shift
count() {
    PYTHONHASHSEED=0 PYTHONPATH="$src" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$python" "$here/bench_default.py" --blocks "$blocks" --case "$1" $2 2>&1 \
        | sed -n 's/.*Collected : //p'
}
count "$1" --setup >/dev/null  # (compiles the .pyc files first)
results=""
for case in "$@"; do
    source=${case%/*}
    driver=${case#*/}
    once=$(count "$case" --once)
    twice=$(count "$case" "--once --repeat 2")
    items=$(PYTHONPATH="$src" "$python" "$here/bench_default.py" --blocks "$blocks" --case "$case" --count)
    per=$(( (twice - once) / items ))
    results="$results $case=$per"
    line="$case $per instructions per item ($items items)"
    for earlier in $results; do
        case $earlier in
            "str-none/$driver="*) base=${earlier#*=}
                [ "$source" != str-none ] && line="$line, $(echo "$per $base" | awk '{printf "%.2f", $1 / $2}')× str-none/$driver" ;;
            "$source/loop="*) loop=${earlier#*=}
                [ "$driver" = async ] && line="$line, $(echo "$per $loop" | awk '{printf "%.2f", $1 / $2}')× $source/loop" ;;
        esac
    done
    echo "$line"
done
