#!/usr/bin/env bash
# fanout_bench (issue 20, fan-out): `netdoctor collect --hosts node[0001-N] --via pdsh` through a
# fake pdsh first on the PATH that answers like the real one: after a random delay of 0.1-3 s it
# prints a real one-host capture as `netdoctor collect --out - --base64` would (the capture of an
# 8-NIC host written by `netdoctor sim`, replayed for every host: fan-out names each host by the
# list, whatever the capture calls itself); a few hosts never answer (killed at --host-timeout)
# and a few fail as ssh does (exit 255, unreachable) or have no netdoctor (exit 127).
#
# Measured: wall time against the ideal schedule of the hosts' own delays over --parallel slots
# (with parallel >= hosts: the slowest host), the difference being the merge plus overhead; peak
# RSS at 128, 256, 512 and 1,024 hosts with --parallel fixed (flat: outputs are merged and freed
# as they come back, at most --parallel of them held); the hung and failed hosts left out of the
# bundle and named with their reasons; the final progress line's counts.
#
#   bench/fanout_bench.sh [path/to/netdoctor]
#   env: SIZES ("128 256 512 1024") PARALLEL (128) TIMEOUT (5, seconds per host) SEED (1)
#        WIDE (1: also 1,024 hosts with --parallel 1024, bounded by the slowest host)
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
sizes=${SIZES:-128 256 512 1024}
parallel=${PARALLEL:-128}
timeout=${TIMEOUT:-5}
seed=${SEED:-1}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/table"

# One real capture, base64 as it comes through a launcher.
"$bin" sim --hosts 1 --nics 8 --samples 2 --seed "$seed" --out "$work/one" >/dev/null
tar -C "$work/one" -czf - hosts | base64 -w 76 >"$work/capture.b64"
capture_kib=$(( $(stat -c %s "$work/capture.b64") / 1024 ))

# Each host's fate: "ok DELAY", "hang", "fail DELAY 255|127". Hosts 7, 307, 607, 907 hang;
# 13, 213, 413, 613, 813 fail (so every size has at least one of each).
max=0
for n in $sizes; do ((n > max)) && max=$n; done
awk -v n="$max" -v seed="$seed" -v dir="$work/table" 'BEGIN {
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
read -r fate delay code <"$work/table/\$host" || { echo "pdsh@bench: \$host: unknown host" >&2; exit 1; }
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

failed=0
verdict() { # verdict OK-EXPRESSION TEXT
  if awk "BEGIN {exit !($1)}"; then echo "fanout_bench: $2: PASS"; else echo "fanout_bench: $2: FAIL"; failed=1; fi
}

# run N P: one fan-out; sets wall, rss_mib, ideal_s, slowest_s and checks what it left out.
run() {
  local n=$1 p=$2 label="n$1-p$2"
  local out="$work/$label.tar.gz"
  PATH="$work/bin:$PATH" /usr/bin/time -f '%e %M' -o "$work/$label.time" \
    "$bin" collect --hosts "node[0001-$(printf '%04d' "$n")]" --via pdsh --parallel "$p" \
    --host-timeout "$timeout" --no-fabric --out "$out" 2>"$work/$label.err" || {
      echo "fanout_bench: collect failed at $n hosts" >&2; tail -5 "$work/$label.err" >&2; exit 1; }
  read -r wall rss_kib <"$work/$label.time"
  rss_mib=$(( rss_kib / 1024 ))
  read -r ideal_s slowest_s < <(ideal "$n" "$p")
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
  left=$((hung + bad))
  merged=$(tar -tzf "$out" | awk -F/ '$1 == "hosts" && $2 != "" {print $2}' | sort -u | wc -l)
  counts=$(grep -o "[0-9]*/$n hosts done, [0-9]* failed, [0-9]* pending" "$work/$label.err" | tail -1 || true)
  printf 'fanout_bench: %4d hosts, parallel %4d: wall %6.2f s, ideal %6.2f s (slowest host %.2f s), merge+overhead %5.2f s, peak RSS %4d MiB; %d hung + %d failed left out (%d named), %d merged; last progress "%s"\n' \
    "$n" "$p" "$wall" "$ideal_s" "$slowest_s" "$(awk -v a="$wall" -v b="$ideal_s" 'BEGIN {print a - b}')" \
    "$rss_mib" "$hung" "$bad" "$named" "$merged" "$counts"
  verdict "$merged == $n - $left && $named == $left" "$n hosts: the $left hung/failed hosts left out and named, the rest merged"
  verdict "\"$counts\" == \"$((n - left))/$n hosts done, $left failed, 0 pending\"" "$n hosts: the final progress line's counts"
}

echo "fanout_bench: capture ${capture_kib} KiB base64 per host; delays 0.1-3 s; host timeout ${timeout} s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A rss
for n in $sizes; do
  run "$n" "$parallel"
  rss[$n]=$rss_mib
  verdict "$wall - $ideal_s <= 1.0 + $n * 0.004" "$n hosts: wall within the ideal schedule plus the merge (1 s + 4 ms/host)"
done
first=${sizes%% *}
for n in $sizes; do
  verdict "${rss[$n]} <= ${rss[$first]} * 1.25 + 16" "peak RSS flat in the hosts at parallel $parallel: $n hosts ${rss[$n]} MiB vs $first hosts ${rss[$first]} MiB"
done
if [[ ${WIDE:-1} == 1 ]]; then
  run "$max" "$max"
  verdict "$wall - $slowest_s <= 1.0 + $max * 0.004" "$max hosts all at once: wall within the slowest host ($slowest_s s, a hang's timeout) plus the merge"
fi
echo "fanout_bench: load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
