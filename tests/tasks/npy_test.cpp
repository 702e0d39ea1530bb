// .npy files: byte layout checked here, content checked independently by numpy.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tasks/common/dump.h"
#include "tasks/common/npy.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

TEST(Npy, HeaderAndPayloadBytes) {
  const std::string bytes = encode_npy({2, 3}, {1, 2, 3, 4, 5, -0.5}, NpyElement::f32);
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  const std::string header = bytes.substr(10, header_len);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
  ASSERT_EQ(bytes.size(), 10 + header_len + 6 * 4);
  float last;
  std::memcpy(&last, bytes.data() + 10 + header_len + 5 * 4, 4);
  EXPECT_EQ(last, -0.5f);
  // 1-D shapes are written as a one-element tuple; raw BF16 bits are little-endian u2.
  const std::string bits = encode_npy({2}, {1.0, -2.0}, NpyElement::bf16_bits);
  EXPECT_NE(bits.find("'descr': '<u2'"), std::string::npos);
  EXPECT_NE(bits.find("'shape': (2,)"), std::string::npos);
  EXPECT_EQ(bits.substr(bits.size() - 4), std::string("\x80\x3f\x00\xc0", 4));  // 0x3F80, 0xC000
  EXPECT_THROW(encode_npy({2, 2}, {1, 2, 3}, NpyElement::f64), std::invalid_argument);
}

TEST(Npy, DumpWritesFilesAndManifest) {
  testing::TempDir dir;
  const DumpResult result =
      dump_task(testing::registry().get("linear"), "C1", 77, DType::bf16, dir.path() / "out", {true, 64});
  for (const char* name : {"x.npy", "W.npy", "b.npy", "x.bits.npy", "y.ref.npy", "manifest.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / name)) << name;
  }
  const nlohmann::json manifest =
      nlohmann::json::parse(testing::read_file(dir.path() / "out" / "manifest.json"));
  EXPECT_EQ(manifest, result.manifest);
  EXPECT_EQ(manifest["task"], "linear");
  EXPECT_EQ(manifest["seed"], 77);
  EXPECT_EQ(manifest["dtype"], "bf16");
  EXPECT_EQ(manifest["inputs"][1]["shape"], nlohmann::json::array({16, 16}));
  EXPECT_EQ(manifest["inputs"][1]["role"], "weight");
  EXPECT_EQ(manifest["inputs"][0]["init"], (nlohmann::json{{"dist", "normal"}, {"mean", 0.0}, {"std", 1.0}}));
  EXPECT_EQ(manifest["outputs"][0]["ref_file"], "y.ref.npy");
  EXPECT_EQ(manifest["layout"]["regions"].size(), 4u);
  EXPECT_EQ(manifest["tolerance"]["rel_l2"], 0.01);
  EXPECT_THROW(dump_task(testing::registry().get("linear"), "C1", 1, DType::bf16, "/proc/kcraft_no_such_dir"),
               std::runtime_error);
}

TEST(Npy, NumpyRecomputesEveryReference) {
  if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available (install python3-numpy); "
                    "the independent numpy check of the references was not run";
  }
  testing::TempDir dir;
  std::string command = "/usr/bin/python3 " KCRAFT_TASKS_TEST_DIR "/check_npy_refs.py";
  std::size_t dumps = 0;
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (const std::string config : {"C1", "C2"}) {
      for (DType dtype : {DType::bf16, DType::fp32}) {
        const auto out = dir.path() / (spec.name + "_" + config + "_" + std::string(dtype_name(dtype)));
        dump_task(spec, config, 31337, dtype, out, {true, 64});
        command += " '" + out.string() + "'";
        ++dumps;
      }
    }
  }
  command += " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  std::printf("%s", output.c_str());
  EXPECT_EQ(status, 0) << output;
  // One line per (task, config, dtype) output: the script really looked at every dump.
  std::size_t outputs = 0;
  for (const TaskSpec& spec : testing::registry().tasks()) outputs += spec.outputs.size() * 4;
  EXPECT_EQ(dumps, testing::registry().tasks().size() * 4);
  EXPECT_EQ(static_cast<std::size_t>(std::count(output.begin(), output.end(), '\n')), outputs) << output;
}

}  // namespace
}  // namespace kcraft::tasks
