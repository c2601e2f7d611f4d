#include "engine/diagnosis.h"

namespace netdoctor::engine {

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::RootCauseFound:
      return "root-cause-found";
    case Verdict::Inconclusive:
      return "inconclusive";
    case Verdict::Healthy:
      return "healthy";
  }
  return "inconclusive";
}

}  // namespace netdoctor::engine
