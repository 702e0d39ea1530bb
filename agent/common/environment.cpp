#include "agent/common/environment.h"

#include "tb/common/paths.h"

namespace kcraft::agent {

const tasks::TaskRegistry& task_registry() {
  static const tasks::TaskRegistry registry = tasks::TaskRegistry::load_directory(task_spec_dir());
  return registry;
}

}  // namespace kcraft::agent
