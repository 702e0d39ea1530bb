#include "tasks/systolic/template_common.h"

#include <cctype>

namespace kcraft::systolic::template_detail {

std::string upper(const std::string& s) {
  std::string out = s;
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

int64_t pow2_divisor(int64_t n, int64_t want) {
  int64_t d = 1;
  while (d * 2 <= want && n % (d * 2) == 0) d *= 2;
  return d;
}

int64_t knob(const KnobValues& values, const std::vector<Knob>& knobs, const std::string& name) {
  auto it = values.find(name);
  if (it != values.end()) return it->second;
  for (const auto& k : knobs) {
    if (k.name == name) return k.baseline;
  }
  throw std::logic_error("template has no knob " + name);
}

std::string addr(const std::string& tensor) {
  return "ADDR_" + upper(tensor);
}

void set_addr(Asm& a, const std::string& reg, const Src& src) {
  if (src.base.empty()) return;
  if (src.base[0] == 'r' && std::isdigit(static_cast<unsigned char>(src.base[1]))) {
    a.op("S_MV {}, {}", reg, src.base);
  } else {
    a.op("S_LI {}, {}", reg, src.base);
  }
  if (src.offset != 0) a.add_const(reg, src.offset, "r15");
}

void stream_setup(Asm& a, const Src& input, const Src& output, int64_t row_bytes, int64_t tile) {
  a.comment("r1 next tile's input address, r2 next tile's output address, r3 row stride (dense rows)");
  set_addr(a, "r1", input);
  set_addr(a, "r2", output);
  a.op("S_LI r3, {}", row_bytes);
  a.comment("VSRAM: input buffers r7, r8; work buffers r9, r10");
  for (int b = 0; b < 4; ++b) a.op("S_LI r{}, {}", 7 + b, b * tile);
}

void stream_tiles(Asm& a, int64_t tiles, bool double_buffer, const std::function<void(int)>& load,
                  const std::function<void(int)>& compute_store) {
  if (!double_buffer) {
    a.comment("one buffer: load, compute, store, tile after tile");
    a.loop(tiles, "tile", [&] {
      load(0);
      compute_store(0);
    });
    return;
  }
  a.comment("double buffering: tile t+1 loads while tile t computes");
  load(0);
  const int64_t pairs = (tiles - 1) / 2;
  a.loop(pairs, "pair", [&] {
    load(1);
    compute_store(0);
    load(0);
    compute_store(1);
  });
  if (tiles - 2 * pairs == 2) {
    load(1);
    compute_store(0);
    compute_store(1);
  } else {
    compute_store(0);
  }
}

}  // namespace kcraft::systolic::template_detail
