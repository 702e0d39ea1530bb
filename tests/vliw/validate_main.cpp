// The vliw random differential campaign from the command line:
//   vliw_validate [config=default] [programs=200] [seed=1] [bundles=120]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tb/vliw/vliw_campaigns.h"

int main(int argc, char** argv) {
  kcraft::ValidationOptions options;
  options.length = 120;
  if (argc > 1) options.hw_config = argv[1];
  if (argc > 2) options.programs = std::strtoull(argv[2], nullptr, 10);
  if (argc > 3) options.seed = std::strtoull(argv[3], nullptr, 10);
  if (argc > 4) options.length = static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10));
  const kcraft::CommandReport report = kcraft::vliw::validate_random_programs(options);
  std::fputs(report.text.c_str(), stdout);
  return report.ok ? 0 : 1;
}
