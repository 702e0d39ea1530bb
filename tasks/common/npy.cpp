#include "tasks/common/npy.h"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::tasks {

std::string_view npy_descr(NpyElement element) {
  switch (element) {
    case NpyElement::f32:
      return "<f4";
    case NpyElement::f64:
      return "<f8";
    case NpyElement::bf16_bits:
      return "<u2";
    case NpyElement::fp32_bits:
      return "<u4";
  }
  return "?";
}

namespace {
template <typename T>
void append_le(std::string& out, T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  for (std::size_t b = 0; b < sizeof value; ++b) out.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
}
}  // namespace

std::string encode_npy(const Shape& shape, const std::vector<double>& values, NpyElement element) {
  if (static_cast<int64_t>(values.size()) != element_count(shape)) {
    throw std::invalid_argument("encode_npy: " + std::to_string(values.size()) + " values for shape " +
                                format_shape(shape));
  }
  // Python tuple syntax: "()", "(16,)", "(16, 32)".
  std::string shape_text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) shape_text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  shape_text += shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + std::string(npy_descr(element)) +
                       "', 'fortran_order': False, 'shape': " + shape_text + ", }";
  // Magic (6) + version (2) + header length (2) + header, padded with spaces and a final newline to a
  // multiple of 64 bytes, as numpy writes it.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');

  std::string out("\x93NUMPY\x01\x00", 8);
  append_le(out, static_cast<uint16_t>(header.size()));
  out += header;
  for (double value : values) {
    switch (element) {
      case NpyElement::f32:
        append_le(out, static_cast<float>(value));
        break;
      case NpyElement::f64:
        append_le(out, value);
        break;
      case NpyElement::bf16_bits:
        append_le(out, arith::double_to_bf16(value));
        break;
      case NpyElement::fp32_bits:
        append_le(out, arith::double_to_fp32(value));
        break;
    }
  }
  return out;
}

void write_npy(const std::filesystem::path& path, const Shape& shape, const std::vector<double>& values,
               NpyElement element) {
  const std::string bytes = encode_npy(shape, values, element);
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  if (!stream) throw std::runtime_error(path.string() + ": cannot open for writing");
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!stream) throw std::runtime_error(path.string() + ": write failed");
}

}  // namespace kcraft::tasks
