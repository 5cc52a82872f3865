#!/bin/sh
# Instructions per input character of a bench_v2 case, the setup subtracted:
#   sh benchmarks/callgrind_v2.sh SRC_DIR CASE
# (SRC_DIR: src/ of the version to count; CASE: a bench_v2 case name).
set -e
here=$(dirname "$0")
count() {
    PYTHONHASHSEED=0 PYTHONPATH="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python "$here/bench_v2.py" --case "$2" "$3" 2>&1 | sed -n 's/.*Collected : //p'
}
fed=$(count "$1" "$2" --once)
setup=$(count "$1" "$2" --setup)
echo "$2 $(( fed - setup ))"
