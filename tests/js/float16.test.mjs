// The float16/bfloat16 helpers: every bit pattern round-trips, and number -> bits rounds to
// nearest even in one step, checked against the BigInt-exact method in exact-float.mjs and
// against the structure of the formats (midpoints between neighbours round to the even one).
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  fromBFloat16Array,
  fromBFloat16Bits,
  fromFloat16Array,
  fromFloat16Bits,
  toBFloat16Array,
  toBFloat16Bits,
  toFloat16Array,
  toFloat16Bits,
} from '../../js/index.mjs';
import { exactBits } from './exact-float.mjs';
import { prng } from './helpers.mjs';
import { bfloat16Value, float16Value } from './reference.mjs';

const FORMATS = {
  float16: { to: toFloat16Bits, from: fromFloat16Bits, value: float16Value, infinity: 0x7c00 },
  bfloat16: { to: toBFloat16Bits, from: fromBFloat16Bits, value: bfloat16Value, infinity: 0x7f80 },
};
const isNaNBits = (bits, f) => (bits & 0x7fff) > f.infinity;
const hex = (b) => `0x${b.toString(16).padStart(4, '0')}`;

// The doubles next to x (x finite, not zero).
const view = new DataView(new ArrayBuffer(8));
function nextAway(x, steps) {
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(steps)); // steps toward or away from 0 for |x|
  return view.getFloat64(0);
}

for (const [name, f] of Object.entries(FORMATS)) {
  test(`${name}: all 65,536 bit patterns decode exactly and round-trip`, () => {
    let nans = 0;
    for (let bits = 0; bits < 0x10000; bits += 1) {
      const v = f.from(bits);
      const expected = f.value(bits);
      if (isNaNBits(bits, f)) {
        nans += 1;
        assert.ok(Number.isNaN(v), `${hex(bits)} decodes to NaN`);
        assert.ok(isNaNBits(f.to(v), f), `NaN stays NaN (${hex(bits)})`);
        continue;
      }
      if (!Object.is(v, expected)) assert.fail(`${hex(bits)} decodes to ${v}, expected ${expected}`);
      if (f.to(v) !== bits) assert.fail(`${hex(bits)} -> ${v} -> ${hex(f.to(v))}`);
      if (exactBits(v, name) !== bits) assert.fail(`the exact method itself: ${hex(bits)} -> ${hex(exactBits(v, name))}`);
    }
    assert.equal(nans, name === 'float16' ? 2 * 1023 : 2 * 127);
  });

  test(`${name}: midpoints between neighbours round to the even one, their neighbours to the nearer`, () => {
    // Positive finite patterns b and b + 1 (0x7bff/0x7f7f + 1 is infinity: the overflow midpoint).
    for (let b = 0; b < f.infinity; b += 1) {
      const lo = f.value(b);
      const hi = b + 1 === f.infinity ? f.value(b) + (f.value(b) - f.value(b - 1)) : f.value(b + 1);
      const mid = (lo + hi) / 2; // exact: a few more bits than the format has
      const even = b % 2 === 0 ? b : b + 1;
      for (const sign of [1, -1]) {
        const s = sign < 0 ? 0x8000 : 0;
        const at = (x, want, what) => {
          const got = f.to(sign * x);
          if (got !== (s | want)) assert.fail(`${what} ${sign * x}: got ${hex(got)}, expected ${hex(s | want)}`);
        };
        at(mid, even, 'midpoint');
        if (mid > 0) {
          at(nextAway(mid, -1), b, 'just below the midpoint');
          at(nextAway(mid, 1), b + 1, 'just above the midpoint');
        }
      }
    }
  });

  test(`${name}: 100,000 random doubles agree with the exact method`, () => {
    const rng = prng(name === 'float16' ? 16 : 17);
    const [low, high] = name === 'float16' ? [-27, 17] : [-136, 129];
    for (let n = 0; n < 100000; n += 1) {
      const mantissa = 1 + rng.next();
      const x = (rng.chance(0.5) ? -1 : 1) * mantissa * 2 ** rng.range(low, high);
      const got = f.to(x);
      const want = exactBits(x, name);
      if (got !== want) assert.fail(`${x}: got ${hex(got)}, expected ${hex(want)}`);
    }
  });
}

test('float16: tricky values', () => {
  const cases = [
    [0, 0x0000], [-0, 0x8000], [1, 0x3c00], [-2, 0xc000], [65504, 0x7bff], [-65504, 0xfbff],
    [65519, 0x7bff], [65519.99999999999, 0x7bff], [65520, 0x7c00], [65520.00000000001, 0x7c00], [65536, 0x7c00],
    [1e300, 0x7c00], [-1e300, 0xfc00], [Infinity, 0x7c00], [-Infinity, 0xfc00],
    [2 ** -24, 0x0001], [2 ** -25, 0x0000], [2 ** -25 + 2 ** -60, 0x0001], [-(2 ** -25), 0x8000],
    [3 * 2 ** -25, 0x0002], [5 * 2 ** -25, 0x0002], [7 * 2 ** -25, 0x0004], [2 ** -26, 0x0000],
    [Number.MIN_VALUE, 0x0000], [-Number.MIN_VALUE, 0x8000], [1e-300, 0x0000],
    [2 ** -14, 0x0400], [2 ** -14 - 2 ** -25, 0x0400], [2 ** -14 - 2 ** -24, 0x03ff], [2 ** -14 - 3 * 2 ** -25, 0x03fe],
    [1 + 2 ** -11, 0x3c00], [1 + 3 * 2 ** -11, 0x3c02], [1 + 2 ** -11 + 2 ** -40, 0x3c01],
    // float32 would round this to the midpoint 1 + 2^-11, then to even 0x3c00: one rounding gives 0x3c01.
    [1 + 2 ** -11 + 2 ** -30, 0x3c01], [0.1, 0x2e66], [1 / 3, 0x3555], [-2.5, 0xc100], [3.140625, 0x4248],
  ];
  for (const [x, bits] of cases) {
    assert.equal(hex(toFloat16Bits(x)), hex(bits), `toFloat16Bits(${Object.is(x, -0) ? '-0' : x})`);
    assert.equal(hex(exactBits(x, 'float16')), hex(bits), `the exact method on ${x}`);
  }
  assert.ok(isNaNBits(toFloat16Bits(NaN), FORMATS.float16));
  assert.ok(isNaNBits(toFloat16Bits('abc'), FORMATS.float16), 'non-numbers convert like Number()');
  assert.equal(toFloat16Bits('1.5'), 0x3e00);
});

test('bfloat16: tricky values', () => {
  const maxFinite = bfloat16Value(0x7f7f);
  const cases = [
    [0, 0x0000], [-0, 0x8000], [1, 0x3f80], [-3, 0xc040], [maxFinite, 0x7f7f],
    [maxFinite + 2 ** 119, 0x7f80], [maxFinite + 2 ** 119 - 2 ** 90, 0x7f7f], [3.4028234663852886e38, 0x7f80],
    [Infinity, 0x7f80], [-Infinity, 0xff80], [1e39, 0x7f80],
    [2 ** -133, 0x0001], [2 ** -134, 0x0000], [2 ** -134 + 2 ** -170, 0x0001], [3 * 2 ** -134, 0x0002],
    [2 ** -126, 0x0080], [2 ** -126 - 2 ** -134, 0x0080], [Number.MIN_VALUE, 0x0000], [1e-45, 0x0000],
    [1 + 2 ** -8, 0x3f80], [1 + 3 * 2 ** -8, 0x3f82], [1 + 2 ** -8 + 2 ** -40, 0x3f81],
    // float32 would round this to the midpoint 1 + 2^-8, then to even 0x3f80: one rounding gives 0x3f81.
    [1 + 2 ** -8 + 2 ** -30, 0x3f81], [0.1, 0x3dcd], [1 / 3, 0x3eab], [-2.5, 0xc020], [65504, 0x4780],
  ];
  for (const [x, bits] of cases) {
    assert.equal(hex(toBFloat16Bits(x)), hex(bits), `toBFloat16Bits(${Object.is(x, -0) ? '-0' : x})`);
    assert.equal(hex(exactBits(x, 'bfloat16')), hex(bits), `the exact method on ${x}`);
  }
  assert.ok(isNaNBits(toBFloat16Bits(NaN), FORMATS.bfloat16));
});

test('array helpers', () => {
  const values = [1, -2.5, 65504, 70000, NaN, -0, 2 ** -24];
  const f16 = toFloat16Array(values);
  assert.equal(f16.constructor, Uint16Array);
  assert.deepEqual(Array.from(f16), values.map(toFloat16Bits));
  assert.deepEqual(Array.from(toFloat16Array(Float64Array.from(values))), Array.from(f16));
  const back = fromFloat16Array(f16);
  assert.equal(back.constructor, Float32Array);
  assert.deepEqual(Array.from(back), [1, -2.5, 65504, Infinity, NaN, -0, 2 ** -24]);
  const bf16 = toBFloat16Array(new Float32Array(values));
  assert.equal(bf16.constructor, Uint16Array);
  assert.deepEqual(Array.from(bf16), values.map((v) => toBFloat16Bits(Math.fround(v))));
  assert.deepEqual(Array.from(fromBFloat16Array(bf16)), Array.from(bf16, bfloat16Value));
  assert.equal(fromBFloat16Array(bf16).constructor, Float32Array);
  // Bits are a 32-bit integer's low 16 bits (README): an Int16Array of bits reads as a Uint16Array's.
  const signed = new Int16Array(f16.buffer);
  assert.deepEqual(Array.from(fromFloat16Array(signed)), Array.from(back));
  assert.deepEqual(Array.from(fromBFloat16Array(new Int16Array(bf16.buffer))), Array.from(fromBFloat16Array(bf16)));
  assert.equal(fromFloat16Bits(-16384), -2); // 0xc000
  assert.equal(fromBFloat16Bits(0x13f80), 1); // 0x3f80
});

test('array helpers given no array: an Error naming the helper, never an empty or garbled array', () => {
  const helpers = { toFloat16Array, toBFloat16Array, fromFloat16Array, fromBFloat16Array };
  const wrong = [[null, 'null'], [undefined, 'undefined'], [5, 'a number'], ['abc', 'the string "abc"'], [{}, 'an object'],
    [new BigInt64Array(2), 'a BigInt64Array'], [new DataView(new ArrayBuffer(4)), 'a DataView']];
  for (const [name, helper] of Object.entries(helpers)) {
    const what = name.startsWith('to') ? 'numbers' : `${name.includes('BFloat') ? 'bfloat16' : 'float16'} bits`;
    for (const [value, said] of wrong)
      assert.throws(() => helper(value), { message: `onnx-extrema: ${name} takes ${what} as an Array or a typed array, got ${said}` });
    // An array-like with a count for its length is taken, as an Array is.
    assert.deepEqual(Array.from(helper({ length: 2, 0: 0x3c00, 1: 2 })), Array.from(helper([0x3c00, 2])));
  }
});

// Entries no number converts from, and lengths no array holds, were a bare TypeError or
// RangeError that named nothing; an entry's own valueOf still throws what it throws.
test('helpers given a BigInt or a Symbol, or an array-like too long to hold: an Error naming the helper and the entry', () => {
  const arrays = { toFloat16Array, toBFloat16Array, fromFloat16Array, fromBFloat16Array };
  for (const [name, helper] of Object.entries(arrays)) {
    const what = name.startsWith('to') ? 'numbers' : 'bits as numbers';
    assert.throws(() => helper([1, 2n]), { message: `onnx-extrema: ${name} takes ${what}, but entry 1 is the BigInt 2n` });
    assert.throws(() => helper([Symbol('s')]), { message: `onnx-extrema: ${name} takes ${what}, but entry 0 is a Symbol` });
    assert.throws(() => helper({ length: 2 ** 40 }), (error) => error.constructor === Error && error.message.startsWith(`onnx-extrema: ${name}: 1099511627776 values do not fit in memory`));
    assert.throws(() => helper([2n ** 4194304n]), { message: `onnx-extrema: ${name} takes ${what}, but entry 0 is a BigInt of more than 40 digits` });
    const mine = new RangeError('mine');
    assert.throws(() => helper([1, { valueOf() { throw mine; } }]), (error) => error === mine);
  }
  const scalars = { toFloat16Bits: 'a number', toBFloat16Bits: 'a number', fromFloat16Bits: 'float16 bits as a number', fromBFloat16Bits: 'bfloat16 bits as a number' };
  for (const [name, what] of Object.entries(scalars)) {
    const helper = { toFloat16Bits, toBFloat16Bits, fromFloat16Bits, fromBFloat16Bits }[name];
    assert.throws(() => helper(1n), { message: `onnx-extrema: ${name} takes ${what}, got the BigInt 1n` });
    assert.throws(() => helper(Symbol()), { message: `onnx-extrema: ${name} takes ${what}, got a Symbol` });
  }
});
