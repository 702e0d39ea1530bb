#include "agent/mcp/workspace.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kcraft::agent::mcp {

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

KernelWorkspace::KernelWorkspace(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec || !std::filesystem::is_directory(dir_)) {
    throw std::runtime_error(fmt::format("cannot create the workspace {}: {}", dir_.string(), ec.message()));
  }
  std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, ec);
}

std::string KernelWorkspace::name_problem(const std::string& name) {
  const std::string rule =
      "a kernel name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or a digit, "
      "e.g. \"relu_v2.s\"";
  if (name.empty()) return "empty name: " + rule;
  if (name.size() > 64) return fmt::format("a name of {} characters: {}", name.size(), rule);
  if (name.find('\0') != std::string::npos) return "a NUL byte in the name: " + rule;
  if (name.find('/') != std::string::npos) return "a '/' in the name (no directories or paths): " + rule;
  if (!std::all_of(name.begin(), name.end(), name_char)) return "a character that is not allowed: " + rule;
  if (!std::isalnum(static_cast<unsigned char>(name[0])))
    return "the name must not start with '" + name.substr(0, 1) + "': " + rule;
  if (name.find("..") != std::string::npos) return "\"..\" in the name: " + rule;
  return "";
}

void KernelWorkspace::save(const std::string& name, const std::string& code) const {
  if (auto why = name_problem(name); !why.empty()) throw std::invalid_argument(why);
  if (code.size() > kMaxWorkspaceFileBytes) {
    throw std::invalid_argument(
        fmt::format("a kernel of {} bytes (at most {})", code.size(), kMaxWorkspaceFileBytes));
  }
  const auto existing = list();
  const bool replaces =
      std::any_of(existing.begin(), existing.end(), [&](const Entry& e) { return e.name == name; });
  if (!replaces && existing.size() >= kMaxWorkspaceKernels) {
    throw std::invalid_argument(fmt::format(
        "the workspace holds {} kernels, the most it keeps; overwrite one", kMaxWorkspaceKernels));
  }
  Fd dir{::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.fd < 0) throw std::runtime_error("cannot open the workspace: " + std::string(std::strerror(errno)));
  Fd file{::openat(dir.fd, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600)};
  if (file.fd < 0) {
    if (errno == ELOOP)
      throw std::invalid_argument("'" + name + "' is a symbolic link in the workspace: refused");
    throw std::invalid_argument(fmt::format("cannot write '{}': {}", name, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw std::invalid_argument("'" + name + "' is not a regular file");
  size_t done = 0;
  while (done < code.size()) {
    const ssize_t n = ::write(file.fd, code.data() + done, code.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(fmt::format("cannot write '{}': {}", name, std::strerror(errno)));
    done += static_cast<size_t>(n);
  }
}

std::string KernelWorkspace::load(const std::string& name) const {
  if (auto why = name_problem(name); !why.empty()) throw std::invalid_argument(why);
  Fd dir{::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.fd < 0) throw std::runtime_error("cannot open the workspace: " + std::string(std::strerror(errno)));
  Fd file{::openat(dir.fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) {
    if (errno == ELOOP)
      throw std::invalid_argument("'" + name + "' is a symbolic link in the workspace: refused");
    if (errno == ENOENT)
      throw std::invalid_argument("no kernel '" + name + "' in the workspace (list_kernels)");
    throw std::invalid_argument(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw std::invalid_argument("'" + name + "' is not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kMaxWorkspaceFileBytes)
    throw std::invalid_argument("'" + name + "' is too large");
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(file.fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  text.resize(done);
  return text;
}

std::vector<KernelWorkspace::Entry> KernelWorkspace::list() const {
  std::vector<Entry> entries;
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return entries;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (!name_problem(name).empty()) continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    entries.push_back({name, static_cast<uint64_t>(st.st_size)});
  }
  ::closedir(d);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return entries;
}

}  // namespace kcraft::agent::mcp
