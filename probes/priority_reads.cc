#include "probes/priority_reads.h"

#include <algorithm>

namespace netdoctor::probes {

bool probes_read_priority(std::string_view name, int priority, int roce_priority) {
  return priority == roce_priority ||
         std::find(k_read_on_every_priority.begin(), k_read_on_every_priority.end(), name) !=
             k_read_on_every_priority.end();
}

bool probes_read_switch_pfc_priority(int priority, int roce_priority) {
  return priority == roce_priority;
}

bool probes_read_switch_queue_metric(std::string_view name) {
  return std::find(k_switch_queue_metrics_read.begin(), k_switch_queue_metrics_read.end(), name) !=
         k_switch_queue_metrics_read.end();
}

}  // namespace netdoctor::probes
