// A FileTree that shows several trees as one (bundles given together): a path reads from the
// first layer that has it, a directory lists the entries of every layer that has it.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "base/file_tree.h"
#include "base/strings.h"

namespace netdoctor {

namespace {

class LayeredTree final : public FileTree {
 public:
  explicit LayeredTree(std::vector<std::shared_ptr<const FileTree>> layers)
      : m_layers(std::move(layers)) {}

  Result<std::string> read(std::string_view path) const override {
    std::optional<Error> first_error;
    for (const auto& layer : m_layers) {
      auto text = layer->read(path);
      if (text.ok() || text.error().code != ErrorCode::NotFound) {
        return text;
      }
      if (!first_error) {
        first_error = text.error();
      }
    }
    return *first_error;
  }

  Result<std::vector<DirEntry>> list(std::string_view path) const override {
    std::vector<DirEntry> merged;
    std::optional<Error> first_error;
    bool found = false;
    for (const auto& layer : m_layers) {
      auto entries = layer->list(path);
      if (!entries.ok()) {
        if (!first_error) {
          first_error = entries.error();
        }
        continue;
      }
      found = true;
      for (auto& entry : *entries) {
        const bool seen = std::any_of(merged.begin(), merged.end(),
                                      [&entry](const DirEntry& e) { return e.name == entry.name; });
        if (!seen) {
          merged.push_back(std::move(entry));
        }
      }
    }
    if (!found) {
      return *first_error;
    }
    std::sort(merged.begin(), merged.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return merged;
  }

  std::string describe() const override {
    std::vector<std::string> parts;
    for (const auto& layer : m_layers) {
      parts.push_back(layer->describe());
    }
    return join(parts, " + ");
  }

  // The layer whose directory lists the file; the first layer when none does.
  std::string display_path(std::string_view path) const override {
    const auto slash = path.rfind('/');
    const std::string_view parent = slash == std::string_view::npos ? "" : path.substr(0, slash);
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    for (const auto& layer : m_layers) {
      auto entries = layer->list(parent);
      if (entries.ok() && std::any_of(entries->begin(), entries->end(),
                                      [name](const DirEntry& e) { return e.name == name; })) {
        return layer->display_path(path);
      }
    }
    return m_layers.front()->display_path(path);
  }

 private:
  std::vector<std::shared_ptr<const FileTree>> m_layers;
};

}  // namespace

std::shared_ptr<const FileTree> make_layered_tree(
    std::vector<std::shared_ptr<const FileTree>> layers) {
  if (layers.size() == 1) {
    return layers.front();
  }
  return std::make_shared<LayeredTree>(std::move(layers));
}

}  // namespace netdoctor
