#include "runbook/library.h"

namespace netdoctor::runbook {

Result<std::unique_ptr<Library>> load_library() {
  auto library = std::make_unique<Library>();
  probes::register_builtin_probes(library->registry);
  ND_TRY_ASSIGN(library->knowledge, engine::load_knowledge_base(library->registry));
  ND_TRY_ASSIGN(library->manuals, ManualSet::from_entries(library->knowledge.entries));
  return library;
}

}  // namespace netdoctor::runbook
