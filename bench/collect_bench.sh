#!/usr/bin/env bash
# collect_bench: one host with 8 RDMA NICs (4 mlx5, 4 bnxt_re; sysfs counters as real drivers
# list them) captured from a fake root, two samples. Target: under 1 s plus the interval.
# Usage: bench/collect_bench.sh [path/to/netdoctor] [interval-seconds]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-}"
if [ -z "$bin" ]; then
  for candidate in "$here"/build/*/cli/netdoctor; do
    [ -x "$candidate" ] && bin="$candidate" && break
  done
fi
[ -x "$bin" ] || { echo "collect_bench: netdoctor binary not found; pass its path" >&2; exit 2; }
interval="${2:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/root"

put() { mkdir -p "$(dirname "$root/$1")"; printf '%s\n' "$2" > "$root/$1"; }
ib_counters="symbol_error port_rcv_errors port_rcv_remote_physical_errors port_rcv_switch_relay_errors
link_error_recovery port_xmit_discards port_xmit_constraint_errors port_rcv_constraint_errors
local_link_integrity_errors excessive_buffer_overrun_errors VL15_dropped link_downed port_xmit_data
port_rcv_data port_xmit_packets port_rcv_packets unicast_rcv_packets unicast_xmit_packets
multicast_rcv_packets multicast_xmit_packets port_xmit_wait"
mlx_hw="duplicate_request implied_nak_seq_err lifespan local_ack_timeout_err np_cnp_sent
np_ecn_marked_roce_packets out_of_buffer out_of_sequence packet_seq_err req_cqe_error
req_cqe_flush_error req_remote_access_errors req_remote_invalid_request resp_cqe_error
resp_cqe_flush_error resp_local_length_error resp_remote_access_errors rnr_nak_retry_err
roce_adp_retrans roce_adp_retrans_to roce_slow_restart roce_slow_restart_cnps
roce_slow_restart_trans rp_cnp_handled rp_cnp_ignored rx_atomic_requests rx_dct_connect
rx_icrc_encapsulated rx_read_requests rx_write_requests"
bnxt_hw="active_ahs active_cqs active_mrs active_mws active_pds active_qps active_rc_qps
active_srqs rx_atomic_req rx_bytes rx_pkts rx_read_req rx_roce_discards rx_roce_error_pkts
rx_roce_good_bytes rx_roce_good_pkts rx_roce_only_bytes rx_roce_only_pkts rx_write_req
tx_atomic_req tx_bytes tx_pkts tx_read_req tx_roce_only_bytes tx_roce_only_pkts tx_write_req
res_oos_drop_count seq_err_naks_rcvd rnr_naks_rcvd to_retransmits tx_cnp_pkts rx_cnp_pkts"
net_stats="collisions multicast rx_bytes rx_compressed rx_crc_errors rx_dropped rx_errors
rx_fifo_errors rx_frame_errors rx_length_errors rx_missed_errors rx_nohandler rx_over_errors
rx_packets tx_aborted_errors tx_bytes tx_carrier_errors tx_compressed tx_dropped tx_errors
tx_fifo_errors tx_heartbeat_errors tx_packets tx_window_errors"

for i in 0 1 2 3 4 5 6 7; do
  if [ "$i" -lt 4 ]; then dev="mlx5_$i"; hw="$mlx_hw"; else dev="bnxt_re$((i - 4))"; hw="$bnxt_hw"; fi
  net="ens$((i + 1))f0np0"
  ib="sys/class/infiniband/$dev"
  put "$ib/fw_ver" "28.39.1002"
  put "$ib/node_desc" "benchhost $dev"
  put "$ib/device/net/$net/ifindex" "$((i + 4))"
  for f in state:"4: ACTIVE" phys_state:"5: LinkUp" rate:"400 Gb/sec (4X NDR)" link_layer:Ethernet; do
    put "$ib/ports/1/${f%%:*}" "${f#*:}"
  done
  for c in $ib_counters; do put "$ib/ports/1/counters/$c" "$RANDOM$RANDOM"; done
  for c in $hw; do put "$ib/ports/1/hw_counters/$c" "$RANDOM"; done
  put "sys/class/net/$net/mtu" 4200
  put "sys/class/net/$net/operstate" up
  put "sys/class/net/$net/speed" 400000
  put "sys/class/net/$net/address" "b8:3f:d2:00:00:0$i"
  for c in $net_stats; do put "sys/class/net/$net/statistics/$c" "$RANDOM$RANDOM"; done
done
files=$(find "$root" -type f | wc -l)

start=$(date +%s.%N)
"$bin" collect --root "$root" --host benchhost --samples 2 --interval "$interval" \
  --out "$work/bundle.tar.gz" 2> "$work/stderr"
end=$(date +%s.%N)
total=$(echo "$end - $start" | bc -l)
capture=$(echo "$total - $interval" | bc -l)
captured=$(tar -tzf "$work/bundle.tar.gz" | grep -c -v '/$')
printf 'collect_bench: 8 NICs, %d sysfs files in the root, 2 samples, interval %ss\n' "$files" "$interval"
printf 'collect_bench: %d files in the bundle; wall %.3fs, capture %.3fs beyond the interval\n' \
  "$captured" "$total" "$capture"
if [ "$(echo "$capture < 1.0" | bc -l)" -eq 1 ]; then
  echo "collect_bench: PASS (< 1 s plus the interval)"
else
  echo "collect_bench: FAIL (>= 1 s plus the interval)"; tail -5 "$work/stderr" >&2; exit 1
fi
