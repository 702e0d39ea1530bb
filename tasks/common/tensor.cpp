#include "tasks/common/tensor.h"

#include <stdexcept>

namespace kcraft::tasks {

int64_t element_count(const Shape& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::vector<int64_t> unravel_index(int64_t flat_index, const Shape& shape) {
  std::vector<int64_t> index(shape.size(), 0);
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = flat_index % shape[i];
    flat_index /= shape[i];
  }
  return index;
}

std::string format_shape(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Tensor::Tensor(std::string tensor_name, Shape tensor_shape)
    : name(std::move(tensor_name)),
      shape(std::move(tensor_shape)),
      data(static_cast<std::size_t>(element_count(shape)), 0.0) {}

std::vector<uint8_t> encode_tensor(const Tensor& tensor, DType dtype) {
  const std::size_t width = dtype_bytes(dtype);
  std::vector<uint8_t> bytes(tensor.data.size() * width);
  for (std::size_t i = 0; i < tensor.data.size(); ++i) {
    uint32_t bits = dtype_bits(tensor.data[i], dtype);
    for (std::size_t b = 0; b < width; ++b) bytes[i * width + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  return bytes;
}

Tensor decode_tensor(std::string name, Shape shape, DType dtype, const uint8_t* bytes, std::size_t size) {
  Tensor tensor(std::move(name), std::move(shape));
  const std::size_t width = dtype_bytes(dtype);
  if (size != tensor.data.size() * width) {
    throw std::invalid_argument("decode_tensor " + tensor.name + ": expected " +
                                std::to_string(tensor.data.size() * width) + " bytes, got " +
                                std::to_string(size));
  }
  for (std::size_t i = 0; i < tensor.data.size(); ++i) {
    uint32_t bits = 0;
    for (std::size_t b = 0; b < width; ++b) bits |= static_cast<uint32_t>(bytes[i * width + b]) << (8 * b);
    tensor.data[i] = dtype_bits_to_double(bits, dtype);
  }
  return tensor;
}

}  // namespace kcraft::tasks
