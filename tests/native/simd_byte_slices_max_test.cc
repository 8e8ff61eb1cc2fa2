// ReduceMax over slices of [reduce, inner] bytes with inner under a vector (kernels/
// byte_slices_max.cc: 16 rows read as one virtual row of `inner` vectors, folded by halving),
// through the kernel set's slice entry as Execution calls it, against the trivial loop: every
// inner from 2 to 17 and reduce lengths around 16 rows, the thresholds of ByteSlicesMax::applies
// and its 16 KiB limit (the shapes it does not take check the paths they do take), a last
// virtual row overlapping the one before, groups of four vectors with a repeated last one, the
// type's extremes at every position of a slice, and states carried in (ReduceMax folds several
// blocks of prefix axes into the same states). int8 (its sign flipped), uint8 and bool.
#include <catch2/catch.hpp>

#include "kernels/byte_slices_max.h"
#include "row_checks.h"

using namespace simdtest;
using ox::PlanKind;

namespace {

template <DType D>
RawOf<D> random_byte(std::mt19937_64& rng, Mix mix) {
  if constexpr (D == DType::Bool) return static_cast<RawOf<D>>(rng() % 2);  // the 0/1 bytes a bool tensor holds
  else return random_value<D>(rng, mix);
}

// The states a call starts from: the starting value, or random values (a block before this one
// left them).
template <DType D>
std::vector<RawOf<D>> start_states(int64_t count, bool carried, std::mt19937_64& rng) {
  std::vector<RawOf<D>> start(static_cast<size_t>(count));
  kernels(PlanKind::ReduceMax, D, false).fill_start(start.data(), count);
  if (carried)
    for (auto& s : start) s = random_byte<D>(rng, Mix::Specials);
  return start;
}

template <DType D>
void byte_slices_checks() {
  using R = RawOf<D>;
  std::mt19937_64 rng(static_cast<uint64_t>(D) * 7919);
  for (int64_t inner = 2; inner <= 17; ++inner) {
    const int64_t widest = 16 * 1024 / inner;  // the longest slice the path takes
    for (int64_t reduce : {int64_t{15}, int64_t{16}, int64_t{17}, int64_t{31}, int64_t{32}, int64_t{33}, int64_t{47},
                           int64_t{63}, int64_t{64}, int64_t{65}, int64_t{100}, int64_t{256}, int64_t{257}, widest, widest + 1})
      for (int64_t slices : {int64_t{1}, int64_t{3}})
        for (Mix mix : {Mix::Ties, Mix::Specials, Mix::Wide}) {
          const bool carried = mix != Mix::Wide;
          INFO(name(D) << " " << slices << " slices of [" << reduce << ", " << inner << "], mix " << int(mix)
                       << (carried ? ", states carried in" : "") << ", taken by ByteSlicesMax: "
                       << ox::ByteSlicesMax::applies(reduce, inner));
          Shifted<R> buf(slices * reduce * inner, static_cast<int>(rng() % 8));
          for (int64_t i = 0; i < slices * reduce * inner; ++i) buf.data[i] = random_byte<D>(rng, mix);
          check_max_slices<D>(buf.data, slices, reduce, inner, start_states<D>(slices * inner, carried, rng));
        }
  }
  // One extreme among its opposites at every position of a slice: each row of each virtual row,
  // the overlapped rows of the last one, every column of every vector of a group.
  const R lo = std::numeric_limits<R>::lowest(), hi = D == DType::Bool ? R(1) : std::numeric_limits<R>::max();
  for (int64_t inner : {int64_t{3}, int64_t{5}, int64_t{8}, int64_t{13}, int64_t{15}})
    for (int64_t reduce : {int64_t{64}, int64_t{71}})
      for (int64_t p = 0; p < reduce * inner; ++p) {
        INFO(name(D) << " [" << reduce << ", " << inner << "], the maximum alone at element " << p);
        std::vector<R> x(static_cast<size_t>(2 * reduce * inner), lo);
        x[static_cast<size_t>(p)] = hi;  // the first slice
        x[static_cast<size_t>(reduce * inner + (p * 7) % (reduce * inner))] = hi;  // the second, elsewhere
        check_max_slices<D>(x.data(), 2, reduce, inner, start_states<D>(2 * inner, false, rng));
      }
}

}  // namespace

TEMPLATE_TEST_CASE("ReduceMax over byte slices narrower than a vector folds 16-row virtual rows and matches the trivial loop",
                   "[simd][columns][byte-slices]", simdtest::Tag<ox::DType::Int8>, simdtest::Tag<ox::DType::Uint8>,
                   simdtest::Tag<ox::DType::Bool>) {
  byte_slices_checks<TestType::dtype>();
}
