#!/usr/bin/env bash
# Diagnose benchmark (issue 4): a 512-host, 8-NIC, 2-sample bundle with one fault (~600k files;
# pfc-storm unless FAULT says otherwise) diagnosed by `netdoctor diagnose --no-record`, against
# reading every file once with cat (page cache warm) for the directory, and against zcat for the
# same bundle as one .tar.gz. Targets: at most 2x the reading time, peak memory under 1 GiB, and
# the diagnosis names the simulator's expected cause and a culprit (bundle.expected.json).
#
#   bench/diagnose_bench.sh [BUILD_DIR (build/release)] [WORK_DIR]
# With FABRIC=ib HOSTS=256 the same for a 2,048-HCA InfiniBand fabric (issue 17: the same time
# class as a RoCE bundle of its size).
#
#   env: HOSTS NICS SAMPLES VENDORS FAULT SEED FABRIC (see bench_lib.sh), RUNS (3), KEEP=1 keeps
#        WORK_DIR (and its bundle, reused by the next run of this or load_bench.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build/release}
bench_work=${2:-/tmp/netdoctor-bench}
bin=${NETDOCTOR:-$build/cli/netdoctor}
[[ -x $bin ]] || { echo "no netdoctor binary at $bin" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq (apt-get install jq)" >&2; exit 1; }
mkdir -p "$bench_work"
# shellcheck source=bench/bench_lib.sh
source "$here/bench_lib.sh"

dir=$bench_work/bundle
tgz=$dir.tar.gz
make_bench_bundle "$bin" "$dir"
expected=$dir.expected.json
symptom=$(jq -r .symptom "$expected")
files=$(find "$dir" -type f | wc -l)

# The diagnosis in LABEL.out must give the expected verdict and top cause, naming a culprit.
check_diagnosis() { check_expected_diagnosis "$bench_work/$1.out" "$expected"; }

diagnose=(diagnose --no-record --symptom "$symptom" --format json)
find "$dir" -type f -print0 | xargs -0 cat >/dev/null  # warm the page cache
load_before=$(load_average)
for ((round = 0; round < ${RUNS:-3}; round++)); do
  time_cmd cat sh -c "find '$dir' -type f -print0 | xargs -0 cat >/dev/null"
  time_cmd diagnose_dir "$bin" "${diagnose[@]}" --bundle "$dir"
  check_diagnosis diagnose_dir
  time_cmd zcat sh -c "zcat '$tgz' >/dev/null"
  time_cmd diagnose_tgz "$bin" "${diagnose[@]}" --bundle "$tgz"
  check_diagnosis diagnose_tgz
done

echo "diagnose_bench: $files files ($(head -c 200 "$dir.stamp")); $(du -h "$tgz" | cut -f1) archive"
echo "found: $(jq -c '{verdict, cause: .causes[0].id, entities: .causes[0].entities[:3]}' \
  "$bench_work/diagnose_tgz.out") (expected $(jq -c '{cause, culprits_any}' "$expected"))"
echo "load average before: $load_before, after: $(load_average); best of ${RUNS:-3} rounds"
baseline cat "cat every file (warm)"
report diagnose_dir cat 2.0 1024 "diagnose --bundle DIR"
baseline zcat "zcat bundle.tar.gz"
report diagnose_tgz zcat 2.0 1024 "diagnose --bundle TAR.GZ"
[[ ${KEEP:-0} == 1 ]] || rm -rf "$bench_work"
exit "$bench_failed"
