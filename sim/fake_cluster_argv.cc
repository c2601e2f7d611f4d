#include "sim/fake_cluster_argv.h"

#include <algorithm>

#include "base/strings.h"

namespace netdoctor::sim::fake {
namespace {

Error bad(std::string message) {
  return make_error(ErrorCode::InvalidArgument, std::move(message));
}

// The value of option `argv[i]` (its next word), advancing `i`; nullopt at the end.
std::optional<std::string> value_after(const std::vector<std::string>& argv, std::size_t& i) {
  if (i + 1 >= argv.size()) {
    return std::nullopt;
  }
  return argv[++i];
}

// What the remote shell makes of ssh's and pdsh's trailing arguments: joined with spaces, then
// split into words again.
Result<std::vector<std::string>> remote_words(const std::vector<std::string>& argv,
                                              std::size_t from) {
  const std::vector<std::string> rest(argv.begin() + static_cast<std::ptrdiff_t>(from), argv.end());
  return shell_words(join(rest, " "));
}

Result<Invocation> read_ssh(const std::vector<std::string>& argv) {
  Invocation out;
  out.launcher = Launcher::Ssh;
  std::size_t i = 1;
  for (; i < argv.size(); ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-o" || argv[i] == "-l" || argv[i] == "-p" || argv[i] == "-i") {
      if (!value_after(argv, i)) {
        return bad("ssh: option without a value");
      }
      continue;
    }
    if (!argv[i].starts_with("-")) {
      break;
    }
  }
  if (i + 1 >= argv.size()) {
    return bad("ssh: no host or no remote command");
  }
  out.hosts = {argv[i]};
  auto words = remote_words(argv, i + 1);
  if (!words.ok()) {
    return words.error();
  }
  out.words = std::move(*words);
  return out;
}

Result<Invocation> read_pdsh(const std::vector<std::string>& argv) {
  Invocation out;
  out.launcher = Launcher::Pdsh;
  std::size_t i = 1;
  for (; i < argv.size() && argv[i].starts_with("-"); ++i) {
    if (argv[i] == "-w") {
      auto host = value_after(argv, i);
      if (!host) {
        return bad("pdsh: -w without hosts");
      }
      out.hosts = {*host};
    } else if (argv[i] == "-R" && !value_after(argv, i)) {
      return bad("pdsh: -R without a module");
    }
  }
  if (out.hosts.empty() || i >= argv.size()) {
    return bad("pdsh: no -w host or no remote command");
  }
  auto words = remote_words(argv, i);
  if (!words.ok()) {
    return words.error();
  }
  out.words = std::move(*words);
  return out;
}

// "-N1", "-N 1", "--ntasks-per-node=8": the option's value, advancing `i` when it is the next
// word; nullopt when argv[i] is not `short_name`/`long_name`.
std::optional<std::string> srun_value(const std::vector<std::string>& argv, std::size_t& i,
                                      std::string_view short_name, std::string_view long_name) {
  const std::string& word = argv[i];
  if (word == short_name || word == long_name) {
    return value_after(argv, i);
  }
  if (word.starts_with(std::string(long_name) + "=")) {
    return word.substr(long_name.size() + 1);
  }
  if (short_name.size() == 2 && word.starts_with(short_name) && word.size() > 2) {
    return word.substr(2);
  }
  return std::nullopt;
}

constexpr std::pair<std::string_view, std::string_view> k_srun_valued[] = {
    {"-N", "--nodes"}, {"-n", "--ntasks"},  {"-p", "--partition"},
    {"-t", "--time"},  {"-A", "--account"}, {"-c", "--cpus-per-task"}};

Result<Invocation> read_srun(const std::vector<std::string>& argv) {
  Invocation out;
  out.launcher = Launcher::Srun;
  std::size_t i = 1;
  for (; i < argv.size() && argv[i] != "--"; ++i) {
    if (auto hosts = srun_value(argv, i, "-w", "--nodelist")) {
      out.hosts.clear();
      for (const std::string_view host : split(*hosts, ',')) {
        out.hosts.emplace_back(host);
      }
    } else if (auto tasks = srun_value(argv, i, "", "--ntasks-per-node")) {
      out.tasks_per_node = static_cast<std::size_t>(parse_u64(*tasks).value_or(1));
    } else if (!argv[i].starts_with("-")) {
      break;  // the program, without "--"
    } else {
      // Options with a value the fake has no use for (node and task counts, partition, ...).
      for (const auto& [short_name, long_name] : k_srun_valued) {
        if (srun_value(argv, i, short_name, long_name)) {
          break;
        }
      }
    }
  }
  if (i < argv.size() && argv[i] == "--") {
    ++i;
  }
  if (out.hosts.empty() || i >= argv.size()) {
    return bad("srun: no -w hosts or no command");
  }
  out.words.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  return out;
}

std::optional<double> duration_seconds(std::string_view text) {
  double unit = 1.0;
  if (!text.empty() && (text.back() == 's' || text.back() == 'm' || text.back() == 'h')) {
    unit = text.back() == 'm' ? 60.0 : text.back() == 'h' ? 3600.0 : 1.0;
    text.remove_suffix(1);
  }
  const auto value = parse_double(text);
  return value ? std::optional<double>(*value * unit) : std::nullopt;
}

}  // namespace

Result<Invocation> read_launcher(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    return bad("empty command");
  }
  if (argv[0] == "ssh") {
    return read_ssh(argv);
  }
  if (argv[0] == "pdsh") {
    return read_pdsh(argv);
  }
  if (argv[0] == "srun") {
    return read_srun(argv);
  }
  return bad("not a launcher: " + argv[0]);
}

Result<std::vector<std::string>> shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) {
        words.push_back(std::move(word));
        word.clear();
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const std::size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) {
        return bad("unterminated single quote");
      }
      word.append(text.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word.push_back(text[i]);
      }
      if (i >= text.size()) {
        return bad("unterminated double quote");
      }
    } else if (c == '\\' && i + 1 < text.size()) {
      word.push_back(text[++i]);
    } else {
      word.push_back(c);
    }
  }
  if (in_word) {
    words.push_back(std::move(word));
  }
  return words;
}

std::optional<double> strip_timeout(std::vector<std::string>& words) {
  if (words.empty() || words[0] != "timeout") {
    return std::nullopt;
  }
  std::size_t i = 1;
  while (i + 1 < words.size() && (words[i] == "-k" || words[i] == "-s")) {
    i += 2;
  }
  if (i >= words.size()) {
    return std::nullopt;
  }
  const auto seconds = duration_seconds(words[i]);
  if (!seconds) {
    return std::nullopt;
  }
  words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i + 1));
  return seconds;
}

Result<PerftestArgs> read_perftest(const std::vector<std::string>& words) {
  PerftestArgs out;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool takes_value = word == "-d" || word == "-i" || word == "-D" || word == "-p" ||
                             word == "-x" || word == "-q" || word == "-s" || word == "-m" ||
                             word == "-n" || word == "--ib-dev" || word == "--port";
    if (!takes_value) {
      if (word == "--report_gbits") {
        out.report_gbits = true;
      } else if (!word.starts_with("-")) {
        out.server = word;
      }
      continue;
    }
    const auto value = value_after(words, i);
    if (!value) {
      return bad("ib_write_bw: " + word + " without a value");
    }
    if (word == "-d" || word == "--ib-dev") {
      out.device = *value;
      continue;
    }
    const auto number = parse_double(*value);
    if (!number) {
      return bad("ib_write_bw: " + word + " " + *value + " is not a number");
    }
    if (word == "-i") {
      out.ib_port = static_cast<int>(*number);
    } else if (word == "-D") {
      out.seconds = *number;
      out.duration_mode = true;
    } else if (word == "-p" || word == "--port") {
      out.tcp_port = static_cast<int>(*number);
    } else if (word == "-x") {
      out.gid_index = static_cast<int>(*number);
    }
  }
  return out;
}

bool is_nccl_test(std::string_view program) {
  return program == "all_reduce_perf" || program == "alltoall_perf";
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t unit = 1;
  if (!text.empty()) {
    const char suffix = text.back();
    unit = suffix == 'K' ? 1ull << 10 : suffix == 'M' ? 1ull << 20 : suffix == 'G' ? 1ull << 30 : 1;
    if (unit != 1) {
      text.remove_suffix(1);
    }
  }
  const auto value = parse_u64(text);
  return value ? std::optional<std::uint64_t>(*value * unit) : std::nullopt;
}

Result<NcclArgs> read_nccl_test(const std::vector<std::string>& words) {
  NcclArgs out;
  if (words.empty() || !is_nccl_test(words[0])) {
    return bad("not an nccl-tests program");
  }
  out.test = words[0];
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word != "-b" && word != "-e" && word != "-f") {
      continue;
    }
    const auto value = value_after(words, i);
    const auto size = value ? parse_size(*value) : std::nullopt;
    if (!size || *size == 0) {
      return bad(out.test + ": bad value for " + word);
    }
    (word == "-b" ? out.min_bytes : word == "-e" ? out.max_bytes : out.factor) = *size;
  }
  if (out.max_bytes < out.min_bytes || out.factor < 2) {
    return bad(out.test + ": sizes out of order or step below 2");
  }
  return out;
}

Result<NcclArgs> read_mpirun(const std::vector<std::string>& words) {
  std::vector<std::pair<std::string, std::size_t>> slots;
  std::optional<std::size_t> ranks;  // -np; all the slots when absent
  std::size_t i = 1;
  for (; i < words.size() && !is_nccl_test(words[i]); ++i) {
    if (words[i] == "--host" || words[i] == "-H") {
      const std::string list = value_after(words, i).value_or("");
      for (const std::string_view entry : split(list, ',')) {
        const std::size_t colon = entry.find(':');
        const auto count =
            colon == std::string_view::npos ? 1 : parse_u64(entry.substr(colon + 1)).value_or(1);
        slots.emplace_back(std::string(entry.substr(0, colon)), static_cast<std::size_t>(count));
      }
    } else if (words[i] == "-np" || words[i] == "-n") {
      ranks = static_cast<std::size_t>(parse_u64(value_after(words, i).value_or("")).value_or(0));
    }
  }
  auto args = read_nccl_test(std::vector<std::string>(
      words.begin() + static_cast<std::ptrdiff_t>(std::min(i, words.size())), words.end()));
  if (!args.ok()) {
    return args;
  }
  if (slots.empty()) {
    return bad("mpirun: no --host list");
  }
  for (auto& [host, count] : slots) {  // -np K fills the slots host by host
    const std::size_t here = ranks ? std::min(count, *ranks) : count;
    if (here > 0) {
      args->hosts.emplace_back(host, here);
    }
    if (ranks) {
      *ranks -= here;
    }
  }
  return args;
}

}  // namespace netdoctor::sim::fake
