// A session's workspace of kernel files: the directory where `kcraft serve` (one per session) and
// `kcraft mcp --workspace DIR` keep the kernels an agent saves by name (write_code's `name`, list_kernels,
// load_kernel).
//
// Names come from clients, so none reaches the file system unchecked: a name is 1 to 64 characters of
// letters, digits, '.', '_' and '-', starting with a letter or a digit (no "..", no '/', no absolute path,
// no NUL, no hidden file), and files are opened relative to the workspace directory with O_NOFOLLOW, so a
// symbolic link planted in the workspace is refused rather than followed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kcraft::agent::mcp {

// Kernels a workspace holds at most, and the largest file load_kernel reads.
inline constexpr size_t kMaxWorkspaceKernels = 256;
inline constexpr size_t kMaxWorkspaceFileBytes = 4u << 20;

class KernelWorkspace {
 public:
  // Creates the directory (mode 0700) when it does not exist. Throws std::runtime_error when it cannot.
  explicit KernelWorkspace(std::filesystem::path dir);

  // "" when `name` is an acceptable kernel name, else why not (a sentence naming the rule).
  static std::string name_problem(const std::string& name);

  // Throw std::invalid_argument for a bad name, a symbolic link, a missing kernel or a full workspace.
  void save(const std::string& name, const std::string& code) const;
  std::string load(const std::string& name) const;

  struct Entry {
    std::string name;
    uint64_t bytes = 0;
  };
  // The regular files with acceptable names, sorted by name.
  std::vector<Entry> list() const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace kcraft::agent::mcp
