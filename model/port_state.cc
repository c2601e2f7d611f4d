#include "model/port_state.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "base/strings.h"

namespace netdoctor::model {

namespace {

// Upper case, and a word break ('_') where a capital follows a small letter ("LinkUp" ->
// "LINK_UP"), after dropping a leading "<number>:" (sysfs) and a trailing " (<number>)".
std::string canonical_word(std::string_view raw) {
  auto text = trim(raw);
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    text = trim(text.substr(colon + 1));
  }
  if (auto paren = text.find(" ("); paren != std::string_view::npos) {
    text = text.substr(0, paren);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isupper(c) != 0 && i > 0 &&
        std::islower(static_cast<unsigned char>(text[i - 1])) != 0) {
      out += '_';
    }
    out += static_cast<char>(std::toupper(c));
  }
  return out;
}

template <typename State, std::size_t N>
State named(const std::array<std::pair<State, const char*>, N>& words, std::string_view word) {
  for (const auto& [state, name] : words) {
    if (word == name) {
      return state;
    }
  }
  return State::Unknown;
}

template <typename State, std::size_t N>
const char* word_of(const std::array<std::pair<State, const char*>, N>& words, State state) {
  for (const auto& [candidate, name] : words) {
    if (candidate == state) {
      return name;
    }
  }
  return "";
}

constexpr std::array<std::pair<LinkState, const char*>, 6> k_link_words = {{
    {LinkState::NotPresent, "notpresent"},
    {LinkState::Down, "down"},
    {LinkState::LowerLayerDown, "lowerlayerdown"},
    {LinkState::Testing, "testing"},
    {LinkState::Dormant, "dormant"},
    {LinkState::Up, "up"},
}};

constexpr std::array<std::pair<RdmaPortState, const char*>, 6> k_rdma_words = {{
    {RdmaPortState::Nop, "NOP"},
    {RdmaPortState::Down, "DOWN"},
    {RdmaPortState::Init, "INIT"},
    {RdmaPortState::Armed, "ARMED"},
    {RdmaPortState::Active, "ACTIVE"},
    {RdmaPortState::ActiveDefer, "ACTIVE_DEFER"},
}};

constexpr std::array<std::pair<PhysState, const char*>, 7> k_phys_words = {{
    {PhysState::Sleep, "SLEEP"},
    {PhysState::Polling, "POLLING"},
    {PhysState::Disabled, "DISABLED"},
    {PhysState::PortConfigurationTraining, "PORT_CONFIGURATION_TRAINING"},
    {PhysState::LinkUp, "LINK_UP"},
    {PhysState::LinkErrorRecovery, "LINK_ERROR_RECOVERY"},
    {PhysState::PhyTest, "PHY_TEST"},
}};

}  // namespace

LinkState link_state_named(std::string_view text) {
  return named(k_link_words, to_lower(trim(text)));
}

const char* to_string(LinkState state) {
  return word_of(k_link_words, state);
}

bool is_down(LinkState state) {
  return state == LinkState::Down || state == LinkState::LowerLayerDown ||
         state == LinkState::NotPresent;
}

RdmaPortState rdma_port_state_named(std::string_view text) {
  std::string word = canonical_word(text);
  if (word.rfind("PORT_", 0) == 0) {
    word.erase(0, 5);
  }
  return named(k_rdma_words, word);
}

const char* to_string(RdmaPortState state) {
  return word_of(k_rdma_words, state);
}

PhysState phys_state_named(std::string_view text) {
  return named(k_phys_words, canonical_word(text));
}

const char* to_string(PhysState state) {
  return word_of(k_phys_words, state);
}

}  // namespace netdoctor::model
