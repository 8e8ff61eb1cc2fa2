// Random node calls for tests of the wire format and of what decodes it: any names, values,
// tensors and counts (mostly invalid calls), each well-formed as the JS writer would encode it.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "node_builder.h"
#include "values.h"

namespace tn {

using ox::DType;
using tb::Node;

inline double nasty(tv::Rng& rng) {
  static const double kValues[] = {0, 1, 2, 3, 4, 5, 13, 18, 64, 65, 66, -1, -0.0, 0.5, 1.5, NAN, -NAN, INFINITY,
                                   -INFINITY, 1e300, -1e300, 9007199254740991.0, 9007199254740992.0,
                                   9007199254740994.0, 1048576, 1048577, 2147483648.0, 1e15, 4.9e-324};
  return kValues[rng.below(sizeof kValues / sizeof kValues[0])];
}

inline std::string random_name(tv::Rng& rng) {
  static const std::vector<std::string> known = {"ArgMax", "ArgMin", "ReduceMax", "Hardmax", "axis", "axes", "keepdims",
                                                 "select_last_index", "noop_with_empty_axes"};
  if (rng.chance(70)) return rng.pick(known);
  std::string s(static_cast<size_t>(rng.below(rng.chance(20) ? 100 : 12)), 'x');
  for (char& ch : s) ch = static_cast<char>(32 + rng.below(95));
  return s;
}

inline tb::ValueSpec random_value(tv::Rng& rng) {
  switch (rng.below(5)) {
    case 0: return tb::absent();
    case 1: return tb::number(nasty(rng));
    case 2: return tb::boolean(rng.chance(50));
    case 3: {
      std::vector<double> v(static_cast<size_t>(rng.below(rng.chance(10) ? 90 : 5)));
      for (double& d : v) d = nasty(rng);
      return tb::list(v);
    }
    default: return tb::other(static_cast<ox::OtherKind>(1 + rng.below(6)));
  }
}

inline tb::TensorSpec random_tensor(tv::Rng& rng) {
  if (rng.chance(10)) return tb::missing_input();
  tb::TensorSpec t;
  t.dtype = static_cast<int32_t>(rng.below(18));
  t.length = rng.chance(50) ? static_cast<double>(rng.below(30)) : nasty(rng);
  t.dims.resize(static_cast<size_t>(rng.below(rng.chance(10) ? 70 : 5)));
  for (double& d : t.dims) d = rng.chance(70) ? static_cast<double>(rng.below(5)) : nasty(rng);
  t.values.resize(static_cast<size_t>(rng.below(rng.chance(10) ? 70 : 3)));
  for (double& v : t.values) v = nasty(rng);
  return t;
}

// A well-formed request: any content, counts and lengths consistent with what it carries.
inline Node random_node(tv::Rng& rng) {
  Node n(random_name(rng));
  n.opset = random_value(rng);
  for (int64_t i = 0, k = static_cast<int64_t>(rng.below(rng.chance(10) ? 7 : 3)); i < k; ++i) n.in(random_tensor(rng));
  for (int64_t i = 0, k = static_cast<int64_t>(rng.below(rng.chance(10) ? 11 : 4)); i < k; ++i) {
    std::string name = random_name(rng);  // before the value: argument order is unspecified
    n.attr(std::move(name), random_value(rng));
  }
  return n;
}

}  // namespace tn
