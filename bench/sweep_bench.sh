#!/usr/bin/env bash
# Sweep benchmark (issue acceptance point): on the fake cluster (sim/fake_cluster.h), 1,024
# hosts x 8 NICs with one hidden fault, `netdoctor sweep`'s search against a plain ring (the
# same engine) and all-pairs (computed, not run): rounds, runs and modelled wall time to name
# the fault. Target: the sweep names the injected fault within the budget (10 modelled minutes).
# Builds sweep_bench with the release preset (the benchmarks switched on: the preset leaves them
# off), runs it once per fault and prints its table and JSON lines.
#
#   bench/sweep_bench.sh [SWEEP_BENCH_ARGS...]     e.g. --parallel 256 --seed 7
#   env: FAULTS ("slow-nic bad-cable alltoall"), BUILD=0 uses the built binary as it is,
#        SWEEP_BENCH (path to a built sweep_bench; implies BUILD=0)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${SWEEP_BENCH:-$root/build/release/bench/sweep_bench}
if [[ -z ${SWEEP_BENCH:-} && ${BUILD:-1} == 1 ]]; then
  (cd "$root" && cmake --preset release -DNETDOCTOR_BUILD_BENCH=ON >/dev/null &&
    cmake --build --preset release --target sweep_bench >/dev/null)
fi
[[ -x $bin ]] || { echo "no sweep_bench binary at $bin" >&2; exit 1; }

failed=0
for fault in ${FAULTS:-slow-nic bad-cable alltoall}; do
  out=$("$bin" --fault "$fault" "$@")
  echo "$out"
  line=$(grep '"strategy":"sweep"' <<<"$out")
  verdict=PASS
  if ! grep -q '"found":true' <<<"$line" || ! grep -q '"fits_budget":true' <<<"$line"; then
    verdict=FAIL
    failed=1
  fi
  echo "sweep_bench $fault: the sweep names the injected fault within the budget: $verdict;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
done
exit "$failed"
