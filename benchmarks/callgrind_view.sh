#!/bin/sh
# Instructions of the server's reader on one input, the setup subtracted:
#   sh benchmarks/callgrind_view.sh SRC_DIR FILE [library|viewer]
# SRC_DIR: src/ of the version to count; FILE: an input (bench_view.py makes them);
# the part: the library alone (default) or the whole reader. PYTHON picks the interpreter.
set -e
here=$(dirname "$0")
python=${PYTHON:-python}
part=${3:-library}
count() {
    PYTHONHASHSEED=0 PYTHONPATH="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$python" "$here/count_reader.py" "$2" --part "$part" $3 2>&1 | sed -n 's/.*Collected : //p'
}
count "$1" "$2" --setup >/dev/null  # (compiles the .pyc files first)
fed=$(count "$1" "$2")
setup=$(count "$1" "$2" --setup)
echo "$(basename "$2") $part $(( fed - setup ))"
