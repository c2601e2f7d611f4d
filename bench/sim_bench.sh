#!/usr/bin/env bash
# Times `netdoctor sim` on a 512-host, 8-NIC, two-sample fabric, written as a directory and as
# a .tar.gz (target: each under a minute on a 2-core machine), and checks the file count.
# Usage: bench/sim_bench.sh [path/to/netdoctor] [work dir]
set -euo pipefail
bin="${1:-${NETDOCTOR:-build/release/cli/netdoctor}}"
work="${2:-$(mktemp -d /tmp/sim_bench.XXXXXX)}"
mkdir -p "$work"
args=(sim --hosts 512 --nics 8 --samples 2 --seed 1 --fault pfc-storm)

failed=0
run() {
  local label="$1" out="$2"
  local start end secs verdict=PASS
  start=$(date +%s.%N)
  "$bin" "${args[@]}" --out "$out" >/dev/null
  end=$(date +%s.%N)
  secs=$(echo "$end - $start" | bc)
  if [ "$(echo "$secs < 60" | bc)" -ne 1 ]; then
    verdict=FAIL
    failed=1
  fi
  printf '%-10s %8.2f s  %s  (target < 60 s) %s; load average %s\n' "$label" "$secs" \
    "$(du -sh "$out" | cut -f1)" "$verdict" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

rm -rf "$work/dir" "$work/dir.expected.json" "$work/b.tar.gz" "$work/b.expected.json"
run directory "$work/dir"
files=$(find "$work/dir" -type f | wc -l)
# 512 hosts x 2 samples x (6 + 8 NICs x 74) + switches x 2 x 6 + 256 pairs x 4
echo "files in directory: $files"
run tar.gz "$work/b.tar.gz"
members=$(tar -tzf "$work/b.tar.gz" | grep -vc '/$')
echo "files in archive:   $members"
[ "$files" = "$members" ] || { echo "count mismatch" >&2; exit 1; }
rm -rf "$work/dir" "$work/b.tar.gz"
exit "$failed"
