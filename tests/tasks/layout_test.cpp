// DRAM layout: order, alignment, non-overlap, writable regions, images.
#include <gtest/gtest.h>

#include "tasks/common/inputs.h"
#include "tasks/common/layout.h"
#include "test_util.h"

namespace kcraft::tasks {
namespace {

TEST(Layout, GemmC2ByHand) {
  // bf16: A [32, 48] = 3072 B at 0; B [48, 64] = 6144 B at 3072 (a multiple of 64); C [32, 64] = 4096 B at
  // 9216.
  const DramLayout layout = compute_layout(testing::registry().get("gemm"), "C2", DType::bf16);
  ASSERT_EQ(layout.regions.size(), 3u);
  EXPECT_EQ(layout.regions[0].name, "A");
  EXPECT_EQ(layout.regions[0].address, 0u);
  EXPECT_EQ(layout.regions[0].bytes, 3072u);
  EXPECT_EQ(layout.regions[0].strides_bytes, (std::vector<int64_t>{96, 2}));
  EXPECT_EQ(layout.regions[0].role, "activation");
  EXPECT_FALSE(layout.regions[0].writable);
  EXPECT_EQ(layout.regions[1].name, "B");
  EXPECT_EQ(layout.regions[1].role, "weight");
  EXPECT_EQ(layout.regions[1].address, 3072u);
  EXPECT_EQ(layout.regions[2].name, "C");
  EXPECT_EQ(layout.regions[2].kind, RegionKind::output);
  EXPECT_EQ(layout.regions[2].address, 9216u);
  EXPECT_EQ(layout.regions[2].bytes, 4096u);
  EXPECT_TRUE(layout.regions[2].writable);
  EXPECT_EQ(layout.total_bytes, 13312u);
  EXPECT_EQ(layout.writable_ranges(), (std::vector<std::pair<uint64_t, uint64_t>>{{9216, 13312}}));
  EXPECT_TRUE(layout.is_writable(9216, 4096));
  EXPECT_FALSE(layout.is_writable(9214, 4));
  EXPECT_FALSE(layout.is_writable(0, 2));
}

TEST(Layout, PaddingWhenSizesAreNotAligned) {
  // rms_norm C1 fp32: x [16,16] = 1024 B at 0; gamma [16] = 64 B at 1024; y at 1088. With alignment 256:
  // gamma at 1024, y at 1280 (1088 rounded up), total 2304.
  const TaskSpec& spec = testing::registry().get("rms_norm");
  const DramLayout a64 = compute_layout(spec, "C1", DType::fp32);
  EXPECT_EQ(a64.region("y").address, 1088u);
  const DramLayout a256 = compute_layout(spec, "C1", DType::fp32, 256);
  EXPECT_EQ(a256.region("gamma").address, 1024u);
  EXPECT_EQ(a256.region("y").address, 1280u);
  EXPECT_EQ(a256.total_bytes, 2304u);
  // bf16 gamma is 32 bytes: y starts at the next 64-byte boundary after 512 + 32.
  EXPECT_EQ(compute_layout(spec, "C1", DType::bf16).region("y").address, 576u);
  EXPECT_THROW(compute_layout(spec, "C1", DType::fp32, 48), std::invalid_argument);
  EXPECT_THROW(compute_layout(spec, "C1", DType::fp32, 2), std::invalid_argument);
}

TEST(Layout, EveryTaskIsAlignedOrderedAndDisjoint) {
  for (const TaskSpec& spec : testing::registry().tasks()) {
    for (const std::string& config : spec.config_names()) {
      for (DType dtype : {DType::bf16, DType::fp32}) {
        for (uint64_t alignment : {uint64_t{4}, uint64_t{64}, uint64_t{4096}}) {
          const ResolvedConfig resolved = spec.resolve(config, dtype);
          const DramLayout layout = compute_layout(resolved, alignment);
          SCOPED_TRACE(spec.name + " " + config);
          ASSERT_EQ(layout.regions.size(), resolved.inputs.size() + resolved.outputs.size() +
                                               (resolved.scratch_bytes > 0 ? 1 : 0) + resolved.phases.size());
          const auto markers = layout.phase_markers();
          ASSERT_EQ(markers.size(), resolved.phases.size());
          for (std::size_t p = 0; p < markers.size(); ++p) {
            EXPECT_EQ(markers[p]->name, "phase_" + resolved.phases[p].name);
            EXPECT_EQ(markers[p]->bytes, kPhaseMarkerBytes);
            EXPECT_EQ(markers[p]->address % kPhaseMarkerBytes, 0u);  // one store of a row never spans two
          }
          EXPECT_EQ(layout.regions.front().address, 0u);
          for (std::size_t i = 0; i < layout.regions.size(); ++i) {
            const DramRegion& r = layout.regions[i];
            EXPECT_EQ(r.address % alignment, 0u);
            if (r.kind != RegionKind::scratch && r.kind != RegionKind::phase) {
              EXPECT_EQ(r.bytes, static_cast<uint64_t>(element_count(r.shape)) * dtype_bytes(dtype));
              EXPECT_EQ(r.strides_bytes.back(), static_cast<int64_t>(dtype_bytes(dtype)));
            }
            EXPECT_EQ(r.writable, r.kind != RegionKind::input);
            if (i > 0) {
              const DramRegion& previous = layout.regions[i - 1];
              EXPECT_GE(r.address, previous.end());  // no overlap, declaration order
              EXPECT_LT(r.address, previous.end() + (r.kind == RegionKind::phase
                                                         ? std::max(alignment, kPhaseMarkerBytes)
                                                         : alignment));  // no more padding than needed
              EXPECT_LE(static_cast<int>(previous.kind),
                        static_cast<int>(r.kind));  // inputs, outputs, scratch
            }
          }
          EXPECT_GE(layout.total_bytes, layout.regions.back().end());
          EXPECT_EQ(layout.total_bytes % alignment, 0u);
        }
      }
    }
  }
}

TEST(Layout, DramImageHoldsInputsAndPoisonsOutputs) {
  const TaskSpec& spec = testing::registry().get("linear");
  const ResolvedConfig resolved = spec.resolve("C1", DType::bf16);
  const DramLayout layout = compute_layout(resolved);
  const auto inputs = make_inputs(resolved, 11);
  const auto image = make_dram_image(layout, inputs);
  ASSERT_EQ(image.size(), layout.total_bytes);
  // Inputs decode back exactly; bytes are little-endian BF16.
  for (const Tensor& input : inputs) {
    const DramRegion& r = layout.region(input.name);
    const Tensor back =
        decode_tensor(input.name, input.shape, DType::bf16, image.data() + r.address, r.bytes);
    EXPECT_EQ(back.data, input.data) << input.name;
    const uint32_t bits = dtype_bits(input.data[0], DType::bf16);
    EXPECT_EQ(image[r.address], bits & 0xFF);
    EXPECT_EQ(image[r.address + 1], bits >> 8);
  }
  // Unwritten outputs read back as NaN, which can never pass.
  const auto outputs = read_outputs(layout, image);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].name, "y");
  for (double v : outputs[0].data) EXPECT_TRUE(std::isnan(v));
  // Writing an output into the image and reading it back.
  std::vector<uint8_t> written = image;
  Tensor y("y", outputs[0].shape);
  for (std::size_t i = 0; i < y.data.size(); ++i) y.data[i] = static_cast<double>(i) * 0.5;
  const auto bytes = encode_tensor(y, DType::bf16);
  std::copy(bytes.begin(), bytes.end(),
            written.begin() + static_cast<std::ptrdiff_t>(layout.region("y").address));
  EXPECT_EQ(read_outputs(layout, written)[0].data, y.data);
  EXPECT_THROW(make_dram_image(layout, {inputs[0]}), std::invalid_argument);
}

TEST(Layout, TextAndJson) {
  const DramLayout layout = compute_layout(testing::registry().get("gemm"), "C2", DType::bf16);
  const std::string text = format_layout(layout);
  EXPECT_NE(text.find("bf16: 2 bytes/element, little-endian, row-major"), std::string::npos) << text;
  EXPECT_NE(text.find("0x2400"), std::string::npos) << text;  // C at 9216
  EXPECT_NE(text.find("a kernel may write only: C [0x2400, 0x3400)"), std::string::npos) << text;
  const nlohmann::json json = to_json(layout);
  EXPECT_EQ(json["regions"][2]["address"], 9216);
  EXPECT_EQ(json["regions"][1]["strides_bytes"], nlohmann::json::array({128, 2}));
  EXPECT_EQ(json["writable_ranges"], nlohmann::json::array({nlohmann::json::array({9216, 13312})}));
  EXPECT_EQ(json["total_bytes"], 13312);
}

}  // namespace
}  // namespace kcraft::tasks
