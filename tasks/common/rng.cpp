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

namespace {
// cos x and sin x for |x| <= pi/4 (Taylor series, 14 terms: the truncation error is below 1e-23).
void cos_sin_series(double x, double& c, double& s) {
  const double x2 = x * x;
  c = 0.0;
  s = 0.0;
  for (int k = 13; k >= 0; --k) {
    c = 1.0 - c * x2 / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    s = 1.0 - s * x2 / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
  }
  s *= x;
}

void rotate_quadrant(int64_t quadrant, double c, double s, double& cos_out, double& sin_out) {
  switch (quadrant & 3) {
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
}  // namespace

double portable_exp(double x) {
  // x = k ln2 + r with |r| <= ln2/2 (ln2 split so that k * hi is exact), exp(r) by its Taylor series.
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const double k = std::floor(x / 0.69314718055994530942 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // 20 terms: r^20/20! < 1e-25 for |r| <= 0.35.
  double series = 1.0;
  for (int n = 20; n >= 1; --n) series = 1.0 + series * r / n;
  return std::ldexp(series, static_cast<int>(k));  // exact scaling
}

void portable_cos_sin(double radians, double& cos_out, double& sin_out) {
  // pi/2 = kP1 + kP2 + kP3; kP1 and kP2 have 33 significant bits, so k * kP1 and k * kP2 are exact for
  // |k| < 2^20 (radians up to ~1.6e6).
  constexpr double kP1 = 1.57079632673412561417e+00;
  constexpr double kP2 = 6.07710050630396597660e-11;
  constexpr double kP3 = 2.02226624879595063154e-21;
  const double k = std::floor(radians / 1.57079632679489661923 + 0.5);
  const double r = ((radians - k * kP1) - k * kP2) - k * kP3;
  double c = 0.0;
  double s = 0.0;
  cos_sin_series(r, c, s);
  rotate_quadrant(static_cast<int64_t>(k), c, s, cos_out, sin_out);
}

void portable_cos_sin_turns(double turns, double& cos_out, double& sin_out) {
  // Quadrant from the (exact) turns value, then the series on [0, pi/2).
  const double quarters = turns * 4.0;
  const double quadrant = std::floor(quarters);
  double c = 0.0;
  double s = 0.0;
  cos_sin_series((quarters - quadrant) * 1.57079632679489661923, c, s);
  rotate_quadrant(static_cast<int64_t>(quadrant), c, s, cos_out, sin_out);
}

std::vector<double> rope_table(int64_t positions, int64_t dim, double base, bool sine) {
  const int64_t half = dim / 2;
  const double log_base = portable_log(base);
  std::vector<double> table(static_cast<std::size_t>(positions * dim));
  for (int64_t i = 0; i < half; ++i) {
    // theta_i = base^(-2i/D); 2i/D is exact for power-of-two D and within an ulp otherwise.
    const double theta = portable_exp(-(2.0 * static_cast<double>(i) / static_cast<double>(dim)) * log_base);
    for (int64_t s = 0; s < positions; ++s) {
      double c = 0.0;
      double sn = 0.0;
      portable_cos_sin(static_cast<double>(s) * theta, c, sn);
      const double value = sine ? sn : c;
      table[static_cast<std::size_t>(s * dim + i)] = value;
      table[static_cast<std::size_t>(s * dim + i + half)] = value;
    }
  }
  return table;
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
