#!/usr/bin/env bash
# long_incident_bench (issue 20, long incidents): the same fabric captured with 2, 5, 10 and 20
# samples (HOSTS x NICS, a pfc-storm that begins half-way through the capture: `sim --onset`),
# each as one .tar.gz written by `netdoctor sim` straight to the archive, diagnosed by
# `netdoctor diagnose --format json --no-record`. Checked: the expected cause and culprit, and
# that the onset the diagnosis reports is the interval the simulator began the fault in (none
# for 2 samples: one interval). Measured: wall time and peak RSS per sample count, zcat of the
# same archive beside it, and the cost per sample: the diagnosis must grow at most linearly
# (time and memory at S samples within 1.25 x S/2 of the 2-sample figures, and the marginal cost
# per sample from 10 to 20 within 1.5x of that from 2 to 10: no quadratic term).
#
#   bench/long_incident_bench.sh [path/to/netdoctor]
#   env: HOSTS (256) NICS (8) SAMPLES ("2 5 10 20") FAULT (pfc-storm) SEED (1) RUNS (2)
#        WORK (/tmp/netdoctor-long-bench; archives kept there and reused by their stamp)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/build/release/cli/netdoctor}
[[ -x $bin ]] || { echo "long_incident_bench: no netdoctor binary at $bin" >&2; exit 2; }
command -v jq >/dev/null || { echo "long_incident_bench: needs jq" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "long_incident_bench: needs /usr/bin/time" >&2; exit 2; }
hosts=${HOSTS:-256}
nics=${NICS:-8}
fault=${FAULT:-pfc-storm}
seed=${SEED:-1}
runs=${RUNS:-2}
work=${WORK:-/tmp/netdoctor-long-bench}
mkdir -p "$work"

# make S: the archive of S samples (onset half-way: interval ceil((S-1)/2)), reused by stamp.
make_archive() {
  local samples=$1 onset=$(( samples / 2 ))
  local args=(sim --hosts "$hosts" --nics "$nics" --samples "$samples" --fault "$fault" --seed "$seed")
  ((samples > 2)) && args+=(--onset "$onset")
  local tgz=$work/s$samples.tar.gz
  if [[ -f $tgz && "$(cat "$tgz.stamp" 2>/dev/null)" == "${args[*]}" ]]; then
    return
  fi
  rm -f "$tgz" "$work/s$samples.expected.json"
  "$bin" "${args[@]}" --out "$tgz" >/dev/null
  echo "${args[*]}" >"$tgz.stamp"
}

# best LABEL CMD...: best wall of $runs runs and the largest peak RSS (KiB), as "secs kib".
best() {
  local best_s="" peak=0 s kib
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out.json" 2>"$work/err" || {
      echo "long_incident_bench: failed: $*" >&2; tail -5 "$work/err" >&2; exit 1; }
    read -r s kib <"$work/time"
    if [[ -z $best_s ]] || awk -v a="$s" -v b="$best_s" 'BEGIN {exit !(a < b)}'; then best_s=$s; fi
    ((kib > peak)) && peak=$kib
  done
  echo "$best_s $peak"
}

failed=0
declare -A secs mib
printf '%-8s %9s %9s %8s %10s %9s %8s %-26s\n' samples files "MiB(gz)" "zcat s" "diagnose s" "peak MiB" \
  "ms/samp" "onset (expected: found)"
for samples in ${SAMPLES:-2 5 10 20}; do
  make_archive "$samples"
  tgz=$work/s$samples.tar.gz
  expected=$work/s$samples.expected.json
  read -r zs _ < <(best zcat "$tgz")
  read -r ds kib < <(best "$bin" diagnose --no-record --symptom "$(jq -r .symptom "$expected")" \
    --format json --bundle "$tgz")
  # The last run's diagnosis: the cause, a culprit, and the onset.
  want_onset=$(jq -r '.onset_interval // 0' "$expected")
  got=$(jq -r --slurpfile want "$expected" '
    .causes[0] as $c
    | if $c.id != $want[0].cause then "wrong-cause:\($c.id)"
      elif ([$c.entities[] | select(. as $e | $want[0].culprits_any | index($e))] | length) == 0
        then "wrong-culprit"
      else ($c.onset.interval // 0 | tostring) end' "$work/out.json")
  verdict=ok
  [[ $got == "$want_onset" ]] || { verdict=MISS; failed=1; }
  files=$(tar -tzf "$tgz" | wc -l)
  secs[$samples]=$ds
  mib[$samples]=$((kib / 1024))
  printf '%-8s %9s %9.1f %8s %10s %9s %8.0f %-26s\n' "$samples" "$files" \
    "$(awk -v b="$(stat -c %s "$tgz")" 'BEGIN {print b / 1048576}')" "$zs" "$ds" "${mib[$samples]}" \
    "$(awk -v t="$ds" -v s="$samples" 'BEGIN {print 1000 * t / s}')" "$want_onset: $got $verdict"
done

# Linear growth: against the 2-sample run, and the marginal cost per sample above 10 samples.
if [[ -n ${secs[2]:-} && -n ${secs[10]:-} && -n ${secs[20]:-} ]]; then
  for s in ${SAMPLES:-2 5 10 20}; do
    awk -v t="${secs[$s]}" -v t2="${secs[2]}" -v m="${mib[$s]}" -v m2="${mib[2]}" -v s="$s" 'BEGIN {
      limit = 1.25 * s / 2
      ok = (t / t2 <= limit && m / m2 <= limit)
      printf "samples %2d: time %.2fx, memory %.2fx the 2-sample run (linear limit %.2fx) %s\n",
        s, t / t2, m / m2, limit, ok ? "PASS" : "FAIL"
      exit !ok }' || failed=1
  done
  awk -v a="${secs[2]}" -v b="${secs[10]}" -v c="${secs[20]}" 'BEGIN {
    low = (b - a) / 8; high = (c - b) / 10
    ok = high <= 1.5 * (low > 0.001 ? low : 0.001)
    printf "marginal cost per sample: %.0f ms (2->10), %.0f ms (10->20) %s\n", 1000 * low,
      1000 * high, ok ? "PASS" : "FAIL"
    exit !ok }' || failed=1
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
