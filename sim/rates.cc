#include "sim/rates.h"

namespace netdoctor::sim {

bool is_traffic(NicRate rate) {
  return static_cast<std::size_t>(rate) <= static_cast<std::size_t>(NicRate::RxPauseMicros);
}

bool is_traffic(PortRate rate) {
  return static_cast<std::size_t>(rate) <= static_cast<std::size_t>(PortRate::TxRocePackets) ||
         rate == PortRate::PfcRx || rate == PortRate::PfcTx;
}

}  // namespace netdoctor::sim
