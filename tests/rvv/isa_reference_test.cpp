// The rvv ISA reference generated from isa/rvv/rvv_isa.yaml: one entry per mnemonic, as grep_docs finds
// them, each naming its own instruction.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "isa/rvv/isa_reference.h"

namespace kcraft::rvv {
namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

TEST(IsaReference, EveryMnemonicHasOneEntryThatNamesIt) {
  const std::string md = isa_markdown(256);
  const auto names = instruction_names();
  ASSERT_GT(names.size(), 100u);  // the whole table, not a stub
  std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size()) << "a mnemonic is listed twice";
  for (const auto& name : names) {
    EXPECT_EQ(name, upper(name));
    const std::string heading = "\n#### " + name + "\n";
    const auto at = md.find(heading);
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_EQ(md.find(heading, at + 1), std::string::npos) << name << " has two entries";
    // The entry's syntax line starts with the instruction itself ("`vfmacc.vv vd, ...`").
    const auto syntax = md.find('`', at + heading.size());
    ASSERT_NE(syntax, std::string::npos) << name;
    const auto end = md.find_first_of(" `", syntax + 1);
    EXPECT_EQ(upper(md.substr(syntax + 1, end - syntax - 1)), name) << name;
  }
  EXPECT_NE(md.find("VLEN = 256 bits on this configuration"), std::string::npos);
  EXPECT_EQ(md.find("{VLEN}"), std::string::npos);
  for (const char* must :
       {"VSETVLI", "VLE32.V", "VFMACC.VV", "VREDSUM.VS", "FDIV.S", "CSRRS", "MULH", "ECALL"})
    EXPECT_NE(unique.count(must), 0u) << must;
}

}  // namespace
}  // namespace kcraft::rvv
