// Kernels through the registry (ox::select_kernels), never by their implementation's name: every
// (kind, type, select_last) the operators can ask for, run on exactly sized 64-byte aligned buffers
// shifted by a few elements, with guard zones around the state, and checked against the reference.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "fresh_state.h"
#include "kernels/registry.h"
#include "reference.h"
#include "spec_table.h"
#include "values.h"

namespace tk {

using ox::DType;
using ox::PlanKind;

struct Case {
  PlanKind kind;
  DType dtype;
  bool last;
  std::string name() const {
    const char* k = kind == PlanKind::ArgMax ? "ArgMax" : kind == PlanKind::ArgMin ? "ArgMin"
                    : kind == PlanKind::ReduceMax ? "ReduceMax" : "Hardmax";
    return std::string(k) + " " + ox::dtype_name(dtype) + (last ? " select_last" : "");
  }
  bool arg() const { return kind != PlanKind::ReduceMax; }
  bool want_max() const { return kind != PlanKind::ArgMin; }
};

// Every combination some operator version can ask for: the union of each op's type lists (from the
// spec table), both index choices for ArgMax/ArgMin, first index for Hardmax.
inline const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> out;
    const std::pair<std::string, PlanKind> ops[] = {
        {"ArgMax", PlanKind::ArgMax}, {"ArgMin", PlanKind::ArgMin}, {"ReduceMax", PlanKind::ReduceMax},
        {"Hardmax", PlanKind::Hardmax}};
    for (const auto& op : ops)
      for (DType t : spec::known_types()) {
        if (!spec::first_accepting(op.first, t)) continue;
        out.push_back({op.second, t, false});
        if (op.second == PlanKind::ArgMax || op.second == PlanKind::ArgMin) out.push_back({op.second, t, true});
      }
    return out;
  }();
  return all;
}

// Bytes at a chosen offset from a 64-byte boundary, in an allocation that ends exactly where the
// data ends (ASan reports any read or write past it).
class Aligned {
 public:
  Aligned(size_t bytes, size_t offset) : offset_(offset) {
    base_ = static_cast<uint8_t*>(::operator new(offset + bytes, std::align_val_t(64)));
  }
  ~Aligned() { ::operator delete(base_, std::align_val_t(64)); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  uint8_t* data() const { return base_ + offset_; }

 private:
  uint8_t* base_;
  size_t offset_;
};

// Per-output state (best value, int32 index) between guard zones; misaligned by `shift` elements.
class State {
 public:
  static constexpr int kGuard = 16;
  State(DType t, int64_t n, int shift) : size_(ref::element_size(t)), n_(n), shift_(shift) {
    best_.assign(static_cast<size_t>((kGuard + shift + n + kGuard) * size_), kFill);
    index_.assign(static_cast<size_t>(kGuard + shift + n + kGuard), kIndexFill);
    std::fill(index_.begin() + kGuard + shift, index_.begin() + kGuard + shift + n, 0);  // as Execution starts
  }
  void* best() { return best_.data() + (kGuard + shift_) * size_; }
  int32_t* index() { return index_.data() + kGuard + shift_; }
  bool guards_intact() const {
    const size_t lo = static_cast<size_t>((kGuard + shift_) * size_), hi = lo + static_cast<size_t>(n_ * size_);
    for (size_t b = 0; b < best_.size(); ++b)
      if ((b < lo || b >= hi) && best_[b] != kFill) return false;
    for (size_t i = 0; i < index_.size(); ++i)
      if ((i < static_cast<size_t>(kGuard + shift_) || i >= static_cast<size_t>(kGuard + shift_ + n_)) &&
          index_[i] != kIndexFill)
        return false;
    return true;
  }
  std::vector<uint64_t> best_bits(DType t) { return tv::unpack(t, best(), n_); }
  std::vector<int64_t> indices() { return std::vector<int64_t>(index(), index() + n_); }

 private:
  static constexpr uint8_t kFill = 0x5A;
  static constexpr int32_t kIndexFill = 0x5A5A5A5A;
  int size_;
  int64_t n_;
  int shift_;
  std::vector<uint8_t> best_;
  std::vector<int32_t> index_;
};

inline ox::KernelSet kernels_for(const Case& c) {
  ox::KernelSet k{};
  const bool found = ox::select_kernels(c.kind, c.dtype, c.last, &k);
  INFO(c.name());
  REQUIRE(found);
  REQUIRE(k.rows != nullptr);
  REQUIRE(k.columns != nullptr);
  REQUIRE(k.fill_start != nullptr);
  REQUIRE(k.tracks_index == c.arg());
  return k;
}

struct Outcome {
  std::vector<uint64_t> best;
  std::vector<int64_t> index;
  bool guards_intact = true;
};

// A segment of a run or of a set of columns: [begin, end).
using Segments = std::vector<std::pair<int64_t, int64_t>>;

inline Segments whole(int64_t n) { return {{0, n}}; }

// Cuts [0, n) at random points, with one-element pieces among them.
inline Segments random_segments(int64_t n, tv::Rng& rng) {
  Segments out;
  for (int64_t at = 0; at < n;) {
    const uint64_t roll = rng.below(4);
    int64_t len = roll == 0 ? 1 : roll == 1 ? 1 + static_cast<int64_t>(rng.below(17)) : 1 + static_cast<int64_t>(rng.below(static_cast<uint64_t>(n)));
    len = std::min(len, n - at);
    out.push_back({at, at + len});
    at += len;
  }
  return out;
}

// Row family: `rows` runs of `length` elements, the input `shift` elements past a 64-byte boundary.
// Each run is fed as `pieces` (one call over all runs when it is whole).
inline Outcome run_rows(const Case& c, const ox::KernelSet& k, const std::vector<uint64_t>& x, int64_t rows,
                        int64_t length, int shift, const Segments& pieces) {
  const int size = ref::element_size(c.dtype);
  const std::vector<uint8_t> bytes = tv::pack(c.dtype, x);
  Aligned input(bytes.size(), static_cast<size_t>(shift * size));
  if (!bytes.empty()) std::memcpy(input.data(), bytes.data(), bytes.size());
  State state(c.dtype, rows, shift);
  fresh::start(k, state.best(), static_cast<size_t>(rows * size), state.index(), rows);  // runs start at index 0
  if (pieces.size() == 1 && pieces[0].first == 0 && pieces[0].second == length) {
    k.rows(input.data(), rows, length, 0, state.best(), state.index());
  } else {
    for (int64_t r = 0; r < rows; ++r)
      for (const auto& p : pieces)
        k.rows(input.data() + (r * length + p.first) * size, 1, p.second - p.first, p.first,
               static_cast<uint8_t*>(state.best()) + r * size, state.index() + r);
  }
  Outcome o;
  o.best = state.best_bits(c.dtype);
  o.index = state.indices();
  o.guards_intact = state.guards_intact();
  CHECK((bytes.empty() || std::memcmp(input.data(), bytes.data(), bytes.size()) == 0));  // the input is read-only
  return o;
}

// Column family: `rows` rows of `stride` elements; the kernel sees columns [0, width) of each,
// cut into `column_pieces` (each piece's state starts at its column) and `row_pieces`.
inline Outcome run_columns(const Case& c, const ox::KernelSet& k, const std::vector<uint64_t>& x, int64_t rows,
                           int64_t width, int64_t stride, int shift, const Segments& row_pieces,
                           const Segments& column_pieces) {
  const int size = ref::element_size(c.dtype);
  const std::vector<uint8_t> bytes = tv::pack(c.dtype, x);
  Aligned input(bytes.size(), static_cast<size_t>(shift * size));
  if (!bytes.empty()) std::memcpy(input.data(), bytes.data(), bytes.size());
  int64_t covered = 0;
  for (const auto& rp : row_pieces) covered += rp.second - rp.first;
  REQUIRE(covered == rows);
  State state(c.dtype, width, shift);
  fresh::start(k, state.best(), static_cast<size_t>(width * size), state.index(), width, rows > 0);  // from row 0
  for (const auto& rp : row_pieces)
    for (const auto& cp : column_pieces)
      k.columns(input.data() + (rp.first * stride + cp.first) * size, rp.second - rp.first, cp.second - cp.first,
                stride, rp.first, static_cast<uint8_t*>(state.best()) + cp.first * size, state.index() + cp.first);
  Outcome o;
  o.best = state.best_bits(c.dtype);
  o.index = state.indices();
  o.guards_intact = state.guards_intact();
  CHECK((bytes.empty() || std::memcmp(input.data(), bytes.data(), bytes.size()) == 0));
  return o;
}

// What the reference says about each of `outputs` slices; `x` holds the data as a [a, b] tensor
// reduced along `axis`.
inline ref::Expected expected(const Case& c, const std::vector<uint64_t>& x, int64_t a, int64_t b, int64_t axis) {
  ref::Tensor t;
  t.dtype = c.dtype;
  t.dims = {a, b};
  t.bits = x;
  const int64_t reduced = axis == 0 ? a : b;
  if (c.arg() && reduced == 0)  // no element seen: the state must stay as it started (index 0)
    return ref::exact(DType::Int64, {axis == 0 ? b : a}, std::vector<uint64_t>(static_cast<size_t>(axis == 0 ? b : a), 0));
  if (c.arg()) return ref::arg_extreme(t, c.want_max(), axis, false, c.last);
  return ref::reduce_max(t, {axis}, false);
}

// "" when the outcome matches; otherwise a description of the first difference.
inline std::string verdict(const Case& c, const ref::Expected& e, const Outcome& o) {
  if (!o.guards_intact) return "the kernel wrote outside its state";
  if (c.arg()) {
    for (size_t k = 0; k < e.bits.size(); ++k)
      if (static_cast<uint64_t>(o.index[k]) != e.bits[k])
        return "output " + std::to_string(k) + ": index " + std::to_string(o.index[k]) + ", expected " +
               std::to_string(e.bits[k]);
    return "";
  }
  for (size_t k = 0; k < e.bits.size(); ++k)
    if (!ref::matches(e, k, o.best[k]))
      return "output " + std::to_string(k) + ": " + tv::hex(o.best[k]) + ", expected " + tv::hex(e.bits[k]) +
             (e.any_nan[k] ? " (a NaN)" : "");
  return "";
}

// Transposes a [rows, cols] matrix of bits.
inline std::vector<uint64_t> transpose(const std::vector<uint64_t>& m, int64_t rows, int64_t cols) {
  std::vector<uint64_t> t(m.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[static_cast<size_t>(c * rows + r)] = m[static_cast<size_t>(r * cols + c)];
  return t;
}

// Lengths around every tile and block size a SIMD kernel might use.
inline std::vector<int64_t> tile_lengths(int64_t max = 65537) {
  std::vector<int64_t> out;
  for (int64_t n = 0; n <= 70; ++n) out.push_back(n);
  for (int64_t edge : {128, 256, 1024, 4096, 16384, 65536})
    for (int64_t n : {edge - 1, edge, edge + 1})
      if (n <= max) out.push_back(n);
  return out;
}

}  // namespace tk
