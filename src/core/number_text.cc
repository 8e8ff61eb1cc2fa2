#include "core/number_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ox {
namespace {

// A non-negative integer as its decimal digits, most significant first ('0'..'9'), grown by
// multiplying in place. Error texts are rare and short, so a digit string beats a bignum library.
struct Decimal {
  std::string digits;

  explicit Decimal(uint64_t n) : digits(std::to_string(n)) {}

  // Multiplies by base^count, several powers at a time (each product of a digit stays far below
  // 2^64), so a subnormal's 1,074 factors of 5 take 83 passes over its ~750 digits.
  void times(uint64_t base, int count) {
    while (count > 0) {
      uint64_t factor = 1;
      for (int k = 0; k < count && factor * base < (uint64_t{1} << 31); ++k, --count) factor *= base;
      uint64_t carry = 0;
      for (size_t i = digits.size(); i-- > 0;) {
        const uint64_t d = static_cast<uint64_t>(digits[i] - '0') * factor + carry;
        digits[i] = static_cast<char>('0' + d % 10);
        carry = d / 10;
      }
      for (; carry > 0; carry /= 10) digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    }
  }
};

// a <=> b for digit strings of equal length.
int compare(const std::string& a, const std::string& b) { return std::memcmp(a.data(), b.data(), a.size()); }

// `value` cut to its first `keep` digits (zeros after them), and one unit more in place `keep`.
// The leading digit of `value` is a 0 that absorbs any carry.
std::string cut(const std::string& value, size_t keep) {
  std::string out = value.substr(0, keep);
  out.resize(value.size(), '0');
  return out;
}
std::string cut_up(const std::string& value, size_t keep) {
  std::string out = cut(value, keep);
  size_t i = keep;
  while (out[i - 1] == '9') out[--i] = '0';
  ++out[i - 1];
  return out;
}

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (v == 0) return "0";  // JavaScript prints -0 as 0 too
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  const std::string sign = v < 0 ? "-" : "";
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  const int biased = static_cast<int>(bits >> 52 & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  // |v| = m * 2^e; its neighbours are a half step away: (4m - 2) and (4m + 2) over 2^(e - 2), the
  // lower one (4m - 1) when m is a power of two (the step below it is half as wide).
  const uint64_t m = biased == 0 ? fraction : fraction | uint64_t{1} << 52;
  const int e = (biased == 0 ? 1 : biased) - 1075;
  const bool narrow_below = fraction == 0 && biased > 1;
  Decimal low(4 * m - (narrow_below ? 1 : 2)), mid(4 * m), high(4 * m + 2);
  // Each is N * 2^f, f = e - 2: as an integer N * 2^f (f >= 0), or N * 5^-f over 10^-f.
  const int f = e - 2;
  for (Decimal* d : {&low, &mid, &high}) d->times(f >= 0 ? 2 : 5, f >= 0 ? f : -f);
  const int scale = f >= 0 ? 0 : f;  // value = digits * 10^scale
  // One leading 0 more than the widest, so rounding up never carries out of the string.
  const size_t width = high.digits.size() + 1;
  for (Decimal* d : {&low, &mid, &high}) d->digits.insert(0, width - d->digits.size(), '0');
  // The shortest digits that still read back as v: strictly between the neighbours' midpoints,
  // or on one when m is even (reading rounds half to even). Of the two candidates of a length
  // (the exact value cut there, or one unit above) the nearer to v goes first (a tie: the even
  // one), as JavaScript chooses; the other can fit alone only where the bounds are uneven.
  // Keeping every digit is v itself, so the search ends.
  const bool inclusive = m % 2 == 0;
  const auto fits = [&](const std::string& c) {
    const int below = compare(c, high.digits), above = compare(c, low.digits);
    return (below < 0 || (inclusive && below == 0)) && (above > 0 || (inclusive && above == 0));
  };
  std::string candidate;
  for (size_t keep = mid.digits.find_first_not_of('0') + 1; keep <= width; ++keep) {
    const std::string down = cut(mid.digits, keep), up = cut_up(mid.digits, keep);
    const char next = keep < width ? mid.digits[keep] : '0';
    const bool rest = keep + 1 < width && mid.digits.find_first_not_of('0', keep + 1) != std::string::npos;
    const bool up_nearer = next > '5' || (next == '5' && (rest || (down[keep - 1] - '0') % 2 == 1));
    if (fits(up_nearer ? up : down)) {
      candidate = up_nearer ? up : down;
      break;
    }
    if (fits(up_nearer ? down : up)) {
      candidate = up_nearer ? down : up;
      break;
    }
  }
  const size_t first = candidate.find_first_not_of('0');
  std::string digits = candidate.substr(first);
  const int point = static_cast<int>(width - first) + scale;  // the value is 0.digits * 10^point
  digits.erase(digits.find_last_not_of('0') + 1);
  // JavaScript's Number::toString layout: plain digits for 1e-7 <= |v| < 1e21, else exponential.
  const int k = static_cast<int>(digits.size());
  if (k <= point && point <= 21) return sign + digits + std::string(static_cast<size_t>(point - k), '0');
  if (0 < point && point <= 21) return sign + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
  if (-6 < point && point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  const int exponent = point - 1;
  return sign + digits.substr(0, 1) + (k > 1 ? "." + digits.substr(1) : "") + "e" + (exponent < 0 ? "-" : "+") +
         std::to_string(exponent < 0 ? -exponent : exponent);
}

}  // namespace ox
