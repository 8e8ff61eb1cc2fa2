// Cross-checks the package's float16 helpers against the browser's own Float16Array conversion
// (Chromium has it): toFloat16Bits on every float16 value, every midpoint between neighbours (ties
// to even) and its neighbouring doubles, the overflow and subnormal edges, and random doubles and
// float32 values; fromFloat16Bits on all 65,536 bit patterns. bfloat16 is checked against float32's
// bit layout (the top 16 bits, rounded to nearest even). Returns counts and the first mismatches.

function random(seed) {
  let a = seed >>> 0; // mulberry32
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
function nextDouble(x, up) {
  f64[0] = x;
  u64[0] += (x > 0) === up ? 1n : -1n; // x is finite and not 0 here
  return f64[0];
}

const isNaNBits = (b, exponentMask, mantissaMask) => (b & exponentMask) === exponentMask && (b & mantissaMask) !== 0;

function values() {
  const all = new Uint16Array(65536).map((_, i) => i);
  const halves = new Float16Array(all.buffer);
  const out = [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE,
    65504, 65519.99999999999, 65520, 65536, 2 ** -14, 2 ** -24, 2 ** -25, 2 ** -26, 3 * 2 ** -26, 1e-8, 0.1, 1 / 3];
  for (const v of halves) if (!Number.isNaN(v)) out.push(v);
  for (let b = 0; b < 0x7bff; b += 1) {
    const mid = (halves[b] + halves[b + 1]) / 2; // exact in double: ties go to the even neighbour
    out.push(mid, -mid, nextDouble(mid, true), nextDouble(mid, false));
  }
  const next = random(7);
  for (let i = 0; i < 100000; i += 1) {
    const mantissa = 1 + next() + next() * 2 ** -26; // 52 random bits or so
    const v = (next() < 0.5 ? -1 : 1) * mantissa * 2 ** Math.floor(next() * 48 - 30);
    out.push(v, Math.fround(v));
  }
  return out;
}

export function crossCheck(ox) {
  const mismatches = [];
  const note = (what) => mismatches.length < 10 && mismatches.push(what);
  const one = new Float16Array(1);
  const oneBits = new Uint16Array(one.buffer);

  const list = values();
  for (const v of list) {
    one[0] = v;
    const want = oneBits[0];
    const got = ox.toFloat16Bits(v);
    const ok = got === want || (isNaNBits(got, 0x7c00, 0x3ff) && isNaNBits(want, 0x7c00, 0x3ff));
    if (!ok) note(`toFloat16Bits(${v}) = 0x${got.toString(16)}, Float16Array: 0x${want.toString(16)}`);
  }

  const patterns = new Uint16Array(65536).map((_, i) => i);
  const asHalf = new Float16Array(patterns.buffer);
  for (let b = 0; b < 65536; b += 1)
    if (!Object.is(ox.fromFloat16Bits(b), asHalf[b])) note(`fromFloat16Bits(0x${b.toString(16)}) = ${ox.fromFloat16Bits(b)}, Float16Array: ${asHalf[b]}`);

  // The array helpers on the same data.
  const doubles = Float64Array.from(list);
  const got = ox.toFloat16Array(doubles);
  const want = new Uint16Array(Float16Array.from(doubles).buffer);
  for (let i = 0; i < want.length; i += 1)
    if (got[i] !== want[i] && !(isNaNBits(got[i], 0x7c00, 0x3ff) && isNaNBits(want[i], 0x7c00, 0x3ff))) {
      note(`toFloat16Array at ${i} (${doubles[i]}): 0x${got[i].toString(16)}, Float16Array: 0x${want[i].toString(16)}`);
      break;
    }
  const wide = ox.fromFloat16Array(patterns);
  const wideWant = Float32Array.from(asHalf);
  if (!(wide instanceof Float32Array)) note(`fromFloat16Array gave a ${wide?.constructor?.name}`);
  for (let b = 0; b < 65536; b += 1)
    if (!Object.is(wide[b], wideWant[b])) {
      note(`fromFloat16Array at 0x${b.toString(16)}: ${wide[b]}, Float16Array: ${wideWant[b]}`);
      break;
    }

  // A Float16Array (a float16 output can be one) is taken as its values, not read as bits.
  const asValues = ox.fromFloat16Array(asHalf);
  for (let b = 0; b < 65536; b += 1)
    if (!Object.is(asValues[b], wideWant[b])) {
      note(`fromFloat16Array of a Float16Array at 0x${b.toString(16)}: ${asValues[b]}, expected ${wideWant[b]}`);
      break;
    }

  // bfloat16: float32 values (exact), rounded to the top 16 bits of their float32 pattern.
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  let bfloatValues = 0;
  for (const v of list) {
    f32[0] = v;
    const bits = u32[0];
    const want16 = ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
    const got16 = ox.toBFloat16Bits(f32[0]);
    bfloatValues += 1;
    const ok = Number.isNaN(f32[0]) ? isNaNBits(got16, 0x7f80, 0x7f) : got16 === want16;
    if (!ok) note(`toBFloat16Bits(${f32[0]}) = 0x${got16.toString(16)}, expected 0x${want16.toString(16)}`);
  }
  for (let b = 0; b < 65536; b += 1) {
    u32[0] = b << 16;
    if (!Object.is(ox.fromBFloat16Bits(b), f32[0])) note(`fromBFloat16Bits(0x${b.toString(16)}) = ${ox.fromBFloat16Bits(b)}, expected ${f32[0]}`);
  }

  return { values: list.length, patterns: 65536, bfloatValues, mismatches };
}
