#!/usr/bin/env bash
# Fuzz for SECONDS (default 600) in total, restarting after each finding.
# Findings land in fuzz/findings/crash-*; the corpus grows in fuzz/work-corpus.
set -u
cd "$(dirname "$0")"
SECONDS_TOTAL=${1:-600}
shift || true
PYTHON=${PYTHON:-python}
mkdir -p findings work-corpus
cp -n corpus/* work-corpus/ 2>/dev/null || true
end=$((SECONDS + SECONDS_TOTAL))
while (( SECONDS < end )); do
  left=$((end - SECONDS))
  "$PYTHON" fuzz_session.py work-corpus -dict=streamblocks.dict -max_len=2048 \
    -timeout=20 -rss_limit_mb=2048 -max_total_time="$left" \
    -artifact_prefix=findings/ -print_final_stats=1 "$@" || echo "finding; restarting"
done
