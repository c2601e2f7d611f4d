#!/usr/bin/env bash
# ib_collect: `netdoctor collect --fabric` against the largest subnet ibsim simulates with its
# default limits (ibsim 0.10: MAXNETNODES 2048 nodes, MAXNETSWITCHS 256, MAXNETPORTS 13312;
# `ibsim -N/-S/-P` raise them): a 2-tier HDR fat tree of 64-port switches, 32 spines, 60 leaves
# of 32 hosts = 2012 nodes, 1920 HCA ports and 5888 switch ports. opensm assigns the LIDs, every
# tool reaches ibsim through umad2sim. Two samples, no interval; reports seconds and ports.
# ibsim serves at most 10 clients at once (IBSIM_MAX_CLIENTS) and opensm is one: a
# fabric-parallel above 9 makes the surplus perfquery runs fail (collect notes each and goes on).
# Needs ibsim-utils, opensm, infiniband-diags (scripts/setup).
# Usage: bench/ib_collect.sh [path/to/netdoctor] [fabric-parallel]
# env: SPINES (32) LEAVES (60) HOSTS_PER_LEAF (32) RADIX (64)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-}"
if [ -z "$bin" ]; then
  for candidate in "$here"/build/*/cli/netdoctor; do
    [ -x "$candidate" ] && bin="$candidate" && break
  done
fi
[ -x "$bin" ] || { echo "ib_collect: netdoctor binary not found; pass its path" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
parallel="${2:-8}"
umad2sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
for tool in ibsim opensm sminfo iblinkinfo perfquery; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    { echo "ib_collect: $tool not installed (scripts/setup)" >&2; exit 2; }
done
[ -r "$umad2sim" ] || { echo "ib_collect: $umad2sim not installed" >&2; exit 2; }
export PATH="/usr/sbin:/usr/bin:/sbin:/bin:$PATH"

spines=${SPINES:-32} leaves=${LEAVES:-60} per_leaf=${HOSTS_PER_LEAF:-32} radix=${RADIX:-64}
# umad2sim writes a fake sysfs into each tool's working directory: keep it on tmpfs.
parent=/dev/shm
[ -d "$parent" ] && [ -w "$parent" ] || parent="${TMPDIR:-/tmp}"
work="$(mktemp -d "$parent/ib_collect.XXXXXX")"
pids=()
cleanup() {
  exec 3>&- 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The topology, in ibsim's netfile (ibnetdiscover) form.
awk -v S="$spines" -v L="$leaves" -v H="$per_leaf" -v R="$radix" 'BEGIN {
  link = "\t# lid 0 4xHDR"
  for (s = 1; s <= S; s++) {
    printf "Switch\t%d \"MF0;spine-%02d:MQM9700/U1\"\n", R, s
    for (l = 1; l <= L; l++) printf "[%d]\t\"MF0;leaf-%02d:MQM9700/U1\"[%d]%s\n", l, l, H + s, link
    print ""
  }
  for (l = 1; l <= L; l++) {
    printf "Switch\t%d \"MF0;leaf-%02d:MQM9700/U1\"\n", R, l
    for (h = 1; h <= H; h++) printf "[%d]\t\"node%04d mlx5_0\"[1]%s\n", h, (l - 1) * H + h, link
    for (s = 1; s <= S; s++) printf "[%d]\t\"MF0;spine-%02d:MQM9700/U1\"[%d]%s\n", H + s, s, l, link
    print ""
  }
  for (l = 1; l <= L; l++) for (h = 1; h <= H; h++) {
    printf "Hca\t1 \"node%04d mlx5_0\"\n", (l - 1) * H + h
    printf "[1]\t\"MF0;leaf-%02d:MQM9700/U1\"[%d]\t# lid 0 lmc 0 \"x\" lid 0 4xHDR\n\n", l, h
  }
}' > "$work/net"
nodes=$((spines + leaves + leaves * per_leaf))

export IBSIM_SOCKNAME="ib_collect-$$" LD_PRELOAD="$umad2sim" SIM_HOST="node0001 mlx5_0"
cd "$work"
mkfifo console
set -m  # background jobs in process groups of their own
ibsim -s net < console > ibsim.log 2>&1 &
pids+=($!)
exec 3> console  # held open: at EOF on its console ibsim spins
mkdir -p osm
OSM_CACHE_DIR="$work/osm" OSM_TMP_DIR="$work/osm" opensm -f "$work/osm/opensm.log" -s 0 \
  > osm/opensm.out 2>&1 &
pids+=($!)
set +m
start=$(date +%s.%N)
for _ in $(seq 1 600); do
  if sminfo 2>/dev/null | grep -q SMINFO_MASTER &&
    iblinkinfo > links.txt 2>/dev/null &&
    [ "$(grep -c LinkUp links.txt)" -gt 0 ] &&
    [ "$(grep -c LinkUp links.txt)" -eq "$(grep -c 'Active/  LinkUp' links.txt)" ]; then
    break
  fi
  sleep 0.5
done
up=$(echo "$(date +%s.%N) - $start" | bc -l)
active=$(grep -c 'Active/  LinkUp' links.txt || true)
[ "$active" -gt 0 ] || { echo "ib_collect: opensm did not bring the subnet up" >&2; tail ibsim.log osm/opensm.out >&2; exit 1; }

mkdir -p root
start=$(date +%s.%N)
LD_PRELOAD="$umad2sim" "$bin" collect --fabric --fabric-parallel "$parallel" --root root \
  --host bench --samples 2 --interval 0 --out bundle 2> collect.err
end=$(date +%s.%N)
total=$(echo "$end - $start" | bc -l)
sample=bundle/fabric/0/sos_commands/infiniband
switch_ports=$(cat "$sample"/perfquery_-x_-l_* | grep -c '^# Port extended counters')
hca_ports=$(ls "$sample" | grep -c '^perfquery_-x_[0-9]')
outputs=$(ls "$sample" | wc -l)
failed=$(grep -h 'failed commands' bundle/fabric/*/netdoctor_collect.log | sed 's/.* \([0-9]*\) failed commands/\1/' | paste -sd+ | bc)
printf 'ib_collect: ibsim fat tree %d spines x %d leaves x %d hosts: %d nodes, %d links Active (opensm up in %.1fs)\n' \
  "$spines" "$leaves" "$per_leaf" "$nodes" "$active" "$up"
printf 'ib_collect: per sample %d switch ports + %d HCA ports swept, %d files; %s failed commands\n' \
  "$switch_ports" "$hca_ports" "$outputs" "$failed"
printf 'ib_collect: collect --fabric, 2 samples, --fabric-parallel %s: %.2fs (%.2fs a sample)\n' \
  "$parallel" "$total" "$(echo "$total / 2" | bc -l)"
grep 'fabric sample [0-9]*: [0-9]* views' collect.err | sed 's/^/ib_collect: /'
