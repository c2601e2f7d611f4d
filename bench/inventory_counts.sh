#!/usr/bin/env bash
# The 512-host simulator bundle read back through `netdoctor inventory` (issue 3): every host
# with all its NICs and samples, every NIC cabled to a switch port, every switch the simulator
# wrote with its ports, no problem - as a directory and as a .tar.gz. Counts come from the
# simulator's expected.json (hosts, NICs per host) and the bundle's own directory listing, not
# from netdoctor. (Small fabrics are checked the same way by tests/sim/readback_counts_test.cc.)
#
#   bench/inventory_counts.sh [BUILD_DIR (build/release)] [WORK_DIR]
#   env: as load_bench.sh (the bundle is shared with it and diagnose_bench.sh)
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
make_bench_bundle "$bin" "$dir"
expected=$dir.expected.json
hosts=$(jq .hosts "$expected")
nics=$(jq .nics_per_host "$expected")
samples=${SAMPLES:-2}
switches=$(find "$dir/switches" -mindepth 1 -maxdepth 1 -type d | wc -l)

failed=0
for source in "$dir" "$dir.tar.gz"; do
  json=$bench_work/inventory.json
  "$bin" inventory --bundle "$source" --format json >"$json"
  read -r got_hosts got_nics cabled sampled got_switches ports problems < <(jq -r --argjson s "$samples" '
    [(.hosts | length),
     ([.hosts[].nics[]] | length),
     ([.hosts[].nics[] | select((.switch_port // "") | startswith("port:"))] | length),
     ([.hosts[] | select(.samples == $s)] | length),
     (.switches | length),
     ([.switches[].ports[]] | length),
     (.problems | length)] | @tsv' "$json")
  verdict=PASS
  if [[ $got_hosts != "$hosts" || $got_nics != $((hosts * nics)) || $cabled != "$got_nics" ||
        $sampled != "$hosts" || $got_switches != "$switches" || $problems != 0 ]]; then
    verdict=FAIL
    failed=1
  fi
  printf '%-8s hosts %s/%s, NICs %s/%s (cabled %s), hosts with %s samples %s, switches %s/%s (%s ports), problems %s: %s\n' \
    "$([[ $source == *.tar.gz ]] && echo tar.gz || echo dir)" "$got_hosts" "$hosts" "$got_nics" \
    "$((hosts * nics))" "$cabled" "$samples" "$sampled" "$got_switches" "$switches" "$ports" \
    "$problems" "$verdict"
done
exit "$failed"
