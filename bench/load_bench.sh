#!/usr/bin/env bash
# Load benchmark: a 512-host, 8-NIC, 2-sample bundle (~600k files) read by
# `netdoctor inventory` against reading every file once with cat (warm cache), for the
# directory and for the .tar.gz (against zcat). Targets: at most 1.5x the reading time, under
# 1 GiB peak memory.
#
#   bench/load_bench.sh [BUILD_DIR] [WORK_DIR]
#   env: HOSTS (512) NICS (8) SAMPLES (2) VENDORS (mlx5,bnxt) KEEP=1 keeps WORK_DIR
set -euo pipefail

build=${1:-$(dirname "$0")/../build/dev}
work=${2:-/tmp/netdoctor-load-bench}
hosts=${HOSTS:-512}
nics=${NICS:-8}
samples=${SAMPLES:-2}
vendors=${VENDORS:-mlx5,bnxt}
bin=${NETDOCTOR:-$build/cli/netdoctor}
dir=$work/bundle
tgz=$work/bundle.tar.gz
timing=$work/time.txt

[[ -x $bin ]] || { echo "no netdoctor binary at $bin" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
mkdir -p "$work"

# Builds the bundle with the simulator, or, when it is not available, by copying the host
# directories of an example scenario under new names (then NICs per host are the scenario's).
make_bundle() {
  # shellcheck disable=SC2086
  if "$bin" sim --hosts "$hosts" --nics "$nics" --samples "$samples" --vendors "$vendors" \
      --seed 1 --out "$dir" >/dev/null 2>"$work/sim.err"; then
    echo "bundle: netdoctor sim --hosts $hosts --nics $nics --samples $samples --vendors $vendors"
    return
  fi
  echo "netdoctor sim failed ($(head -1 "$work/sim.err")); replicating a scenario's hosts"
  local scenario=${SCENARIO:-$(dirname "$0")/../../shared/scenarios/healthy.tar.gz}
  local seed=$work/seed
  rm -rf "$seed" "$dir" && mkdir -p "$seed" "$dir/hosts"
  tar -xzf "$scenario" -C "$seed"
  local root
  root=$(dirname "$(find "$seed" -maxdepth 3 -type d -name hosts | head -1)")
  cp -r "$root/switches" "$dir/"
  local templates=("$root"/hosts/*)
  for ((i = 0; i < hosts; i++)); do
    cp -r "${templates[$((i % ${#templates[@]}))]}" "$dir/hosts/$(printf 'host%04d' "$i")"
  done
  rm -rf "$seed"
}

[[ -d $dir/hosts ]] || make_bundle
[[ -f $tgz ]] || tar -C "$dir" -czf "$tgz" .
files=$(find "$dir" -type f | wc -l)

# Runs a command under /usr/bin/time -v, best wall time of $runs; sets secs and rss_mib.
runs=${RUNS:-2}
measure() {
  local best="" best_rss=0
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -v "$@" >/dev/null 2>"$timing" || { cat "$timing" >&2; exit 1; }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$timing" |
           awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timing")
    if [[ -z $best ]] || awk "BEGIN {exit !($wall < $best)}"; then best=$wall; fi
    (( rss > best_rss )) && best_rss=$rss
  done
  secs=$best
  rss_mib=$(awk "BEGIN {printf \"%.0f\", $best_rss / 1024}")
}

ratio() { awk "BEGIN {printf \"%.2f\", $1 / ($2 > 0 ? $2 : 0.001)}"; }

find "$dir" -type f -print0 | xargs -0 cat >/dev/null  # warm the page cache

measure sh -c "find '$dir' -type f -print0 | xargs -0 cat >/dev/null"
cat_s=$secs cat_rss=$rss_mib
measure "$bin" inventory --bundle "$dir" --format json
dir_s=$secs dir_rss=$rss_mib
measure sh -c "zcat '$tgz' >/dev/null"
zcat_s=$secs zcat_rss=$rss_mib
measure "$bin" inventory --bundle "$tgz" --format json
tgz_s=$secs tgz_rss=$rss_mib

echo "files: $files ($hosts hosts x $nics NICs x $samples samples requested)"
printf '%-34s %8s s %8s MiB\n' "cat every file (warm)" "$cat_s" "$cat_rss"
printf '%-34s %8s s %8s MiB   ratio %s (target <= 1.5)\n' "inventory --bundle DIR" "$dir_s" \
  "$dir_rss" "$(ratio "$dir_s" "$cat_s")"
printf '%-34s %8s s %8s MiB\n' "zcat bundle.tar.gz" "$zcat_s" "$zcat_rss"
printf '%-34s %8s s %8s MiB   ratio %s (target <= 1.5)\n' "inventory --bundle TAR.GZ" "$tgz_s" \
  "$tgz_rss" "$(ratio "$tgz_s" "$zcat_s")"
[[ ${KEEP:-0} == 1 ]] || rm -rf "$work"
