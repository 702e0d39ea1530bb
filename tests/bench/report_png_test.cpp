// `kcraft report --png`: the report draws one of its charts in headless Chromium as a PNG of the chart's
// own size (the README's picture is made this way).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/bench/test_util.h"

namespace kcraft::bench {
namespace {

namespace fs = std::filesystem;

int kcraft_status(const std::string& args) {
  const int status = std::system((std::string(KCRAFT_BIN) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Width and height from a PNG's IHDR chunk; {0, 0} for anything that is not a PNG.
std::pair<uint32_t, uint32_t> png_size(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string head(24, '\0');
  if (!in.read(head.data(), 24) || head.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 ||
      head.compare(12, 4, "IHDR") != 0)
    return {0, 0};
  const auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(head[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

TEST(BenchE2E, ReportDrawsItsChartAsAPng) {
  const auto dir = testing::fresh_dir("report_png");
  const std::string db = (dir / "r.db").string();
  ASSERT_EQ(
      kcraft_status(
          "bench --tasks relu,gemm --configs C1 --hw default --agents baseline --jobs 2 --progress none "
          "--transcripts none --db " +
          db),
      0);
  const fs::path png = dir / "chart.png";
  ASSERT_EQ(kcraft_status("report --db " + db + " --png " + png.string()), 0);
  const auto [width, height] = png_size(png);
  // The heatmap under the title: a column per platform (120 px each), a row per task of the store (26 px).
  EXPECT_GT(width, 400u);
  EXPECT_GT(height, 2 * 26u + 44u);
  EXPECT_LT(width, 2400u);
  EXPECT_LT(height, 600u);
  const fs::path speedup = dir / "speedup.png";
  ASSERT_EQ(kcraft_status("report --db " + db + " --png " + speedup.string() + " --png-chart speedup"), 0);
  EXPECT_NE(png_size(speedup), png_size(png));
  EXPECT_GT(png_size(speedup).first, 0u);
  // An unknown chart is a usage error naming the charts.
  EXPECT_EQ(kcraft_status("report --db " + db + " --png " + (dir / "x.png").string() + " --png-chart nosuch"),
            2);
  EXPECT_FALSE(fs::exists(dir / "x.png"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kcraft::bench
