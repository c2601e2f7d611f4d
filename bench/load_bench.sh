#!/usr/bin/env bash
# Load benchmark (issue 2): a 512-host, 8-NIC, 2-sample bundle (~600k files) loaded into the
# model by `netdoctor inventory`, against reading every file once with cat (page cache warm) for
# the directory, and against zcat for the same bundle as a .tar.gz. Targets: at most 1.5x the
# reading time, peak memory under 1 GiB. Measured side by side, in interleaved rounds.
#
#   bench/load_bench.sh [BUILD_DIR (build/release)] [WORK_DIR]
#   env: HOSTS NICS SAMPLES VENDORS FAULT SEED (see bench_lib.sh), RUNS (3), KEEP=1 keeps
#        WORK_DIR (and its bundle, reused by the next run of this or diagnose_bench.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
bench_work=${2:-/tmp/netdoctor-bench}
bin=${NETDOCTOR:-$build/cli/netdoctor}
[[ -x $bin ]] || { echo "no netdoctor binary at $bin" >&2; exit 1; }
mkdir -p "$bench_work"
# shellcheck source=bench/bench_lib.sh
source "$here/bench_lib.sh"

dir=$bench_work/bundle
tgz=$dir.tar.gz
make_bench_bundle "$bin" "$dir"
files=$(find "$dir" -type f | wc -l)

find "$dir" -type f -print0 | xargs -0 cat >/dev/null  # warm the page cache
load_before=$(load_average)
for ((round = 0; round < ${RUNS:-3}; round++)); do
  time_cmd cat sh -c "find '$dir' -type f -print0 | xargs -0 cat >/dev/null"
  time_cmd load_dir "$bin" inventory --bundle "$dir" --format json
  time_cmd zcat sh -c "zcat '$tgz' >/dev/null"
  time_cmd load_tgz "$bin" inventory --bundle "$tgz" --format json
done

echo "load_bench: $files files ($(head -c 200 "$dir.stamp")); $(du -h "$tgz" | cut -f1) archive"
echo "load average before: $load_before, after: $(load_average); best of ${RUNS:-3} rounds"
baseline cat "cat every file (warm)"
report load_dir cat 1.5 1024 "inventory --bundle DIR"
baseline zcat "zcat bundle.tar.gz"
report load_tgz zcat 1.5 1024 "inventory --bundle TAR.GZ"
[[ ${KEEP:-0} == 1 ]] || rm -rf "$bench_work"
exit "$bench_failed"
