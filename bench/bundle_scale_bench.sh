#!/usr/bin/env bash
# Bundle scale benchmark (issue 20): 512, 1,024, 2,048 and 4,096 hosts x 8 NICs x 2 samples
# (the largest about 6 million files), each written by `netdoctor sim` straight to a .tar.gz (never
# a directory) and diagnosed by `netdoctor diagnose --no-record --format json`, against zcat of
# the same archive, rounds interleaved. One curve: time and peak memory per NIC should stay flat.
# Targets: diagnose at most 1.0x zcat and under 1.5 GiB peak (checked at every point; the brief
# is the 4,096-host one), and the diagnosis names the simulator's expected cause and a culprit.
#
#   bench/bundle_scale_bench.sh [BUILD_DIR (build/release)] [WORK_DIR (/tmp/netdoctor-scale)]
#
#   env: SCALE_HOSTS ("512 1024 2048 4096"), NICS (8), SAMPLES (2), VENDORS, FAULT, SEED as in
#        bench_lib.sh; RUNS (3 below 2,048 hosts, 2 from there). The archives stay in WORK_DIR,
#        reused while their stamp matches (a 4,096-host one is ~400 MB and takes minutes to write).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
bench_work=${2:-/tmp/netdoctor-scale}
bin=${NETDOCTOR:-$build/cli/netdoctor}
[[ -x $bin ]] || { echo "no netdoctor binary at $bin" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq (apt-get install jq)" >&2; exit 1; }
mkdir -p "$bench_work"
# shellcheck source=bench/bench_lib.sh
source "$here/bench_lib.sh"

# The diagnosis in LABEL.out must give EXPECTED's verdict and top cause, naming a culprit.
check_diagnosis() { check_expected_diagnosis "$bench_work/$1.out" "$2"; }

nics=${NICS:-8}
load_before=$(load_average)
rows=()
for hosts in ${SCALE_HOSTS:-512 1024 2048 4096}; do
  base=$bench_work/scale-$hosts
  HOSTS=$hosts make_bench_archive "$bin" "$base"
  expected=$base.expected.json
  symptom=$(jq -r .symptom "$expected")
  runs=${RUNS:-$((hosts >= 2048 ? 2 : 3))}
  for ((round = 0; round < runs; round++)); do
    time_cmd "zcat-$hosts" sh -c "zcat '$base.tar.gz' >/dev/null"
    time_cmd "diagnose-$hosts" "$bin" diagnose --no-record --symptom "$symptom" --format json \
      --bundle "$base.tar.gz"
    check_diagnosis "diagnose-$hosts" "$expected"
  done
  rows+=("$hosts")
done

echo "bundle_scale_bench: load average before: $load_before, after: $(load_average)"
printf '%6s %6s %9s %8s %7s %9s %6s %8s %9s %9s  %s\n' hosts NICs files "arch MiB" "zcat s" \
  "diagn. s" ratio "peak MiB" "us/NIC" "KiB/NIC" "verdict (<= 1.0x zcat, < 1536 MiB)"
for hosts in "${rows[@]}"; do
  base=$bench_work/scale-$hosts
  nic_count=$((hosts * nics))
  zsecs=$(best_secs "zcat-$hosts")
  dsecs=$(best_secs "diagnose-$hosts")
  mib=$(peak_mib "diagnose-$hosts")
  kib=$(awk -v l="diagnose-$hosts" '$1 == l && $3 > m {m = $3} END {print m}' "$bench_results")
  r=$(ratio "$dsecs" "$zsecs")
  verdict=PASS
  if ! at_most "$r" 1.0 || ! at_most "$mib" 1535; then
    verdict=FAIL
    bench_failed=1
  fi
  printf '%6d %6d %9s %8.0f %7.2f %9.2f %6s %8s %9.1f %9.1f  %s\n' "$hosts" "$nic_count" \
    "$(cat "$base.files")" "$(du -m "$base.tar.gz" | cut -f1)" "$zsecs" "$dsecs" "$r" "$mib" \
    "$(awk -v s="$dsecs" -v n="$nic_count" 'BEGIN {print s * 1e6 / n}')" \
    "$(awk -v k="$kib" -v n="$nic_count" 'BEGIN {print k / n}')" "$verdict"
done
for hosts in "${rows[@]}"; do
  [[ -f $bench_work/scale-$hosts.sim.time ]] &&
    echo "sim $hosts hosts: $(cat "$bench_work/scale-$hosts.sim.time") (s, peak KiB; when written)"
done
exit "$bench_failed"
