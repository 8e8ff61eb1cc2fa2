// Every kernel at lengths equal to, below, just above and multiples of its tile, in both families,
// with misaligned input and state, and with its run split anywhere (carried state).
#include <catch2/catch.hpp>

#include "kernel_harness.h"

using tk::Case;

namespace {

// Narrow values (many ties, both zeros) or a mix with a few specials (NaN included).
std::vector<uint64_t> sample_data(const Case& c, int64_t n, tv::Rng& rng, bool narrow) {
  std::vector<uint64_t> x(static_cast<size_t>(n));
  for (uint64_t& v : x) v = narrow ? tv::narrow_value(c.dtype, rng) : tv::mixed_value(c.dtype, rng, 2);
  return x;
}

}  // namespace

TEST_CASE("kernels: row family at every length around the tiles, every type, misaligned") {
  tv::Rng rng(1001);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t length : tk::tile_lengths()) {
      const int64_t rows = length <= 70 ? 3 : length <= 4097 ? 2 : 1;
      for (int shift = 0; shift < 4; ++shift) {
        if (length > 70 && shift != length % 4) continue;
        for (bool narrow : {true, false}) {
          if (length > 4097 && narrow == (shift % 2 == 0)) continue;
          const std::vector<uint64_t> x = sample_data(c, rows * length, rng, narrow);
          const tk::Outcome o = tk::run_rows(c, k, x, rows, length, shift, tk::whole(length));
          const std::string v = tk::verdict(c, tk::expected(c, x, rows, length, 1), o);
          INFO(c.name() << ", " << rows << " runs of " << length << ", shift " << shift << (narrow ? ", narrow" : ", mixed"));
          CHECK(v == "");
        }
      }
    }
  }
}

TEST_CASE("kernels: column family at every width around the tiles, every type, misaligned") {
  tv::Rng rng(2002);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t width : tk::tile_lengths(16385)) {
      const std::vector<int64_t> row_counts = width <= 70 ? std::vector<int64_t>{0, 1, 2, 3, 7, 16, 17}
                                              : width <= 4097 ? std::vector<int64_t>{1, 3, 17}
                                                              : std::vector<int64_t>{2};
      for (int64_t rows : row_counts) {
        const int shift = static_cast<int>((width + rows) % 4);
        const int64_t stride = width + (rows % 3);  // sometimes a sub-range of wider rows, as Execution does
        const std::vector<uint64_t> x = sample_data(c, rows * stride, rng, (width + rows) % 2 == 0);
        const tk::Outcome o = tk::run_columns(c, k, x, rows, width, stride, shift, tk::whole(rows), tk::whole(width));
        // The reference sees only the columns the kernel was given.
        std::vector<uint64_t> used;
        for (int64_t r = 0; r < rows; ++r)
          used.insert(used.end(), x.begin() + r * stride, x.begin() + r * stride + width);
        INFO(c.name() << ", " << rows << " rows of " << width << " (stride " << stride << "), shift " << shift);
        CHECK(tk::verdict(c, tk::expected(c, used, rows, width, 0), o) == "");
      }
    }
  }
}

TEST_CASE("kernels: column family with long columns (many rows, few of them wide)") {
  tv::Rng rng(3003);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t rows : {127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4097, 65537}) {
      for (int64_t width : {1, 2, 3, 5, 8, 16, 17}) {
        if (rows > 1025 && width > 3) continue;
        const int shift = static_cast<int>((rows + width) % 4);
        const std::vector<uint64_t> x = sample_data(c, rows * width, rng, (rows + width) % 2 == 1);
        const tk::Outcome o = tk::run_columns(c, k, x, rows, width, width, shift, tk::whole(rows), tk::whole(width));
        INFO(c.name() << ", " << rows << " rows of " << width << ", shift " << shift);
        CHECK(tk::verdict(c, tk::expected(c, x, rows, width, 0), o) == "");
      }
    }
  }
}

TEST_CASE("kernels: carried state - a run split anywhere equals one call and the reference") {
  tv::Rng rng(4004);
  for (const Case& c : tk::cases()) {
    const ox::KernelSet k = tk::kernels_for(c);
    for (int64_t length : {1, 2, 3, 16, 17, 33, 64, 65, 129, 1025, 4097}) {
      for (int trial = 0; trial < (length < 100 ? 4 : 2); ++trial) {
        const int64_t rows = 2;
        const std::vector<uint64_t> x = sample_data(c, rows * length, rng, trial % 2 == 0);
        const tk::Segments pieces = tk::random_segments(length, rng);
        const int shift = trial % 4;
        const tk::Outcome one = tk::run_rows(c, k, x, rows, length, shift, tk::whole(length));
        const tk::Outcome split = tk::run_rows(c, k, x, rows, length, shift, pieces);
        INFO(c.name() << ", runs of " << length << " cut into " << pieces.size() << " pieces");
        CHECK(tk::verdict(c, tk::expected(c, x, rows, length, 1), split) == "");
        if (c.arg()) CHECK(split.index == one.index);
        else CHECK(split.best == one.best);
      }
    }
    for (int64_t width : {1, 3, 16, 17, 65, 257}) {
      for (int64_t rows : {1, 2, 5, 33, 130}) {
        const std::vector<uint64_t> x = sample_data(c, rows * width, rng, (rows + width) % 2 == 0);
        const tk::Segments row_pieces = tk::random_segments(rows, rng);
        const tk::Segments column_pieces = tk::random_segments(width, rng);
        const int shift = static_cast<int>(rows % 4);
        const tk::Outcome one = tk::run_columns(c, k, x, rows, width, width, shift, tk::whole(rows), tk::whole(width));
        const tk::Outcome split = tk::run_columns(c, k, x, rows, width, width, shift, row_pieces, column_pieces);
        INFO(c.name() << ", " << rows << " rows of " << width << " cut into " << row_pieces.size() << " x "
                      << column_pieces.size() << " pieces");
        CHECK(tk::verdict(c, tk::expected(c, x, rows, width, 0), split) == "");
        if (c.arg()) CHECK(split.index == one.index);
        else CHECK(split.best == one.best);
      }
    }
  }
}

TEST_CASE("kernels: the registry has a kernel set for exactly the combinations some version needs") {
  CHECK(tk::cases().size() == 12 * 2 * 2 + 11 + 4);  // ArgMax/ArgMin x 12 types x 2, ReduceMax 11, Hardmax 4
  for (const Case& c : tk::cases()) tk::kernels_for(c);
  ox::KernelSet k{};
  CHECK_FALSE(ox::select_kernels(ox::PlanKind::Identity, ox::DType::Float32, false, &k));
  CHECK_FALSE(ox::select_kernels(ox::PlanKind::ArgMax, ox::DType::Undefined, false, &k));
}
