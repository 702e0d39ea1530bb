// Hardware configuration files (configs/<platform>/*.yaml) as Verilator parameter overrides.
#pragma once

#include <string>
#include <vector>

namespace kcraft::isa::gen {

struct VerilatorArgs {
  std::string text;                 // one "-G<KEY>=<value>" line per `build:` entry, in file order
  std::vector<std::string> errors;  // "file:line:col: error: ..." messages; text is empty if any
};

VerilatorArgs verilator_args_from_hwconfig(const std::string& path);
// The same from the file's text (`path` only names it in messages).
VerilatorArgs verilator_args_from_hwconfig_text(const std::string& yaml, const std::string& path);

// Writes `content` unless the file already holds exactly that (so unchanged outputs keep their timestamp
// and do not trigger rebuilds). Returns false and sets `error` on failure.
bool write_if_changed(const std::string& path, const std::string& content, std::string* error);

}  // namespace kcraft::isa::gen
