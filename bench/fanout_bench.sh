#!/usr/bin/env bash
# fanout_bench (issue 20, fan-out): `netdoctor collect --hosts node[0001-N] --via pdsh` through a
# fake pdsh first on the PATH that answers like the real one: after a random delay of 0.1-3 s it
# prints a real one-host capture as `netdoctor collect --out - --base64` would (the capture of an
# 8-NIC host written by `netdoctor sim`, replayed for every host: fan-out names each host by the
# list, whatever the capture calls itself); a few hosts never answer (killed at --host-timeout)
# and a few fail as ssh does (exit 255, unreachable) or have no netdoctor (exit 127).
#
# Measured, for 128, 256, 512, 1,024 and 2,048 hosts at --parallel 128 (and 1,024 hosts at
# --parallel 1024): the wall time against the ideal schedule of the hosts' own delays over
# --parallel slots (with parallel >= hosts: the slowest host, a hang's timeout); the difference,
# the merge and everything else fan-out adds; peak RSS (flat: outputs are merged and freed as
# they come back, at most --parallel of them held); the hung and failed hosts left out of the
# bundle and named with their reasons; the final progress line's counts; the merged bundle read
# back by tar.
# Rounds interleave the sizes (bench/bench_lib.sh: a burst of load from other work hits them
# alike); the best wall time of the rounds is kept, and the largest peak RSS.
#
# Targets: wall <= ideal + merge allowance (1 s + 4 ms per host; with --parallel >= hosts, where
# every host starts at once and the merges pile up after the slowest ones, 1.2 x the merge of
# them all measured alone: hosts answering at once through --parallel cores), and peak RSS flat
# in the number of hosts: the largest size within 1.25x of the smallest size that reaches the steady
# state (hosts >= 4 x --parallel). What is held is bounded by --parallel, not by the hosts: a
# worker waiting for a merge slot holds its host's archive (about 70 KiB), so the peak rises
# with how many wait at once. A run of hosts <= --parallel starts every host together and is
# over before the waits pile up, so it peaks lower (measured at --parallel 128: 128 hosts 30 MiB,
# 256: 35, then 40, 41, 41 for 512, 1,024, 2,048; at --parallel 32, 128 hosts 28 and 512 hosts
# 30; at --parallel 256, 1,024 hosts 59). Its ratio is printed for information.
#
#   bench/fanout_bench.sh [path/to/netdoctor]
#   env: SIZES ("128 256 512 1024 2048") PARALLEL (128) TIMEOUT (5, seconds per host) SEED (1)
#        ROUNDS (2) WIDE (1: also WIDE_SIZE hosts with --parallel equal to it) WIDE_SIZE (1024)
#        BUILD=0 uses the built release binary as it is
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/build/release/cli/netdoctor}
if [[ -z ${1:-} && ${BUILD:-1} == 1 ]]; then
  (cd "$root" && cmake --preset release -DNETDOCTOR_BUILD_BENCH=ON >/dev/null &&
    cmake --build --preset release --target netdoctor >/dev/null)
fi
[[ -x $bin ]] || { echo "fanout_bench: no netdoctor binary at $bin" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "fanout_bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
sizes=${SIZES:-128 256 512 1024 2048}
wide=${WIDE_SIZE:-1024}
parallel=${PARALLEL:-128}
timeout=${TIMEOUT:-5}
seed=${SEED:-1}

rounds=${ROUNDS:-2}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/table"
bench_work=$work
# shellcheck source=bench/bench_lib.sh
. "$here/bench_lib.sh"

# One real capture, base64 as it comes through a launcher.
"$bin" sim --hosts 1 --nics 8 --samples 2 --seed "$seed" --out "$work/one" >/dev/null
tar -C "$work/one" -czf - hosts | base64 -w 76 >"$work/capture.b64"
capture_kib=$(( $(stat -c %s "$work/capture.b64") / 1024 ))

# Each host's fate: "ok DELAY", "hang", "fail DELAY 255|127". Hosts 7, 307, 607, 907 hang;
# 13, 213, 413, 613, 813 fail (so every size has at least one of each).
max=0
for n in $sizes; do ((n > max)) && max=$n; done
listed=$max
if [[ ${WIDE:-1} == 1 ]] && ((wide > listed)); then listed=$wide; fi
awk -v n="$listed" -v seed="$seed" -v dir="$work/table" 'BEGIN {
  srand(seed)
  for (i = 1; i <= n; i++) {
    host = sprintf("node%04d", i)
    delay = 0.1 + 2.9 * rand()
    if (i % 300 == 7) fate = "hang"
    else if (i % 200 == 13) fate = sprintf("fail %.3f %d", delay, (i % 400 == 13) ? 255 : 127)
    else fate = sprintf("ok %.3f", delay)
    print fate > (dir "/" host)
    close(dir "/" host)
  }
}'

# The same hosts all answering at once (no delay, none hangs or fails): what merging them costs.
mkdir -p "$work/table0"
for ((i = 1; i <= listed; i++)); do echo "ok 0" >"$work/table0/$(printf 'node%04d' "$i")"; done

cat >"$work/bin/pdsh" <<FAKE
#!/bin/bash
# pdsh -N -S [-R rcmd] -w HOST WORDS...: answers for HOST from the bench's table.
host=
while [ \$# -gt 0 ]; do
  case \$1 in
    -w) host=\$2; shift 2 ;;
    -R) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
read -r fate delay code <"\${FANOUT_TABLE:-$work/table}/\$host" || { echo "pdsh@bench: \$host: unknown host" >&2; exit 1; }
case \$fate in
  hang) exec sleep 3600 ;;
  fail)
    sleep "\$delay"
    if [ "\$code" = 255 ]; then
      echo "ssh: connect to host \$host port 22: No route to host" >&2
    else
      echo "bash: netdoctor: command not found" >&2
    fi
    echo "pdsh@bench: \$host: ssh exited with exit code \$code" >&2
    exit "\$code" ;;
esac
sleep "\$delay"
cat "$work/capture.b64"
FAKE
chmod +x "$work/bin/pdsh"

# ideal N P: the makespan of the hosts' own durations (a hang lasts the timeout) handed in list
# order to P slots, each host to the first slot free: the least any fan-out could take.
ideal() {
  for ((i = 1; i <= $1; i++)); do cat "$work/table/$(printf 'node%04d' "$i")"; done |
    awk -v p="$2" -v t="$timeout" '{
      d = ($1 == "hang") ? t : $2
      best = 1; for (s = 2; s <= p; s++) if (free[s] < free[best]) best = s
      free[best] += d
      if (d > slowest) slowest = d
    } END { m = 0; for (s = 1; s <= p; s++) if (free[s] > m) m = free[s]; printf "%.2f %.2f\n", m, slowest }'
}

verdict() { # verdict OK-EXPRESSION TEXT
  if awk "BEGIN {exit !($1)}"; then echo "fanout_bench: $2: PASS"; else echo "fanout_bench: $2: FAIL"; bench_failed=1; fi
}

# run N P: one fan-out (bench_lib's time_cmd records its wall and peak RSS under "nN-pP"),
# then checks what it left out, the last progress line and the bundle.
run() {
  local n=$1 p=$2 label="n$1-p$2"
  local out="$work/$label.tar.gz"
  PATH="$work/bin:$PATH" time_cmd "$label" \
    "$bin" collect --hosts "node[0001-$(printf '%04d' "$n")]" --via pdsh --parallel "$p" \
    --host-timeout "$timeout" --no-fabric --out "$out"
  local hung=0 bad=0 named=0 i host fate
  for ((i = 1; i <= n; i++)); do
    host=$(printf 'node%04d' "$i")
    read -r fate _ <"$work/table/$host"
    case $fate in
      hang) hung=$((hung + 1))
            grep -q "collect:   $host: timed out" "$work/$label.err" && named=$((named + 1)) ;;
      fail) bad=$((bad + 1))
            grep -q "collect:   $host: exit" "$work/$label.err" && named=$((named + 1)) ;;
    esac
  done
  local left=$((hung + bad)) merged counts
  merged=$(tar -tzf "$out" | awk -F/ '$1 == "hosts" && $2 != "" {print $2}' | sort -u | wc -l)
  counts=$(grep -o "[0-9]*/$n hosts done, [0-9]* failed, [0-9]* pending" "$work/$label.err" | tail -1 || true)
  verdict "$merged == $n - $left && $named == $left" "$label: the $left hung/failed hosts left out and named, the other $merged merged"
  verdict "\"$counts\" == \"$((n - left))/$n hosts done, $left failed, 0 pending\"" "$label: the last progress line \"$counts\""
  rm -f "$out"
}

# merge_only N: N hosts answering at once, fanned out --parallel (cores): the time of the merge
# alone (spawning each launcher, reading, decoding, unpacking and recompressing its capture,
# appending it), which a fan-out wider than the cores cannot hide behind the hosts' delays.
merge_only() {
  FANOUT_TABLE=$work/table0 PATH="$work/bin:$PATH" time_cmd "merge-n$1" \
    "$bin" collect --hosts "node[0001-$(printf '%04d' "$1")]" --via pdsh --parallel "$(nproc)" \
    --host-timeout "$timeout" --no-fabric --out "$work/merge.tar.gz"
  rm -f "$work/merge.tar.gz"
}

echo "fanout_bench: capture ${capture_kib} KiB base64 per host; delays 0.1-3 s; host timeout ${timeout} s; $rounds rounds; load average $(load_average)"
for ((round = 1; round <= rounds; round++)); do
  for n in $sizes; do
    run "$n" "$parallel"
  done
  if [[ ${WIDE:-1} == 1 ]]; then
    run "$wide" "$wide"
    merge_only "$wide"
  fi
done

# The table: best wall of the rounds, largest peak RSS.
row() { # row N P
  local n=$1 p=$2 label="n$1-p$2" wall rss ideal_s slowest_s overhead allowance
  wall=$(best_secs "$label")
  rss=$(peak_mib "$label")
  read -r ideal_s slowest_s < <(ideal "$n" "$p")
  overhead=$(awk -v a="$wall" -v b="$ideal_s" 'BEGIN {printf "%.2f", a - b}')
  allowance=$(awk -v n="$n" 'BEGIN {printf "%.2f", 1.0 + n * 0.004}')
  if ((p >= n)) && [[ -n $(best_secs "merge-n$n") ]]; then
    # Every host at once: the bound is the slowest host plus the merge of them all, measured
    # alone (merge_only), with 20 % for the two running together.
    allowance=$(awk -v m="$(best_secs "merge-n$n")" 'BEGIN {printf "%.2f", 1.2 * m}')
  fi
  local ok=PASS
  at_most "$overhead" "$allowance" || { ok=FAIL; bench_failed=1; }
  printf 'fanout_bench: %5d %9d %8.2f %9.2f %8.2f %9.2f %9s %5d   %s\n' "$n" "$p" "$wall" "$ideal_s" \
    "$slowest_s" "$overhead" "<= $allowance" "$rss" "$ok"
}
if [[ ${WIDE:-1} == 1 ]]; then
  echo "fanout_bench: merging $wide captures alone (all answering at once, --parallel $(nproc)): $(best_secs "merge-n$wide") s, $(peak_mib "merge-n$wide") MiB"
fi
echo "fanout_bench: hosts  parallel  wall(s)  ideal(s)  slowest  merge+ovh  allowance   MiB   wall <= ideal + merge"
for n in $sizes; do
  row "$n" "$parallel"
done
if [[ ${WIDE:-1} == 1 ]]; then
  row "$wide" "$wide"
fi
first=${sizes%% *}
steady=
for n in $sizes; do
  if ((n >= 4 * parallel)) && [[ -z $steady ]]; then steady=$n; fi
done
first_mib=$(peak_mib "n$first-p$parallel")
max_mib=$(peak_mib "n$max-p$parallel")
echo "fanout_bench: peak RSS from $first hosts (all started at once) to $max: $first_mib -> $max_mib MiB ($(ratio "$max_mib" "$first_mib")x; for information)"
if [[ -n $steady && $steady != "$max" ]]; then
  steady_mib=$(peak_mib "n$steady-p$parallel")
  verdict "$max_mib <= $steady_mib * 1.25" "peak RSS flat at --parallel $parallel: $max hosts $max_mib MiB vs $steady hosts $steady_mib MiB ($(ratio "$max_mib" "$steady_mib")x, target <= 1.25x)"
else
  echo "fanout_bench: no two sizes of at least 4 x --parallel ($((4 * parallel)) hosts): flatness not judged"
fi
echo "fanout_bench: load average $(load_average)"
exit "$bench_failed"
