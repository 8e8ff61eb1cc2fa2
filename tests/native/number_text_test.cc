// number_text (the numbers in error messages) against JavaScript's String(x) for landmark values,
// and, for every power of two and random doubles of every magnitude, against the C library: the
// text reads back as the same double (strtod), and no text with one digit fewer does (printf
// %.*e, which rounds the exact value, so it finds a shorter round trip if one exists).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "core/number_text.h"

using ox::number_text;

namespace {

// Significant digits of a decimal text (before any exponent; leading zeros are not significant).
int significant_digits(const std::string& text) {
  int count = 0;
  bool started = false;
  for (char c : text) {
    if (c == 'e') break;
    if (c < '0' || c > '9') continue;
    if (c != '0') started = true;
    if (started) ++count;
  }
  // Trailing zeros of an integer written out in full are not significant either.
  if (text.find('.') == std::string::npos && text.find('e') == std::string::npos)
    for (size_t i = text.size(); i-- > 0 && text[i] == '0';) --count;
  return count;
}

// The significant digits of a decimal text, without leading or trailing zeros ("0.0120" -> "12").
std::string digit_string(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == 'e') break;
    if (c >= '0' && c <= '9' && !(out.empty() && c == '0')) out += c;
  }
  return out.erase(out.find_last_not_of('0') + 1);
}

void check_shortest_round_trip(double v) {
  const std::string text = number_text(v);
  INFO("value " << std::hexfloat << v << " printed " << text);
  REQUIRE(std::strtod(text.c_str(), nullptr) == v);
  const int digits = significant_digits(text);
  if (digits > 1) {
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%.*e", digits - 2, v);  // digits - 1 significant digits
    CHECK(std::strtod(shorter, nullptr) != v);
  }
  // Of the texts of that length that read back, the nearest to v (a tie: the even one), as
  // JavaScript picks: printf's rounding of the exact value, whenever that reads back.
  char nearest[64];
  std::snprintf(nearest, sizeof nearest, "%.*e", digits - 1, v);
  if (std::strtod(nearest, nullptr) == v) CHECK(digit_string(text) == digit_string(nearest));
}

}  // namespace

TEST_CASE("number_text: as JavaScript's String(x) prints them") {
  const std::vector<std::pair<double, std::string>> cases = {
      {0.0, "0"},
      {-0.0, "0"},
      {1.0, "1"},
      {-13.0, "-13"},
      {0.5, "0.5"},
      {-1.5, "-1.5"},
      {0.1, "0.1"},
      {0.3, "0.3"},
      {2.0 / 3.0, "0.6666666666666666"},
      {13.000001, "13.000001"},
      {1e-6, "0.000001"},
      {1.7e-7, "1.7e-7"},
      {1e-7, "1e-7"},
      {1.23e-18, "1.23e-18"},
      {9007199254740994.0, "9007199254740994"},
      {1e16, "10000000000000000"},
      {9.3e18, "9300000000000000000"},
      {1e20, "100000000000000000000"},
      {123456789012345680000.0, "123456789012345680000"},
      // Exactly halfway between two shortest candidates (both read back): the even one, as JS does.
      {1125899906842624.25, "1125899906842624.2"},
      {1125899906842624.75, "1125899906842624.8"},
      {1e21, "1e+21"},
      {-1e22, "-1e+22"},
      {1e300, "1e+300"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {2.2250738585072014e-308, "2.2250738585072014e-308"},
      {2.225073858507201e-308, "2.225073858507201e-308"},
      {1e-323, "1e-323"},
      {5e-324, "5e-324"},
      {std::ldexp(1.0, 100), "1.2676506002282294e+30"},
      {std::ldexp(1.0, -1000), "9.332636185032189e-302"},
      {NAN, "NaN"},
      {INFINITY, "Infinity"},
      {-INFINITY, "-Infinity"},
  };
  for (const auto& c : cases) {
    INFO("expected " << c.second);
    CHECK(number_text(c.first) == c.second);
  }
}

TEST_CASE("number_text: the shortest text that reads back, for every power of two and random doubles") {
  for (int e = -1074; e <= 1023; ++e) {
    check_shortest_round_trip(std::ldexp(1.0, e));
    check_shortest_round_trip(-3 * std::ldexp(1.0, e - 2));
  }
  std::mt19937_64 rng(20261124);
  for (int i = 0; i < 20000; ++i) {
    double v;
    const uint64_t bits = rng();
    std::memcpy(&v, &bits, 8);
    if (std::isfinite(v) && v != 0) check_shortest_round_trip(v);
    check_shortest_round_trip(std::round(std::uniform_real_distribution<double>(-1e6, 1e6)(rng)) / 1000);
  }
}

TEST_CASE("integer_text: every int64 as printf's %lld prints it") {
  const auto printed = [](int64_t v) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
    return std::string(text);
  };
  const int64_t landmarks[] = {0, 1, -1, 9, 10, -10, 99, 100, 2147483647, -2147483648LL, 9007199254740991LL,
                               -9007199254740991LL, INT64_MAX, INT64_MIN, INT64_MIN + 1};
  for (int64_t v : landmarks) CHECK(ox::integer_text(v) == printed(v));
  std::mt19937_64 rng(20261204);
  for (int i = 0; i < 20000; ++i) {
    const int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);  // every magnitude
    CHECK(ox::integer_text(v) == printed(v));
  }
}
