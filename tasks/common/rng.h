// Deterministic random numbers for task inputs.
//
// Inputs must be bit-identical on every machine, compiler and standard library, so nothing here uses
// std::hash, <random> distributions or libm transcendentals (whose last bit may differ between libm
// versions): the hash is FNV-1a, the generator xoshiro256** seeded through splitmix64, and the normal
// sampler is Box-Muller with log/sin/cos evaluated by fixed series in IEEE double arithmetic (+ - * / and
// sqrt are correctly rounded everywhere; the library is compiled with -ffp-contract=off).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kcraft::tasks {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash = 0xcbf29ce484222325ull);
uint64_t splitmix64_next(uint64_t& state);

// The stream for one tensor: the key is (seed, task, config, tensor name).
uint64_t stream_key(uint64_t seed, std::string_view task, std::string_view config, std::string_view tensor);

class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t key);
  uint64_t next();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Uniform in (0, 1].
  double uniform_open_zero();

 private:
  uint64_t s_[4];
};

// Standard normal variates from pairs of uniforms (both Box-Muller outputs are used).
class NormalSampler {
 public:
  explicit NormalSampler(uint64_t key) : rng_(key) {}
  double next();
  double uniform() { return rng_.uniform(); }

 private:
  Xoshiro256 rng_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// Deterministic natural log for x > 0 and (cos, sin) of 2*pi*turns for turns in [0, 1); accurate to a
// few ulp, reproducible bit for bit.
double portable_log(double x);
void portable_cos_sin_turns(double turns, double& cos_out, double& sin_out);
// Deterministic exp for |x| < 700, a few ulp.
double portable_exp(double x);
// Deterministic (cos, sin) of radians for |x| up to about 1e5: Cody-Waite reduction by pi/2 in three parts
// keeps the reduced argument within ~1e-16 of the true one, then the same series as above.
void portable_cos_sin(double radians, double& cos_out, double& sin_out);

// The rotary-embedding tables of an [S, D] tensor (D even), flattened row-major:
// cos/sin(s * base^(-2*(d mod D/2)/D)). Reproducible bit for bit; accurate to ~1e-15 absolute for angles
// s * theta up to a few hundred radians.
std::vector<double> rope_table(int64_t positions, int64_t dim, double base, bool sine);

}  // namespace kcraft::tasks
