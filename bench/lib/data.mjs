// Deterministic inputs: every runtime's process builds the same bytes from the case name, so no
// data crosses processes. No NaN (the peers handle NaN by position, see the README's opening):
// speed only.

// mulberry32: a small, fast, well-mixed 32-bit generator.
function generator(seedText) {
  let s = 0x9e3779b9;
  for (let i = 0; i < seedText.length; i += 1) s = Math.imul(s ^ seedText.charCodeAt(i), 0x85ebca6b) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The input of a case, as the typed array its type uses (float16/bfloat16: Uint16Array bits). */
export function makeInput(c, allocate = (Class, n) => new Class(n)) {
  const next = generator(c.name);
  const n = c.count;
  switch (c.type) {
    case 'float32': {
      const x = allocate(Float32Array, n);
      for (let i = 0; i < n; i += 1) x[i] = (next() / 2 ** 32) * 2000 - 1000;
      return x;
    }
    case 'float64': {
      const x = allocate(Float64Array, n);
      for (let i = 0; i < n; i += 1) x[i] = ((next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53) * 2000 - 1000;
      return x;
    }
    case 'int32': {
      const x = allocate(Int32Array, n);
      for (let i = 0; i < n; i += 1) x[i] = (next() % 2000001) - 1000000;
      return x;
    }
    case 'uint8': {
      const x = allocate(Uint8Array, n); // ties are common here: the first index must win
      for (let i = 0; i < n; i += 1) x[i] = next() & 0xff;
      return x;
    }
    case 'int8': {
      const x = allocate(Int8Array, n); // ties are common, both signs
      for (let i = 0; i < n; i += 1) x[i] = next() & 0xff; // stored modulo 256: -128..127
      return x;
    }
    case 'int64': {
      const x = allocate(BigInt64Array, n); // the whole 64-bit range: both 32-bit halves decide
      for (let i = 0; i < n; i += 1) x[i] = BigInt.asIntN(64, (BigInt(next()) << 32n) | BigInt(next()));
      return x;
    }
    case 'uint32': {
      const x = allocate(Uint32Array, n); // the whole range: the sign bit's half decides
      for (let i = 0; i < n; i += 1) x[i] = next();
      return x;
    }
    case 'uint64': {
      const x = allocate(BigUint64Array, n);
      for (let i = 0; i < n; i += 1) x[i] = (BigInt(next()) << 32n) | BigInt(next());
      return x;
    }
    case 'float16': {
      const x = allocate(Uint16Array, n); // sign, exponent 0..29 (finite, below 2^15), mantissa
      for (let i = 0; i < n; i += 1) {
        const r = next();
        x[i] = (r & 0x8000) | ((((r >>> 16) % 30) << 10)) | (r & 0x3ff);
      }
      return x;
    }
    case 'bfloat16': {
      const x = allocate(Uint16Array, n); // sign, exponent 100..154, mantissa
      for (let i = 0; i < n; i += 1) {
        const r = next();
        x[i] = (r & 0x8000) | ((100 + ((r >>> 16) % 55)) << 7) | (r & 0x7f);
      }
      return x;
    }
    default:
      throw new Error(`no generator for ${c.type}`);
  }
}
