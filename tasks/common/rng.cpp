#include "tasks/common/rng.h"

#include <cmath>

namespace kcraft::tasks {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

uint64_t splitmix64_next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t stream_key(uint64_t seed, std::string_view task, std::string_view config, std::string_view tensor) {
  // A unit separator between fields keeps ("ab", "c") and ("a", "bc") apart.
  uint64_t hash = fnv1a64(task);
  hash = fnv1a64("\x1f", hash);
  hash = fnv1a64(config, hash);
  hash = fnv1a64("\x1f", hash);
  hash = fnv1a64(tensor, hash);
  uint64_t state = seed;
  return splitmix64_next(state) ^ hash;
}

namespace {
uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Xoshiro256::Xoshiro256(uint64_t key) {
  uint64_t state = key;
  for (uint64_t& word : s_) word = splitmix64_next(state);
}

uint64_t Xoshiro256::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Xoshiro256::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Xoshiro256::uniform_open_zero() {
  return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53;
}

double portable_log(double x) {
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172.
  int e = 0;
  double m = std::frexp(x, &e);  // exact
  if (m < 0.70710678118654752) {
    m *= 2.0;
    --e;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  // Horner form of sum_{k=0}^{13} s2^k / (2k+1); the truncation error is below 1e-22.
  double series = 0.0;
  for (int k = 13; k >= 0; --k) series = series * s2 + 1.0 / (2.0 * k + 1.0);
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so that e * hi is exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  return e * kLn2Hi + (2.0 * s * series + e * kLn2Lo);
}

void portable_cos_sin_turns(double turns, double& cos_out, double& sin_out) {
  // Quadrant from the (exact) turns value, then Taylor series on [0, pi/2).
  const double quarters = turns * 4.0;
  const double quadrant = std::floor(quarters);
  const double x = (quarters - quadrant) * 1.57079632679489661923;
  const double x2 = x * x;
  double c = 0.0;
  double s = 0.0;
  // cos x = sum (-1)^k x^(2k)/(2k)!, sin x = x sum (-1)^k x^(2k)/(2k+1)!; 14 terms reach x^27/27! < 1e-23.
  for (int k = 13; k >= 0; --k) {
    c = 1.0 - c * x2 / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    s = 1.0 - s * x2 / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
  }
  s *= x;
  switch (static_cast<int>(quadrant) & 3) {
    case 0:
      cos_out = c;
      sin_out = s;
      break;
    case 1:
      cos_out = -s;
      sin_out = c;
      break;
    case 2:
      cos_out = -c;
      sin_out = -s;
      break;
    default:
      cos_out = s;
      sin_out = -c;
      break;
  }
}

double NormalSampler::next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double u1 = rng_.uniform_open_zero();
  const double u2 = rng_.uniform();
  const double radius = std::sqrt(-2.0 * portable_log(u1));
  double c = 0.0;
  double s = 0.0;
  portable_cos_sin_turns(u2, c, s);
  spare_ = radius * s;
  has_spare_ = true;
  return radius * c;
}

}  // namespace kcraft::tasks
