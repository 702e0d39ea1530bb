// The evaluation identity of each platform (tb/common/eval_identity.h): what the build embeds is the
// script's hash of the source tree, and a changed file changes the identity of exactly the platforms whose
// evaluations it takes part in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/eval_identity.h"

namespace kcraft::tb {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = KCRAFT_TEST_SOURCE_DIR;
const fs::path kBuild = KCRAFT_TEST_BINARY_DIR;

// Runs cmake/KcraftEvalIdentity.cmake over `tree` with this build's arguments; the identities it computes.
std::map<std::string, std::string> identities_of(const fs::path& tree, const fs::path& out_dir) {
  fs::create_directories(out_dir);
  const fs::path json = out_dir / "identity.json";
  const std::string command = std::string("'") + KCRAFT_TEST_CMAKE + "' -DSOURCE_DIR='" + tree.string() +
                              "' -DARGS_FILE='" + (kBuild / "eval_identity_args.cmake").string() +
                              "' -DOUT_CPP='" + (out_dir / "identity.cpp").string() + "' -DOUT_JSON='" +
                              json.string() + "' -P '" +
                              (kSource / "cmake" / "KcraftEvalIdentity.cmake").string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(json);
  return nlohmann::json::parse(in).get<std::map<std::string, std::string>>();
}

// This test process's scratch directory, removed when the process exits.
const fs::path& scratch_dir() {
  static const struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("kcraft-identity-" + std::to_string(::getpid()));
    ~Scratch() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } scratch;
  return scratch.dir;
}

// A copy of the rooms an evaluation runs, in a fresh directory.
fs::path copy_tree(const std::string& name) {
  const fs::path dir = scratch_dir() / name;
  fs::remove_all(dir);
  for (const char* room : {"rtl", "isa", "tasks", "tb"}) {
    fs::create_directories(dir / room);
    fs::copy(kSource / room, dir / room, fs::copy_options::recursive);
  }
  return dir;
}

void change_one_byte(const fs::path& file) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(f) << file;
  f.seekg(0, std::ios::end);
  const auto size = static_cast<std::streamoff>(f.tellg());
  ASSERT_GT(size, 1);
  f.seekg(size / 2);
  char c = 0;
  f.get(c);
  f.seekp(size / 2);
  f.put(c == ' ' ? '\t' : ' ');
}

// The first SystemVerilog file in a folder (sorted, for a stable choice).
fs::path first_sv_file(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".sv") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files.empty() ? fs::path() : files.front();
}

TEST(EvalIdentity, TheBinaryEmbedsTheIdentityOfItsSourceTree) {
  const auto& built = built_eval_identities();
  ASSERT_FALSE(built.empty());
  const auto computed = identities_of(kSource, scratch_dir() / "tree");
  for (const auto& [platform, identity] : built) {
    EXPECT_EQ(identity.size(), 64u) << platform;
    EXPECT_EQ(eval_identity(platform), identity);
    ASSERT_TRUE(computed.count(platform)) << platform;
    EXPECT_EQ(computed.at(platform), identity)
        << platform << ": the tree changed since the build, or the build embeds a stale identity";
  }
  EXPECT_EQ(eval_identity("no_such_platform"), "");
}

TEST(EvalIdentity, AChangedRtlFileChangesItsPlatformsIdentityOnly) {
  const auto& built = built_eval_identities();
  ASSERT_GE(built.size(), 2u) << "needs two platforms to tell them apart";
  const std::string changed_platform = built.begin()->first;
  const fs::path tree = copy_tree("rtl");
  const auto same = identities_of(tree, tree / "out-same");
  EXPECT_EQ(same, built) << "a copy of the tree elsewhere has the same identities";
  const fs::path rtl = first_sv_file(tree / "rtl" / changed_platform);
  ASSERT_FALSE(rtl.empty()) << "no RTL of " << changed_platform;
  change_one_byte(rtl);
  const auto changed = identities_of(tree, tree / "out-changed");
  for (const auto& [platform, identity] : built) {
    if (platform == changed_platform) {
      EXPECT_NE(changed.at(platform), identity) << rtl;
    } else {
      EXPECT_EQ(changed.at(platform), identity) << platform << " does not run " << rtl;
    }
  }
}

TEST(EvalIdentity, AChangedSharedFileChangesEveryIdentity) {
  const auto& built = built_eval_identities();
  const fs::path tree = copy_tree("shared");
  change_one_byte(tree / "tb" / "common" / "evaluation_steps.cpp");
  const auto changed = identities_of(tree, tree / "out");
  for (const auto& [platform, identity] : built) EXPECT_NE(changed.at(platform), identity) << platform;
}

TEST(EvalIdentity, AChangedHardwareParameterFileChangesItsPlatformsIdentity) {
  const auto& built = built_eval_identities();
  const std::string platform = built.begin()->first;
  const fs::path tree = copy_tree("params");
  std::ofstream(tree / "rtl" / platform / "configs" / "default.yaml", std::ios::app) << "# changed\n";
  const auto changed = identities_of(tree, tree / "out");
  EXPECT_NE(changed.at(platform), built.at(platform));
}

}  // namespace
}  // namespace kcraft::tb
