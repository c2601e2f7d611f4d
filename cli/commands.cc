#include "cli/command.h"

namespace netdoctor::cli {

const std::vector<CommandEntry>& command_table() {
  static const std::vector<CommandEntry> k_commands = {
      {"diagnose", "from a symptom to a ranked, explained, localized root cause",
       add_diagnose_command},
      {"inventory", "the fabric model of a bundle: hosts, NICs, switch ports, links",
       add_inventory_command},
      {"parse", "parse one tool output (ethtool -S, perftest, SONiC show ...) to JSON",
       add_parse_command},
      {"sim", "write a simulated fabric bundle with injected faults", add_sim_command},
      {"incident", "list, show, close and export incidents", add_incident_command},
      {"change", "record, verify and roll back changes, one variable at a time",
       add_change_command},
      {"baseline", "import, check and list perftest baselines", add_baseline_command},
      {"plan", "fabric sizing, traffic budget, and checking a fabric against its plan",
       add_plan_command},
      {"sweep", "find the slow NIC, host or link with perftest pairs and nccl-tests",
       add_sweep_command},
      {"collect", "capture this host, or a host list via ssh/pdsh/srun, into a bundle",
       add_collect_command},
      {"runbook", "a symptom's playbook as a manual runbook (annotated with --bundle)",
       add_runbook_command},
      {"explain", "a root cause from the kb: mechanism, signs, remediation, first change",
       add_explain_command},
      {"probes", "the probes: what each reads, its signals and weights, its thresholds",
       add_probes_command},
      {"config", "the site configuration in effect: every value and where it came from",
       add_config_command},
  };
  return k_commands;
}

}  // namespace netdoctor::cli
