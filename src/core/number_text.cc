#include "core/number_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ox {
namespace {

// A non-negative integer as decimal digits, least significant first, grown by multiplying in
// place: a subnormal's 1,074 factors of 5 give about 770 digits. Error texts are rare and short,
// so plain digit arrays beat a bignum library (and std::string's operations, which took twice
// the module bytes).
struct Decimal {
  static constexpr int kMax = 800;
  uint8_t d[kMax];
  int n = 0;

  explicit Decimal(uint64_t v) {
    do d[n++] = static_cast<uint8_t>(v % 10);
    while ((v /= 10) > 0);
  }
  int at(int i) const { return i < n ? d[i] : 0; }  // the digit of 10^i
  void push(uint64_t carry) {
    for (; carry > 0; carry /= 10) d[n++] = static_cast<uint8_t>(carry % 10);
  }
  // Multiplies by base^count, several powers at a time (each product of a digit stays far below
  // 2^64), so 1,074 factors of 5 take 83 passes.
  void times(uint64_t base, int count) {
    while (count > 0) {
      uint64_t factor = 1;
      for (; count > 0 && factor * base < (uint64_t{1} << 31); --count) factor *= base;
      uint64_t carry = 0;
      for (int i = 0; i < n; ++i) {
        const uint64_t x = d[i] * factor + carry;
        d[i] = static_cast<uint8_t>(x % 10), carry = x / 10;
      }
      push(carry);
    }
  }
  // The digits below 10^p set to 0, and (up) one unit of 10^p added.
  void cut(int p, bool up) {
    for (int i = 0; i < p && i < n; ++i) d[i] = 0;
    if (!up) return;
    int i = p;
    for (; i < n && d[i] == 9; ++i) d[i] = 0;
    if (i < n) ++d[i];
    else push(uint64_t{1});  // (p <= n here: a 9...9 prefix carried out of the top)
  }
};

// a <=> b
int compare(const Decimal& a, const Decimal& b) {
  for (int i = (a.n > b.n ? a.n : b.n) - 1; i >= 0; --i)
    if (a.at(i) != b.at(i)) return a.at(i) < b.at(i) ? -1 : 1;
  return 0;
}

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (v == 0) return "0";  // JavaScript prints -0 as 0 too
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
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
  // The shortest digits that still read back as v: strictly between the neighbours' midpoints,
  // or on one when m is even (reading rounds half to even). Of the two candidates of a length
  // (the exact value cut there, or one unit above) the nearer to v goes first (a tie: the even
  // one), as JavaScript chooses; the other can fit alone only where the bounds are uneven.
  // Keeping every digit (p = 0) is v itself, so the search ends.
  const bool inclusive = m % 2 == 0;
  const auto fits = [&](const Decimal& c) {
    const int below = compare(c, high), above = compare(c, low);
    return (below < 0 || (inclusive && below == 0)) && (above > 0 || (inclusive && above == 0));
  };
  Decimal candidate = mid;
  for (int p = mid.n - 1; p >= 0; --p) {  // digits below 10^p cut
    const int next = p > 0 ? mid.d[p - 1] : 0;
    bool rest = false;
    for (int i = 0; i + 1 < p; ++i) rest = rest || mid.d[i] != 0;
    const bool up_nearer = next > 5 || (next == 5 && (rest || mid.d[p] % 2 == 1));
    Decimal nearer = mid, other = mid;
    nearer.cut(p, up_nearer), other.cut(p, !up_nearer);
    if (fits(nearer)) {
      candidate = nearer;
      break;
    }
    if (fits(other)) {
      candidate = other;
      break;
    }
  }
  // The value is 0.d1 d2 ... dk * 10^point: the digits from the top, trailing zeros dropped.
  char digits[24];
  int k = 0, low_digit = 0;
  while (candidate.d[low_digit] == 0) ++low_digit;
  for (int i = candidate.n - 1; i >= low_digit; --i) digits[k++] = static_cast<char>('0' + candidate.d[i]);
  const int point = candidate.n + scale;
  // JavaScript's Number::toString layout: plain digits for 1e-7 <= |v| < 1e21, else exponential.
  std::string out = v < 0 ? "-" : "";
  if (k <= point && point <= 21) return out.append(digits, k).append(point - k, '0');
  if (0 < point && point <= 21) return out.append(digits, point).append(1, '.').append(digits + point, k - point);
  if (-6 < point && point <= 0) return out.append("0.").append(-point, '0').append(digits, k);
  const int exponent = point - 1;
  out.append(digits, 1);
  if (k > 1) out.append(1, '.').append(digits + 1, k - 1);
  return out.append(exponent < 0 ? "e-" : "e+").append(integer_text(exponent < 0 ? -exponent : exponent));
}

std::string integer_text(int64_t v) {
  char digits[20];  // 2^63 has 19
  int n = 0;
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do digits[n++] = static_cast<char>('0' + magnitude % 10);
  while ((magnitude /= 10) > 0);
  std::string out = v < 0 ? "-" : "";
  while (n > 0) out += digits[--n];
  return out;
}

}  // namespace ox
