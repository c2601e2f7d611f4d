# Shared by the bench/*.sh scripts (sourced, not run): timing commands side by side.
#
# Rounds interleave the commands being compared (cat, netdoctor, zcat, netdoctor, ...), so a
# burst of load from other work on the machine hits both sides of a ratio alike; the best wall
# time of the rounds is kept, and the largest peak RSS.
#
# Needs: $bench_work (a scratch directory) set by the caller; /usr/bin/time.

[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
bench_results=$bench_work/results-$(basename "$0" .sh).txt
: >"$bench_results"

# time_cmd LABEL CMD...: runs CMD once (stdout to $bench_work/LABEL.out, stderr to LABEL.err)
# and records its wall seconds and peak RSS. A failing command stops the benchmark.
time_cmd() {
  local label=$1
  shift
  if ! /usr/bin/time -f '%e %M' -o "$bench_work/$label.time" "$@" \
      >"$bench_work/$label.out" 2>"$bench_work/$label.err"; then
    echo "$label failed: $*" >&2
    tail -5 "$bench_work/$label.err" >&2
    exit 1
  fi
  local wall rss
  read -r wall rss < <(tail -1 "$bench_work/$label.time")
  echo "$label $wall $rss" >>"$bench_results"
}

best_secs() { awk -v l="$1" '$1 == l && (b == "" || $2 < b) {b = $2} END {print b}' "$bench_results"; }
peak_mib() { awk -v l="$1" '$1 == l && $3 > m {m = $3} END {printf "%.0f", m / 1024}' "$bench_results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / (b > 0 ? b : 0.01)}'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a <= b)}'; }
load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# report LABEL BASE_LABEL MAX_RATIO MAX_MIB TITLE: one line, and sets bench_failed on a miss.
bench_failed=0
report() {
  local label=$1 base=$2 max_ratio=$3 max_mib=$4 title=$5
  local secs mib r verdict=PASS
  secs=$(best_secs "$label")
  mib=$(peak_mib "$label")
  r=$(ratio "$secs" "$(best_secs "$base")")
  if ! at_most "$r" "$max_ratio" || ! at_most "$mib" "$max_mib"; then
    verdict=FAIL
    bench_failed=1
  fi
  printf '%-36s %7.2f s %6s MiB   ratio %s (<= %s, < %s MiB) %s\n' "$title" "$secs" "$mib" \
    "$r" "$max_ratio" "$max_mib" "$verdict"
}

# baseline LABEL TITLE: a line for a reference command (no target).
baseline() {
  printf '%-36s %7.2f s %6s MiB\n' "$2" "$(best_secs "$1")" "$(peak_mib "$1")"
}

# make_bench_bundle BIN DIR: the benchmark bundle, written by `netdoctor sim` into DIR (answer in
# DIR.expected.json) and archived as DIR.tar.gz with tar(1) (root directory DIR's name, as the
# shared scenarios are), both reused while a stamp says they were made with the same settings.
# env: HOSTS (512) NICS (8) SAMPLES (2) VENDORS (mlx5,bnxt) FAULT (pfc-storm) SEED (1);
#      FABRIC=ib writes an InfiniBand fabric instead (NDR fat tree, fabric views; FAULT
#      ib-congestion unless set; VENDORS ignored)
make_bench_bundle() {
  local bin=$1 dir=$2
  local args=(sim --hosts "${HOSTS:-512}" --nics "${NICS:-8}" --samples "${SAMPLES:-2}"
              --seed "${SEED:-1}")
  if [[ ${FABRIC:-roce} == ib ]]; then
    args+=(--fabric ib --ib-speed ndr --fault "${FAULT:-ib-congestion}")
  else
    args+=(--vendors "${VENDORS:-mlx5,bnxt}" --fault "${FAULT:-pfc-storm}")
  fi
  local stamp="$dir.stamp"
  if [[ -d $dir/hosts && -f $dir.tar.gz && -f $stamp && "$(cat "$stamp")" == "${args[*]}" ]]; then
    return
  fi
  rm -rf "$dir" "$dir.tar.gz" "$stamp"
  "$bin" "${args[@]}" --out "$dir" >/dev/null || { echo "netdoctor sim failed" >&2; exit 1; }
  tar -C "$(dirname "$dir")" -czf "$dir.tar.gz" "$(basename "$dir")"
  echo "${args[*]}" >"$stamp"
}

# make_bench_archive BIN BASE: the benchmark bundle written by `netdoctor sim` straight to
# BASE.tar.gz (streamed: no directory, nothing held whole), with BASE.expected.json, BASE.files
# (how many files sim wrote) and BASE.sim.time (sim's wall seconds and peak KiB); reused while
# BASE.stamp says it was made with the same settings. Same env as make_bench_bundle (RoCE only).
make_bench_archive() {
  local bin=$1 base=$2
  local args=(sim --hosts "${HOSTS:-512}" --nics "${NICS:-8}" --samples "${SAMPLES:-2}"
              --seed "${SEED:-1}" --vendors "${VENDORS:-mlx5,bnxt}" --fault "${FAULT:-pfc-storm}")
  local stamp="$base.stamp"
  if [[ -f $base.tar.gz && -f $base.files && -f $stamp && "$(cat "$stamp")" == "${args[*]}" ]]; then
    return
  fi
  rm -f "$base.tar.gz" "$stamp"
  /usr/bin/time -f '%e %M' -o "$base.sim.time" "$bin" "${args[@]}" --out "$base.tar.gz" \
    >"$base.sim.out" || { echo "netdoctor sim failed" >&2; exit 1; }
  sed -n 's/^wrote \([0-9]*\) files.*/\1/p' "$base.sim.out" >"$base.files"
  echo "${args[*]}" >"$stamp"
}

# check_expected_diagnosis OUT EXPECTED: the diagnosis JSON in OUT must give the verdict and top
# cause of EXPECTED (a sim X.expected.json), naming one of its culprits; stops the benchmark
# otherwise.
check_expected_diagnosis() {
  local out=$1 expected=$2
  if ! jq -e --slurpfile want "$expected" '
      ($want[0]) as $w
      | .verdict == $w.verdict and .causes[0].id == $w.cause
        and (($w.culprits_any | length) == 0
             or any(.causes[0].entities[]; . as $e | $w.culprits_any | index($e)))' \
      "$out" >/dev/null; then
    echo "$(basename "$0" .sh): $out did not find the injected fault:" >&2
    jq -c '{verdict, top: .causes[0] | {id, entities}}' "$out" >&2 || head -c 2000 "$out" >&2
    echo "expected: $(jq -c '{verdict, cause, culprits_any}' "$expected")" >&2
    exit 1
  fi
}
