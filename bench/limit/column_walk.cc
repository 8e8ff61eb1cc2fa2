// The memory system's bound on a column walk, natively: how fast one core reads the
// [1, 21, 512, 512] float32 map (21 rows of 1 MiB, 1 MiB apart) from memory when it reduces over
// the rows, against one sequential read of the same bytes. Each walk keeps a max per column (no
// index, no NaN rule: the cheapest column kernel there is) in a state array, as the wasm kernel
// does (src/kernels/arg_columns_simd.h: blocks of columns, a few rows a pass, 16 columns a step).
// If the walks read well below the sequential figure, no column kernel in any language reaches
// the bench's limit-max over this layout, and kernel-only figures for the map are bounded by the
// walk, not by the kernel's ops. Built and run by bench/column-walk.sh (g++ -O2, any host).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using F4 = float __attribute__((vector_size(16)));
constexpr int kRows = 21;
constexpr long kColumns = 512 * 512;
constexpr int kRounds = 15;

F4 load(const float* p) {
  F4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
void store(float* p, F4 v) { __builtin_memcpy(p, &v, sizeof v); }
F4 vmax(F4 a, F4 b) { return a > b ? a : b; }

volatile float g_sink;
// Tells the compiler the memory at p is read: the walks' stores stay.
void keep(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

void sequential(const float* x) {
  F4 a = load(x), b = a, c = a, d = a;
  for (long i = 0; i < kRows * kColumns; i += 16) {
    a = vmax(a, load(x + i)), b = vmax(b, load(x + i + 4));
    c = vmax(c, load(x + i + 8)), d = vmax(d, load(x + i + 12));
  }
  g_sink = vmax(vmax(a, b), vmax(c, d))[0];
}

// Blocks of `block` columns (a multiple of 16 dividing kColumns); in each, the rows in passes of at
// most `most_per_pass`, split as the kernel splits them (ceil(rows / passes) a pass, the rest last: 21
// rows at 8 go 7 + 7 + 7); in each pass, 16 columns a step down the pass's rows, their state
// loaded and stored once a step. `best` is set beforehand (outside the timed walk).
void walk(const float* x, float* best, long block, int most_per_pass) {
  const int passes = (kRows + most_per_pass - 1) / most_per_pass, per_pass = (kRows + passes - 1) / passes;
  for (long j = 0; j < kColumns; j += block)
    for (int k = 0; k < kRows; k += per_pass) {
      const int rows = std::min(per_pass, kRows - k);
      for (long c = j; c < std::min(j + block, kColumns); c += 16) {
        F4 s0 = load(best + c), s1 = load(best + c + 4), s2 = load(best + c + 8), s3 = load(best + c + 12);
        for (int r = 0; r < rows; ++r) {
          const float* p = x + (k + r) * kColumns + c;
          s0 = vmax(s0, load(p)), s1 = vmax(s1, load(p + 4)), s2 = vmax(s2, load(p + 8)), s3 = vmax(s3, load(p + 12));
        }
        store(best + c, s0), store(best + c + 4, s1), store(best + c + 8, s2), store(best + c + 12, s3);
      }
    }
  keep(best);
}

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

int main() {
  std::vector<float> input(static_cast<size_t>(kRows * kColumns)), best(kColumns);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(std::rand() % 1000);
  std::vector<char> evict(64 << 20, 1);  // read (not written) before each walk: larger than the caches
  struct Variant {
    const char* name;
    long block;  // 0: the sequential read
    int per_pass;
  };
  long evicted = 0;
  const Variant variants[] = {{"sequential read", 0, 0},
                              {"walk: 2048 columns, 8 rows a pass at most (the kernel's)", 2048, 8},
                              {"walk: 2048 columns, 4 rows a pass at most", 2048, 4},
                              {"walk: 2048 columns, all 21 rows a pass", 2048, kRows},
                              {"walk: 32768 columns, 8 rows a pass at most", 32768, 8},
                              {"walk: 65536 columns, 2 rows a pass at most", 65536, 2},
                              {"walk: 65536 columns, 1 row a pass", 65536, 1}};
  for (const Variant& v : variants)
    if (v.block % 16 != 0 || kColumns % (v.block > 0 ? v.block : 16) != 0) return std::fprintf(stderr, "bad block %ld\n", v.block), 1;
  std::vector<std::vector<double>> times(sizeof variants / sizeof variants[0]);
  for (int round = 0; round < kRounds; ++round)
    for (size_t v = 0; v < times.size(); ++v) {
      for (size_t i = 0; i < evict.size(); i += 64) evicted += evict[i];
      std::fill(best.begin(), best.end(), -1.0f);
      const double t0 = seconds();
      if (variants[v].block == 0) sequential(input.data());
      else walk(input.data(), best.data(), variants[v].block, variants[v].per_pass);
      times[v].push_back(seconds() - t0);
    }
  g_sink = static_cast<float>(evicted);
  std::printf("float32 [1, %d, 512, 512], max over axis 1, from memory; median of %d rounds, interleaved\n", kRows, kRounds);
  for (size_t v = 0; v < times.size(); ++v) {
    std::sort(times[v].begin(), times[v].end());
    const double s = times[v][times[v].size() / 2];
    std::printf("%-56s %7.0f us %6.1f GB/s\n", variants[v].name, s * 1e6, kRows * kColumns * 4.0 / s / 1e9);
  }
  return 0;
}
