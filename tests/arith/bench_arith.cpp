// ns/op of the fast path against the integer reference (the bit-level RTL mirror).
//   build/tests/arith/bench_arith
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "isa/common/arith/fp_arith.h"

namespace kcraft::arith {
namespace {

constexpr size_t kBatch = 4096;

struct Inputs {
  std::vector<F32> a;
  std::vector<F32> b;
  std::vector<F32> exp_args;  // in [-20, 20]
  std::vector<Bf16> a16;
  std::vector<Bf16> b16;
};

// Typical model operands: normal values of moderate magnitude, mixed signs.
const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs v;
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<float> values(-100.0f, 100.0f);
    std::uniform_real_distribution<float> exp_values(-20.0f, 20.0f);
    for (size_t i = 0; i < kBatch; ++i) {
      v.a.push_back(float_to_f32(values(rng)));
      v.b.push_back(float_to_f32(values(rng)));
      v.exp_args.push_back(float_to_f32(exp_values(rng)));
      v.a16.push_back(fp32_to_bf16(v.a.back()));
      v.b16.push_back(fp32_to_bf16(v.b.back()));
    }
    return v;
  }();
  return in;
}

// Seconds per operation, printed with an SI prefix (e.g. 730p = 0.73 ns).
void report(benchmark::State& state) {
  state.counters["time/op"] =
      benchmark::Counter(static_cast<double>(kBatch),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <F32 (*Fn)(F32, F32)>
void binary_op(benchmark::State& state) {
  FpEnvGuard guard;
  const Inputs& in = inputs();
  for (auto _ : state) {
    F32 acc = 0;
    for (size_t i = 0; i < kBatch; ++i) acc ^= Fn(in.a[i], in.b[i]);
    benchmark::DoNotOptimize(acc);
  }
  report(state);
}

template <F32 (*Fn)(Bf16, Bf16)>
void bf16_op(benchmark::State& state) {
  FpEnvGuard guard;
  const Inputs& in = inputs();
  for (auto _ : state) {
    F32 acc = 0;
    for (size_t i = 0; i < kBatch; ++i) acc ^= Fn(in.a16[i], in.b16[i]);
    benchmark::DoNotOptimize(acc);
  }
  report(state);
}

template <F32 (*Fn)(F32)>
void unary_op(benchmark::State& state) {
  FpEnvGuard guard;
  const Inputs& in = inputs();
  for (auto _ : state) {
    F32 acc = 0;
    for (size_t i = 0; i < kBatch; ++i) acc ^= Fn(in.exp_args[i]);
    benchmark::DoNotOptimize(acc);
  }
  report(state);
}

// A dependent chain, as in an accumulator: latency rather than throughput.
template <F32 (*Fn)(F32, F32)>
void accumulate(benchmark::State& state) {
  FpEnvGuard guard;
  const Inputs& in = inputs();
  for (auto _ : state) {
    F32 acc = 0;
    for (size_t i = 0; i < kBatch; ++i) acc = Fn(acc, in.a[i]);
    benchmark::DoNotOptimize(acc);
  }
  report(state);
}

BENCHMARK_TEMPLATE(binary_op, fp32_add)->Name("fast/fp32_add");
BENCHMARK_TEMPLATE(binary_op, ref::fp32_add)->Name("ref/fp32_add");
BENCHMARK_TEMPLATE(accumulate, fp32_add)->Name("fast/fp32_add_chain");
BENCHMARK_TEMPLATE(accumulate, ref::fp32_add)->Name("ref/fp32_add_chain");
BENCHMARK_TEMPLATE(binary_op, fp32_mul)->Name("fast/fp32_mul");
BENCHMARK_TEMPLATE(binary_op, ref::fp32_mul)->Name("ref/fp32_mul");
BENCHMARK_TEMPLATE(bf16_op, bf16_mul)->Name("fast/bf16_mul");
BENCHMARK_TEMPLATE(bf16_op, ref::bf16_mul)->Name("ref/bf16_mul");
BENCHMARK_TEMPLATE(binary_op, fp32_max)->Name("fast/fp32_max");
BENCHMARK_TEMPLATE(unary_op, fp32_exp)->Name("fast/fp32_exp");
BENCHMARK_TEMPLATE(unary_op, ref::fp32_exp)->Name("ref/fp32_exp");
BENCHMARK_TEMPLATE(unary_op, fp32_reci)->Name("fast/fp32_reci");
BENCHMARK_TEMPLATE(unary_op, fp32_rsqrt)->Name("fast/fp32_rsqrt");

}  // namespace
}  // namespace kcraft::arith

BENCHMARK_MAIN();
