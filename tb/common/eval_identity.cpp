#include "tb/common/eval_identity.h"

namespace kcraft::tb {

std::string eval_identity(const std::string& platform) {
  const auto& identities = built_eval_identities();
  const auto it = identities.find(platform);
  return it == identities.end() ? std::string() : it->second;
}

}  // namespace kcraft::tb
