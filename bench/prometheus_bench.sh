#!/usr/bin/env bash
# Prometheus benchmark (issue 20): `netdoctor diagnose --prometheus URL` against a real Prometheus
# (Debian `prometheus`/`promtool`) holding 512 and 4,096 hosts x 8 NICs of node_exporter series
# plus their switches' series (snmp_exporter if_mib, sonic-exporter queues, PFC, LLDP) for the
# window, with one fault (pfc-storm unless FAULT says otherwise). Targets, per size: under 10 s
# and under 1 GiB peak RSS for netdoctor end to end, and the diagnosis names the injected cause
# and a culprit. Prometheus' own memory is printed beside (it is not netdoctor's). On a machine
# shared by both, two more measures split the time: netdoctor alone (one run's answers recorded
# and replayed, Prometheus stopped) and Prometheus alone (the same requests asked again by a
# client that only reads the bytes), both by bench/prometheus_replay.py.
#
#   bench/prometheus_bench.sh [BUILD_DIR (build/release)] [WORK_DIR (/tmp/netdoctor-prom-bench)]
#
# Data: `netdoctor sim` writes a 512-host fabric with the fault and a healthy one of the same
# shape; bench/prometheus_openmetrics exports each as OpenMetrics (the real-Prometheus tests'
# exporter, tests/remote/openmetrics_export.cc), the healthy one as a template whose machines are
# renamed per pod; `promtool tsdb create-blocks-from openmetrics` backfills one block per pod.
# 512 hosts = the faulty pod; 4,096 = it and seven healthy pods (each its own leaves and spines).
# Everything is kept in WORK_DIR while a stamp says it was made with the same settings.
#
#   env: FAULT (pfc-storm) RUNS (3) ETHTOOL (used: only the ethtool stats model/counters.tsv
#        names, on every priority, of which netdoctor asks for the priorities its probes read;
#        all: every stat the simulator's NICs have, ~2.2x the series) SIZES ("512 4096") BATCH
#        (hosts per query; netdoctor's default)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
build=${1:-$root/build/release}
work=${2:-/tmp/netdoctor-prom-bench}
runs=${RUNS:-3}
fault=${FAULT:-pfc-storm}
ethtool=${ETHTOOL:-used}
sizes=${SIZES:-512 4096}
for tool in prometheus promtool jq /usr/bin/time curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install prometheus jq time curl)" >&2; exit 1; }
done
mkdir -p "$work"

if [[ -z ${NETDOCTOR:-} ]]; then
  (cd "$root" && cmake --preset release -DNETDOCTOR_BUILD_BENCH=ON -DNETDOCTOR_BUILD_TESTS=ON >/dev/null &&
     cmake --build --preset release -j2 --target netdoctor prometheus_openmetrics >/dev/null)
fi
bin=${NETDOCTOR:-$build/cli/netdoctor}
exporter=$build/bench/prometheus_openmetrics
[[ -x $bin && -x $exporter ]] || { echo "no netdoctor or prometheus_openmetrics in $build" >&2; exit 1; }

# --- data, cached by a stamp --------------------------------------------------------------------
pods=8
sim=(sim --hosts 512 --nics 8 --samples 2 --vendors mlx5,bnxt --seed 1)
if [[ ! -f $work/sim.stamp || "$(cat "$work/sim.stamp")" != "${sim[*]} $fault" ]]; then
  rm -rf "$work"/{fault,healthy,stamp,sim.stamp}
  "$bin" "${sim[@]}" --fault "$fault" --out "$work/fault" >/dev/null
  "$bin" "${sim[@]}" --fault healthy --out "$work/healthy" >/dev/null
  echo "${sim[*]} $fault" >"$work/sim.stamp"
fi
stamp_text="fault=$fault ethtool=$ethtool pods=$pods exporter=1"
if [[ ! -f $work/stamp || "$(cat "$work/stamp")" != "$stamp_text" ]]; then
  echo "prometheus_bench: building the data in $work (once; kept while the stamp matches)" >&2
  rm -rf "$work"/{pod*,tsdb*,serve-*,*.om,times,stamp,backfill.txt}
  end=$(($(date +%s) - 3600))  # inside the default lookback of nothing: --at is explicit
  "$exporter" --bundle "$work/fault" --end "$end" --ethtool "$ethtool" \
    >"$work/pod0.om" 2>"$work/pod0.info"
  "$exporter" --bundle "$work/healthy" --end "$end" --prefix @POD@ --ethtool "$ethtool" \
    >"$work/template.om" 2>"$work/template.info"
  # Both sims share a timeline (same seed and interval): the copies fall in the same window.
  [[ "$(cut -d' ' -f1-2 "$work/pod0.info")" == "$(cut -d' ' -f1-2 "$work/template.info")" ]] ||
    { echo "the two sims' windows differ: $(cat "$work"/*.info)" >&2; exit 1; }
  : >"$work/backfill.txt"
  for ((pod = 0; pod < pods; pod++)); do
    om=$work/pod0.om
    if ((pod > 0)); then
      om=$work/pod.om
      sed "s/@POD@/p$pod-/g" "$work/template.om" >"$om"
    fi
    /usr/bin/time -f "%e %M" -o "$work/backfill.time" \
      promtool tsdb create-blocks-from openmetrics "$om" "$work/tsdb-pod$pod" >/dev/null
    echo "pod$pod $(cat "$work/backfill.time")" >>"$work/backfill.txt"
  done
  rm -f "$work/pod.om"
  echo "$stamp_text" >"$work/stamp"
fi
read -r _ window_start window_at < <(sed 's/start=\([^ ]*\) at=\([^ ]*\).*/x \1 \2/' "$work/pod0.info")
pod_series=$(sed 's/.*series=\([0-9]*\).*/\1/' "$work/pod0.info")
copy_series=$(sed 's/.*series=\([0-9]*\).*/\1/' "$work/template.info")
window=$(awk -v a="$window_at" -v s="$window_start" 'BEGIN {printf "%.3fs", a - s}')
expected=$work/fault.expected.json

# --- one Prometheus per size, stopped at exit -----------------------------------------------------
prom_pid=
# stop_process VAR: stops the process whose pid VAR holds, and empties VAR.
stop_process() {
  local -n pid=$1
  if [[ -n $pid ]]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
  fi
}
stop_prometheus() { stop_process prom_pid; }
# The replay proxy (bench/prometheus_replay.py): records one run's answers, then serves them, so
# that netdoctor's own time is measured with Prometheus' work taken out of the two shared cores.
proxy_pid=
stop_proxy() { stop_process proxy_pid; }
# start_proxy record UPSTREAM DIR | start_proxy replay DIR: sets proxy_url.
start_proxy() {
  local port_file=$work/proxy.port
  rm -f "$port_file"
  python3 "$here/prometheus_replay.py" "$@" "$port_file" &
  proxy_pid=$!
  for _ in $(seq 1 100); do
    [[ -s $port_file ]] && { proxy_url=http://127.0.0.1:$(cat "$port_file"); return; }
    sleep 0.1
  done
  echo "the replay proxy did not start" >&2
  exit 1
}
trap 'stop_proxy; stop_prometheus' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_prometheus HOSTS: serves the pods of that size from a data dir of hard links to the blocks.
start_prometheus() {
  local hosts=$1 data=$work/serve-$1 n=$(($1 / 512)) port
  rm -rf "$data"
  mkdir -p "$data"
  for ((pod = 0; pod < n; pod++)); do
    for block in "$work/tsdb-pod$pod"/*/; do
      [[ -f $block/meta.json ]] && cp -al "$block" "$data/"
    done
  done
  printf 'global:\n  scrape_interval: 15s\n' >"$work/prometheus.yml"
  port=$(free_port)
  prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$data" \
    --storage.tsdb.retention.time=10y --web.listen-address="127.0.0.1:$port" \
    >"$work/prometheus-$hosts.log" 2>&1 &
  prom_pid=$!
  url=http://127.0.0.1:$port
  for _ in $(seq 1 300); do
    curl -fs "$url/-/ready" >/dev/null 2>&1 && return
    sleep 0.5
  done
  echo "prometheus did not become ready: $(tail -5 "$work/prometheus-$hosts.log")" >&2
  exit 1
}

check_diagnosis() {
  jq -e --slurpfile want "$expected" '
      ($want[0]) as $w
      | .causes[0].id == $w.cause
        and any(.causes[0].entities[]; . as $e | $w.culprits_any | index($e))' "$1" >/dev/null
}

# Prometheus' CPU seconds so far (utime + stime of /proc/PID/stat, in clock ticks).
prom_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$prom_pid/stat"
}

declare -A secs mib series queries bytes found prom_mib cpu prom_cpu_s
declare -A replay_secs replay_cpu replay_mib replay_found server_secs server_cpu
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
symptom=$(jq -r .symptom "$expected")
for hosts in $sizes; do
  start_prometheus "$hosts"
  best= peak=0
  for ((round = 0; round < runs; round++)); do
    out=$work/diagnose-$hosts.json err=$work/diagnose-$hosts.err
    prom_before=$(prom_cpu)
    /usr/bin/time -f '%e %M %U %S' -o "$work/diagnose.time" "$bin" diagnose --no-record \
      --format json --symptom "$symptom" --prometheus "$url" --at "$window_at" \
      --window "$window" ${BATCH:+--prometheus-batch "$BATCH"} >"$out" 2>"$err" || true
    read -r wall rss user sys <"$work/diagnose.time"
    if [[ -z $best ]] || awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then
      best=$wall
      # Where the time of the best run went, in CPU seconds: the 2 cores are shared.
      cpu[$hosts]=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
      prom_cpu_s[$hosts]=$(awk -v a="$prom_before" -v b="$(prom_cpu)" 'BEGIN {printf "%.1f", b - a}')
    fi
    ((rss > peak)) && peak=$rss
  done
  secs[$hosts]=$best
  mib[$hosts]=$((peak / 1024))
  line=$(grep -o 'read [0-9]* series.*' "$err" | tail -1 || true)
  series[$hosts]=$(sed 's/read \([0-9]*\) series.*/\1/' <<<"$line")
  queries[$hosts]=$(sed 's/.* in \([0-9]*\) queries.*/\1/' <<<"$line")
  bytes[$hosts]=$(sed 's/.*queries, \([0-9.]*\) MiB.*/\1/' <<<"$line")
  found[$hosts]=no
  if check_diagnosis "$out"; then
    found[$hosts]=yes
  else
    echo "prometheus_bench: $hosts hosts: the fault was not found:" >&2
    jq -c '{verdict, top: .causes[0] | {id, entities: .entities[:3]}, problems: .data_problems[:5]}' \
      "$out" >&2 || tail -5 "$err" >&2
  fi
  prom_mib[$hosts]=$(awk '/VmHWM/ {printf "%d", $2 / 1024}' "/proc/$prom_pid/status")
  diagnose_args=(diagnose --no-record --format json --symptom "$symptom" --at "$window_at"
    --window "$window" ${BATCH:+--prometheus-batch "$BATCH"})
  # netdoctor alone: the same run's answers recorded once, then replayed without Prometheus.
  recorded=$work/answers-$hosts
  rm -rf "$recorded"
  start_proxy record "$url" "$recorded"
  "$bin" "${diagnose_args[@]}" --prometheus "$proxy_url" >/dev/null 2>&1 || true
  stop_proxy
  # Prometheus alone: the same requests asked again by a client that only reads the bytes.
  best=
  for ((round = 0; round < runs; round++)); do
    prom_before=$(prom_cpu)
    wall=$(python3 "$here/prometheus_replay.py" ask "$url" "$recorded")
    if [[ -z $best ]] || awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then
      best=$wall
      server_cpu[$hosts]=$(awk -v a="$prom_before" -v b="$(prom_cpu)" 'BEGIN {printf "%.1f", b - a}')
    fi
  done
  server_secs[$hosts]=$best
  stop_prometheus
  start_proxy replay "$recorded"
  best= peak=0
  for ((round = 0; round < runs; round++)); do
    out=$work/replayed-$hosts.json
    /usr/bin/time -f '%e %M %U %S' -o "$work/diagnose.time" "$bin" "${diagnose_args[@]}" \
      --prometheus "$proxy_url" >"$out" 2>"$work/replayed-$hosts.err" || true
    read -r wall rss user sys <"$work/diagnose.time"
    if [[ -z $best ]] || awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then
      best=$wall
      replay_cpu[$hosts]=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
    fi
    ((rss > peak)) && peak=$rss
  done
  stop_proxy
  rm -rf "$recorded"
  replay_secs[$hosts]=$best
  replay_mib[$hosts]=$((peak / 1024))
  replay_found[$hosts]=no
  check_diagnosis "$out" && replay_found[$hosts]=yes
done

echo "prometheus_bench: fault $fault, window $window ending $window_at; ethtool series: $ethtool;" \
  "best of $runs; load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "backfill (promtool, per pod: seconds, peak KiB): $(tr '\n' ';' <"$work/backfill.txt")"
printf '%-34s' "hosts x 8 NICs"
for hosts in $sizes; do printf '%14s' "$hosts"; done
echo
row() {
  local title=$1
  shift
  printf '%-34s' "$title"
  for value in "$@"; do printf '%14s' "$value"; done
  echo
}
failed=0
values() { local -n map=$1; for hosts in $sizes; do printf '%s ' "${map[$hosts]}"; done; }
# within_targets SECS MIB FOUND: under 10 s and 1 GiB, the fault and culprit found.
within_targets() {
  awk -v s="$1" -v m="$2" 'BEGIN {exit !(s < 10 && m < 1024)}' && [[ $3 == yes ]]
}
declare -A held verdict replay_verdict
for hosts in $sizes; do
  held[$hosts]=$((pod_series + (hosts / 512 - 1) * copy_series))
  verdict[$hosts]=PASS
  if ! within_targets "${secs[$hosts]}" "${mib[$hosts]}" "${found[$hosts]}"; then
    verdict[$hosts]=FAIL
    failed=1
  fi
  # netdoctor's own part, as against a Prometheus on cores of its own; informative, the exit
  # status stays the end-to-end verdict's.
  replay_verdict[$hosts]=PASS
  if ! within_targets "${replay_secs[$hosts]}" "${replay_mib[$hosts]}" "${replay_found[$hosts]}"; then
    replay_verdict[$hosts]=FAIL
  fi
done
# shellcheck disable=SC2046
row "series held by Prometheus" $(values held)
# shellcheck disable=SC2046
row "series read by netdoctor" $(values series)
# shellcheck disable=SC2046
row "queries (listing + batches)" $(values queries)
# shellcheck disable=SC2046
row "MiB received" $(values bytes)
# shellcheck disable=SC2046
row "netdoctor wall s (target < 10)" $(values secs)
# shellcheck disable=SC2046
row "netdoctor CPU s (user + sys)" $(values cpu)
# shellcheck disable=SC2046
row "prometheus CPU s in that run" $(values prom_cpu_s)
# shellcheck disable=SC2046
row "netdoctor peak MiB (target < 1024)" $(values mib)
# shellcheck disable=SC2046
row "fault and culprit found" $(values found)
# shellcheck disable=SC2046
row "prometheus peak MiB (not ours)" $(values prom_mib)
# shellcheck disable=SC2046
row "verdict" $(values verdict)
echo "netdoctor alone (the answers of one run recorded, then replayed: Prometheus' CPU taken out)"
# shellcheck disable=SC2046
row "  netdoctor wall s" $(values replay_secs)
# shellcheck disable=SC2046
row "  netdoctor CPU s (user + sys)" $(values replay_cpu)
# shellcheck disable=SC2046
row "  netdoctor peak MiB" $(values replay_mib)
# shellcheck disable=SC2046
row "  fault and culprit found" $(values replay_found)
# shellcheck disable=SC2046
row "  verdict (netdoctor's part)" $(values replay_verdict)
echo "prometheus alone (the same requests asked again by a client that only reads the bytes)"
# shellcheck disable=SC2046
row "  prometheus wall s" $(values server_secs)
# shellcheck disable=SC2046
row "  prometheus CPU s" $(values server_cpu)
exit "$failed"
