// 16-byte vectors written once with GCC/Clang vector extensions: SSE2 natively (so the Catch2
// suite runs the very kernel logic), wasm simd128 under em++ -msimd128. Only any_true uses an
// intrinsic, where a portable spelling would cost two lane extracts in wasm.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>

#if defined(__EMSCRIPTEN__) && !defined(__wasm_simd128__)
#error "build with -msimd128: without it em++ silently scalarizes the vector kernels"
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace ox {
namespace simd {

constexpr int kBytes = 16;

template <class T>
struct VecOf {
  typedef T type __attribute__((vector_size(kBytes)));
};
template <class T>
using Vec = typename VecOf<T>::type;

// The signed integer of a size: comparison masks have lanes of this type.
template <int Size> struct SignedOf;
template <> struct SignedOf<1> { using type = int8_t; };
template <> struct SignedOf<2> { using type = int16_t; };
template <> struct SignedOf<4> { using type = int32_t; };
template <> struct SignedOf<8> { using type = int64_t; };
template <class T>
using MaskOf = Vec<typename SignedOf<sizeof(T)>::type>;

using I8 = Vec<int8_t>;
using I16 = Vec<int16_t>;
using I32 = Vec<int32_t>;
using I64 = Vec<int64_t>;
using U64 = Vec<uint64_t>;

// Pointers are only 8-aligned: every access goes through memcpy (one v128.load / movdqu).
template <class T>
inline Vec<T> load(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, kBytes);
  return v;
}
template <class T>
inline void store(T* p, Vec<T> v) {
  std::memcpy(p, &v, kBytes);
}
// A brace list of identical lanes: clang emits one splat. (A lane-by-lane loop went through the
// stack with a store-forwarding stall per lane, and was not hoisted out of loops.)
template <class T, size_t... I>
inline Vec<T> splat_lanes(T x, std::index_sequence<I...>) {
  return Vec<T>{((void)I, x)...};
}
template <class T>
inline Vec<T> splat(T x) {
  return splat_lanes(x, std::make_index_sequence<kBytes / sizeof(T)>());
}
// Reinterprets the 16 bytes (no conversion).
template <class To, class From>
inline To bits(From v) {
  static_assert(sizeof(To) == kBytes && sizeof(From) == kBytes, "16-byte vectors only");
  To t;
  std::memcpy(&t, &v, kBytes);
  return t;
}

// True when any bit of the vector is set (a comparison mask has some lane true).
template <class V>
inline bool any(V v) {
#if defined(__wasm_simd128__)
  return wasm_v128_any_true(bits<v128_t>(v));
#else
  const U64 u = bits<U64>(v);
  return (u[0] | u[1]) != 0;
#endif
}

// Bit i set when byte i of v has its top bit set (a comparison mask: all bits of a true lane):
// one i8x16.bitmask / pmovmskb.
template <class V>
inline uint32_t byte_mask(V v) {
#if defined(__wasm_simd128__)
  return static_cast<uint32_t>(wasm_i8x16_bitmask(bits<v128_t>(v)));
#else
  return static_cast<uint32_t>(__builtin_ia32_pmovmskb128(bits<Vec<char>>(v)));
#endif
}
// The byte masks of four vectors at increasing addresses, as one 64-bit mask.
template <class M>
inline uint64_t byte_mask(M m0, M m1, M m2, M m3) {
  return byte_mask(m0) | uint64_t{byte_mask(m1)} << 16 | uint64_t{byte_mask(m2)} << 32 | uint64_t{byte_mask(m3)} << 48;
}

// Two comparison masks with 2-byte lanes, one bit per lane, in order: bits 8k .. 8k+7 from m_k. A
// saturating narrow keeps a lane's sign: packsswb, pmovmskb.
template <class M>
inline uint32_t narrowed_mask(M m0, M m1) {
  static_assert(sizeof(m0[0]) == 2, "lanes of 2 bytes");
#if defined(__wasm_simd128__)
  return static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_narrow_i16x8(bits<v128_t>(m0), bits<v128_t>(m1))));
#else
  return byte_mask(__builtin_ia32_packsswb128(bits<I16>(m0), bits<I16>(m1)));
#endif
}

// Four comparison masks whose lanes are 4 or 8 bytes wide, one bit per 4 bytes, in order: bits
// 4k .. 4k+3 from m_k. Two saturating narrows keep a lane's sign (all ones stays all ones) and
// one bitmask reads it: packssdw, packsswb, pmovmskb.
template <class M>
inline uint32_t packed_mask(M m0, M m1, M m2, M m3) {
  static_assert(sizeof(m0[0]) >= 4, "lanes of 4 or 8 bytes");
#if defined(__wasm_simd128__)
  const v128_t a = wasm_i16x8_narrow_i32x4(bits<v128_t>(m0), bits<v128_t>(m1));
  const v128_t b = wasm_i16x8_narrow_i32x4(bits<v128_t>(m2), bits<v128_t>(m3));
  return static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_narrow_i16x8(a, b)));
#else
  const I16 a = bits<I16>(__builtin_ia32_packssdw128(bits<I32>(m0), bits<I32>(m1)));
  const I16 b = bits<I16>(__builtin_ia32_packssdw128(bits<I32>(m2), bits<I32>(m3)));
  return byte_mask(__builtin_ia32_packsswb128(a, b));
#endif
}

// Byte i of v at index[i], 0 where index[i] >= 16 (as unsigned): one i8x16.swizzle (pshufb).
inline Vec<uint8_t> swizzle(Vec<uint8_t> v, Vec<uint8_t> index) {
#if defined(__wasm_simd128__)
  return bits<Vec<uint8_t>>(wasm_i8x16_swizzle(bits<v128_t>(v), bits<v128_t>(index)));
#else
  Vec<uint8_t> out{};
  for (int i = 0; i < kBytes; ++i) out[i] = index[i] < kBytes ? v[index[i]] : 0;
  return out;
#endif
}

// Hides how v was computed from the optimizer. Where a max and a compare of the same values
// meet, clang rewrites the max as a select on the compare: one v128.bitselect, which V8 emits
// as three x86 instructions, instead of one pmax/pmaxsw.
template <class V>
inline V opaque(V v) {
#if defined(__wasm__)
  __asm__("" : "+r"(v));
#elif defined(__SSE2__)
  __asm__("" : "+x"(v));
#endif
  return v;
}

// Lane-wise select: mask lanes are all-ones or all-zeros (a comparison result).
template <class V, class M>
inline V select(M mask, V yes, V no) {
  const M y = bits<M>(yes), n = bits<M>(no);
  return bits<V>((y & mask) | (n & ~mask));
}

// Folds all lanes of v with f (associative, commutative) into every lane, by swapping halves,
// then quarters, ... down to the lane size: log2(lanes) shuffles, no lane extracts or branches.
template <class V, class F>
inline V fold_lanes(V v, F f) {
  constexpr int lane = sizeof(v[0]);
  v = f(v, bits<V>(__builtin_shufflevector(bits<I32>(v), bits<I32>(v), 2, 3, 0, 1)));
  if constexpr (lane <= 4) v = f(v, bits<V>(__builtin_shufflevector(bits<I32>(v), bits<I32>(v), 1, 0, 3, 2)));
  if constexpr (lane <= 2) v = f(v, bits<V>(__builtin_shufflevector(bits<I16>(v), bits<I16>(v), 1, 0, 3, 2, 5, 4, 7, 6)));
  if constexpr (lane == 1)
    v = f(v, bits<V>(__builtin_shufflevector(bits<I8>(v), bits<I8>(v), 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  return v;
}

// Comparison masks of any lane size turned into int32 lane masks, four lanes per I32, in lane
// order: how a mask over values drives the int32 index vectors. A mask lane is all ones or all
// zeros, so repeating its bytes widens it: one shuffle per I32 (punpck / i8x16.shuffle).
inline void index_masks(I8 m, I32 out[4]) {
  out[0] = bits<I32>(__builtin_shufflevector(m, m, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3));
  out[1] = bits<I32>(__builtin_shufflevector(m, m, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7));
  out[2] = bits<I32>(__builtin_shufflevector(m, m, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11));
  out[3] = bits<I32>(__builtin_shufflevector(m, m, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15));
}
inline void index_masks(I16 m, I32 out[2]) {
  out[0] = bits<I32>(__builtin_shufflevector(m, m, 0, 0, 1, 1, 2, 2, 3, 3));
  out[1] = bits<I32>(__builtin_shufflevector(m, m, 4, 4, 5, 5, 6, 6, 7, 7));
}
inline void index_masks(I32 m, I32 out[1]) { out[0] = m; }
inline I32 index_masks(I64 m0, I64 m1) {  // the low halves of two 64-bit masks
  const I32 a = bits<I32>(m0), b = bits<I32>(m1);
  return __builtin_shufflevector(a, b, 0, 2, 4, 6);
}

// One element through memcpy (callers may pass another type's data as the integer of its size).
template <class T>
inline T load_one(const T* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
// Lanes p[0], p[stride], p[2 * stride], ...: one lane load each (v128.load32_lane ...).
template <class T, size_t... I>
inline Vec<T> gather_lanes(const T* p, ptrdiff_t stride, std::index_sequence<I...>) {
  return Vec<T>{load_one(p + static_cast<ptrdiff_t>(I) * stride)...};
}
template <class T>
inline Vec<T> gather(const T* p, ptrdiff_t stride) {
  return gather_lanes(p, stride, std::make_index_sequence<kBytes / sizeof(T)>());
}

// The even lanes of a then b (Odd: the odd lanes): a0 a2 ... b0 b2 ...; one shuffle.
template <bool Odd, class T, size_t... I>
inline Vec<T> deinterleave(Vec<T> a, Vec<T> b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, static_cast<int>(2 * I + (Odd ? 1 : 0))...);
}
template <bool Odd, class T>
inline Vec<T> deinterleave(Vec<T> a, Vec<T> b) {
  return deinterleave<Odd, T>(a, b, std::make_index_sequence<kBytes / sizeof(T)>());
}

// For K a power of two (up to the lane count): log2(K) rounds of deinterleave. The even lanes of
// each neighbouring pair are N rows of the rows' even elements, in row order, and the odd lanes
// of their odd ones: each half is split again, K/2 elements a row. K log2(K) shuffles for N rows
// (pairs: two; rows of 4 bytes: 8 per 16 rows, where gathering them lane by lane took 64 lane
// inserts).
template <int K, class T>
inline void split_rows_pow2(const Vec<T>* v, Vec<T>* out) {
  static_assert(K >= 1 && (K & (K - 1)) == 0 && K <= kBytes / int(sizeof(T)), "K a power of two, at most the lanes");
  if constexpr (K == 1) {
    out[0] = v[0];
  } else {
    Vec<T> even[K / 2], odd[K / 2], even_out[K / 2], odd_out[K / 2];
    for (int i = 0; i < K / 2; ++i) {
      even[i] = deinterleave<false, T>(v[2 * i], v[2 * i + 1]);
      odd[i] = deinterleave<true, T>(v[2 * i], v[2 * i + 1]);
    }
    split_rows_pow2<K / 2, T>(even, even_out);
    split_rows_pow2<K / 2, T>(odd, odd_out);
    for (int j = 0; j < K / 2; ++j) out[2 * j] = even_out[j], out[2 * j + 1] = odd_out[j];
  }
}

// Which of the K vectors holds element j at `lane`, for rows of K elements over N lanes.
template <int K, int N>
constexpr int lane_source(int j, int lane) {
  for (int r = 0; r < N; ++r)
    if ((r * K + j) % N == lane) return (r * K + j) / N;
  return 0;
}
// The byte tables of splitting rows of K elements of T (K prime to the lanes) that the module
// reads at run time: residue[c], the lanes whose index is c modulo K (byte lanes' gather);
// order[j], the bytes of element j's final permute.
template <int K, class T>
struct RowSplitTables {
  alignas(16) int8_t residue[K][kBytes];
  alignas(16) int8_t order[K][kBytes];
  static constexpr RowSplitTables make() {
    constexpr int N = kBytes / sizeof(T), size = sizeof(T);
    RowSplitTables t{};
    for (int j = 0; j < K; ++j)
      for (int b = 0; b < kBytes; ++b) {
        const int lane = b / size;
        t.residue[j][b] = lane % K == j ? -1 : 0;
        t.order[j][b] = static_cast<int8_t>((lane * K + j) % N * size + b % size);  // byte b % size of lane (lane K + j) % N
      }
    return t;
  }
};
template <int K, class T>
inline constexpr RowSplitTables<K, T> kRowSplitTables = RowSplitTables<K, T>::make();

// A vector of table bytes read from memory through a pointer the optimizers cannot follow, so that
// it reaches V8 as a v128.load, not a v128.const (see row_lanes).
template <class V>
inline V unfolded(const int8_t* bytes) {
  __asm__("" : "+r"(bytes));
  V v;
  __builtin_memcpy(&v, bytes, sizeof v);
  return v;
}

// Element J of each of N = lanes rows of K elements, the rows laid end to end in v[0 .. K):
// lane r is lane r * K + J of that run (split_rows below: rows of a power of two go by
// deinterleave instead). For K prime to N, rows r = 0 .. N-1 put element J in N different lane
// positions, so K - 1 blends gather them in one vector and one single-vector permute puts them in
// row order.
// - Byte lanes gather by residue masks (gather_by_residue; V8's shuffles have no byte blend), and
//   1- and 2-byte lanes permute by a swizzle whose byte order is in a register (a paddusb and a
//   pshufb), where V8 rebuilds an i8x16.shuffle's mask before every pshufb (four instructions).
// - Byte lanes' masks and orders are loaded from memory at each use (unfolded): newer V8 (Node 24
//   and 26, Chromium 156) folds a constant byte mask or swizzle order into an i8x16.shuffle
//   (pshufb pairs, masks rebuilt on every use), and uint8 rows of 3 ran 3.2x slower there than on
//   Node 20 while they were v128.const. Loaded once before the loop they stay live in registers
//   and spill (Node 20 0.64x); loaded at each use they cost Node 20 a little (docs/speed.md).
//   2-byte orders stay constants: newer V8 leaves those alone, and Node 20 runs them faster.
// - Wider lanes blend by shuffles (lanes kept in place: one pblendw in V8), each hidden from clang
//   (opaque: merged with the next step it becomes a two-vector shuffle, or loses the lanes the
//   next step replaces, which V8 spells as pshufb pairs), and permute by pshufd, the order in its
//   immediate.
template <int K, int J, int S, class T, size_t... I>
inline Vec<T> blend_step(Vec<T> acc, Vec<T> next, std::index_sequence<I...>) {
  static_assert(sizeof(T) > 1, "byte lanes gather by residue");
  constexpr int N = sizeof...(I);
  return opaque(__builtin_shufflevector(acc, next, (lane_source<K, N>(J, I) == S ? N + int(I) : int(I))...));
}
template <int K, int J, int S, class T, size_t... I>
inline Vec<T> blend_rows(const Vec<T>* v, std::index_sequence<I...> lanes) {  // v[0 .. S] blended
  if constexpr (S == 1)
    return blend_step<K, J, 1, T>(v[0], v[1], lanes);
  else
    return blend_step<K, J, S, T>(blend_rows<K, J, S - 1, T>(v, lanes), v[S], lanes);
}
// Byte lanes: lane l of v[s] holds element (16 s + l) mod K of its row, so element J's lanes in
// v[s] are those with l = J - 16 s modulo K: K masks in all, one and per vector and an or, where
// blending took two masks and three ops per vector after the first.
template <int K, int J, class T, size_t... S>
inline Vec<T> gather_by_residue(const Vec<T>* v, std::index_sequence<S...>) {
  constexpr auto& t = kRowSplitTables<K, T>;
  using M = MaskOf<T>;
  return bits<Vec<T>>((... | (bits<M>(v[S]) & unfolded<M>(t.residue[((J - kBytes * int(S)) % K + K) % K]))));
}
template <int K, int J, class T, size_t... B>
constexpr I8 row_order(std::index_sequence<B...>) {
  return I8{kRowSplitTables<K, T>.order[J][B]...};
}
template <int K, int J, class T, size_t... I>
inline Vec<T> row_lanes(const Vec<T>* v, std::index_sequence<I...> lanes) {
  constexpr int N = sizeof...(I);
  static_assert(std::gcd(K, N) == 1, "element J of N rows must fall in N different lanes");
  Vec<T> b;
  if constexpr (sizeof(T) == 1)
    b = gather_by_residue<K, J, T>(v, std::make_index_sequence<K>());
  else
    b = blend_rows<K, J, K - 1, T>(v, lanes);
#if defined(__wasm_simd128__)
  if constexpr (sizeof(T) <= 2) {
    constexpr auto& t = kRowSplitTables<K, T>;
    const I8 order = sizeof(T) == 1 ? unfolded<I8>(t.order[J]) : opaque(row_order<K, J, T>(std::make_index_sequence<kBytes>()));
    return bits<Vec<T>>(wasm_i8x16_swizzle(bits<v128_t>(b), bits<v128_t>(order)));
  }
#endif
  return __builtin_shufflevector(b, b, static_cast<int>((I * K + J) % N)...);
}
template <int K, class T, size_t... J>
inline void split_rows(const Vec<T>* v, Vec<T>* out, std::index_sequence<J...>) {
  ((out[J] = row_lanes<K, J, T>(v, std::make_index_sequence<kBytes / sizeof(T)>())), ...);
}
// out[j] = element j of the N rows of K elements in v[0 .. K), for every j < K: powers of two by
// rounds of deinterleave, K prime to N by blends and one permute per element (row_lanes).
template <int K, class T>
inline void split_rows(const Vec<T>* v, Vec<T>* out) {
  if constexpr ((K & (K - 1)) == 0)
    split_rows_pow2<K, T>(v, out);
  else
    split_rows<K, T>(v, out, std::make_index_sequence<K>());
}

// a0 b0 a1 b1 ... from the low halves of a and b (High: from the high halves); one punpck.
template <bool High, class T, size_t... I>
inline Vec<T> interleave(Vec<T> a, Vec<T> b, std::index_sequence<I...>) {
  constexpr size_t N = sizeof...(I);
  return __builtin_shufflevector(a, b, static_cast<int>((I % 2 ? N : 0) + I / 2 + (High ? N / 2 : 0))...);
}
// Transposes the square of N = lanes vectors in place (v[i][j] becomes v[j][i]): interleaving
// v[i] with v[i + N/2] log2(N) times is the transpose (each round rotates the bits of the lane's
// (row, column) number by one), N log2(N) shuffles in all.
template <class T, int Round = 1>
inline void transpose(Vec<T>* v) {
  constexpr int N = kBytes / sizeof(T);
  if constexpr (Round < N) {  // rounds unrolled at compile time: the vectors stay in registers
    constexpr auto lanes = std::make_index_sequence<N>();
    Vec<T> t[N];
#pragma GCC unroll 16
    for (int i = 0; i < N / 2; ++i) {
      t[2 * i] = interleave<false, T>(v[i], v[i + N / 2], lanes);
      t[2 * i + 1] = interleave<true, T>(v[i], v[i + N / 2], lanes);
    }
#pragma GCC unroll 16
    for (int i = 0; i < N; ++i) v[i] = t[i];
    transpose<T, Round * 2>(v);
  }
}

}  // namespace simd
}  // namespace ox
