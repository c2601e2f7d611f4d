// A FileTree view rooted at a subdirectory of another tree.
#include <fmt/format.h>

#include <utility>

#include "base/file_tree.h"
#include "base/strings.h"

namespace netdoctor {

namespace {

class SubTree final : public FileTree {
 public:
  SubTree(std::shared_ptr<const FileTree> inner, std::string prefix)
      : m_inner(std::move(inner)), m_prefix(std::move(prefix)) {}

  Result<std::string> read(std::string_view path) const override {
    ND_TRY_ASSIGN(std::string inner_path, inner_path_of(path));
    return m_inner->read(inner_path);
  }

  Result<std::vector<DirEntry>> list(std::string_view path) const override {
    ND_TRY_ASSIGN(std::string inner_path, inner_path_of(path));
    return m_inner->list(inner_path);
  }

  std::string describe() const override {
    return m_prefix.empty() ? m_inner->describe()
                            : fmt::format("{} (at {})", m_inner->describe(), m_prefix);
  }

  std::string display_path(std::string_view path) const override {
    return m_inner->display_path(join_path(path));
  }

 private:
  // Normalised first, so ".." cannot climb out of the prefix into the rest of the inner tree.
  Result<std::string> inner_path_of(std::string_view path) const {
    ND_TRY_ASSIGN(std::string relative, normalise_relative(path));
    return join_path(relative);
  }

  std::string join_path(std::string_view relative) const {
    if (m_prefix.empty()) {
      return std::string(relative);
    }
    if (relative.empty()) {
      return m_prefix;
    }
    return fmt::format("{}/{}", m_prefix, relative);
  }

  std::shared_ptr<const FileTree> m_inner;
  std::string m_prefix;
};

}  // namespace

std::unique_ptr<FileTree> make_subtree(std::shared_ptr<const FileTree> inner, std::string prefix) {
  auto normalised = normalise_relative(prefix);
  return std::make_unique<SubTree>(std::move(inner),
                                   normalised.ok() ? std::move(normalised).value() : prefix);
}

}  // namespace netdoctor
