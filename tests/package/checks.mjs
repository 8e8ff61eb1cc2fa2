// Operator checks that run wherever the package is loaded: the installed app in Node (ESM and
// CommonJS), the browser page, the module Worker and the Vite build. `ox` is the package's module;
// the expected values come from the plain loops below, never from the package.
// Returns { checks, failures: string[], float16Array: boolean } (float16Array: whether the runtime
// had a Float16Array and its inputs were checked).

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

// float16 bits -> number, written out here so the expected values do not use the package's helpers
// (tests/js/ort.test.mjs uses it too).
export function halfValue(bits) {
  const exponent = (bits >> 10) & 31;
  const fraction = bits & 1023;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (exponent ? 1024 + fraction : fraction) * 2 ** ((exponent || 1) - 25);
}

// Along the last axis of a [rows, cols] tensor given as numbers (NaN wins; first index on ties).
function reference(values, rows, cols) {
  const argMax = [];
  const rowMax = [];
  const oneHot = [];
  for (let r = 0; r < rows; r += 1) {
    let best = 0;
    for (let c = 1; c < cols; c += 1) {
      const v = values[r * cols + c];
      const b = values[r * cols + best];
      if (!Number.isNaN(b) && (Number.isNaN(v) || v > b)) best = c;
    }
    argMax.push(BigInt(best));
    rowMax.push(values[r * cols + best]);
    for (let c = 0; c < cols; c += 1) oneHot.push(c === best ? 1 : 0);
  }
  return { argMax, rowMax, oneHot };
}

export function runChecks(ox) {
  const failures = [];
  let checks = 0;
  const next = random(20240607);

  function expect(name, tensor, type, dims, data, DataClass) {
    checks += 1;
    const got = tensor && Array.from(tensor.data);
    const problems = [];
    if (!tensor) problems.push('no output');
    else {
      if (tensor.type !== type) problems.push(`type ${tensor.type}, expected ${type}`);
      if (DataClass && !(tensor.data instanceof DataClass)) problems.push(`data is a ${tensor.data?.constructor?.name}, expected ${DataClass.name}`);
      if (JSON.stringify(tensor.dims) !== JSON.stringify(dims)) problems.push(`dims ${JSON.stringify(tensor.dims)}, expected ${JSON.stringify(dims)}`);
      const bad = data.findIndex((v, i) => !Object.is(got[i], v));
      if (got.length !== data.length || bad >= 0) problems.push(`data differs at ${bad} (${String(got[bad])} vs ${String(data[bad])})`);
    }
    if (problems.length) failures.push(`${name}: ${problems.join('; ')}`);
  }

  function attempt(name, fn) {
    try {
      fn();
    } catch (error) {
      failures.push(`${name}: threw ${error?.stack ?? error}`);
    }
  }

  const rows = 5;
  const cols = 37;
  // Small integers, so ties are frequent; one NaN in row 2 for the float types.
  const ints = Array.from({ length: rows * cols }, () => Math.floor(next() * 21) - 10);
  const floats = ints.map((v, i) => (i === 2 * cols + 7 ? NaN : v + 0.25));

  const cases = [
    ['float32', new Float32Array(floats), floats],
    ['float64', new Float64Array(floats), floats],
    ['int32', new Int32Array(ints), ints],
    ['int8', new Int8Array(ints), ints],
    ['int64', BigInt64Array.from(ints, BigInt), ints],
    ['uint8', Uint8Array.from(ints, (v) => v + 10), ints.map((v) => v + 10)],
  ];
  const halfBits = Uint16Array.from(floats, (v) => (Number.isNaN(v) ? 0x7e00 : halfBitsOfSmall(v)));
  cases.push(['float16', halfBits, Array.from(halfBits, halfValue)]);

  for (const [type, data, values] of cases) {
    attempt(type, () => {
      const x = new ox.Tensor(type, data, [rows, cols]);
      const want = reference(values, rows, cols);
      expect(`argMax ${type}`, ox.argMax(x, { axis: -1, keepdims: 0 }), 'int64', [rows], want.argMax, BigInt64Array);
      const rowMax = type === 'int64' ? want.rowMax.map(BigInt) : type === 'float16' ? want.rowMax.map((v, r) => halfBits[r * cols + Number(want.argMax[r])]) : want.rowMax;
      expect(`reduceMax ${type}`, ox.reduceMax(x, { axes: [1], keepdims: 1 }), type, [rows, 1], rowMax, data.constructor);
      if (type.startsWith('float')) {
        const hot = type === 'float16' ? want.oneHot.map((v) => (v ? 0x3c00 : 0)) : want.oneHot;
        expect(`hardmax ${type}`, ox.hardmax(x, { axis: -1 }), type, [rows, cols], hot, data.constructor);
      }
    });
  }

  // bool ReduceMax (version 20): any true along the axis.
  attempt('bool', () => {
    const flags = Uint8Array.from(ints, (v) => (v > 8 ? 1 : 0));
    const want = Array.from({ length: rows }, (_, r) => (flags.subarray(r * cols, (r + 1) * cols).includes(1) ? 1 : 0));
    expect('reduceMax bool', ox.reduceMax(new ox.Tensor('bool', flags, [rows, cols]), { axes: [-1], keepdims: 0 }), 'bool', [rows], want, Uint8Array);
  });

  // The float32 rows in a wasmTensor (allocated in the module's memory, read in place).
  attempt('wasmTensor', () => {
    const x = ox.wasmTensor('float32', [rows, cols]);
    try {
      x.data.set(floats);
      const want = reference(floats, rows, cols);
      expect('argMax wasmTensor', ox.argMax(x, { axis: -1, keepdims: 0 }), 'int64', [rows], want.argMax, BigInt64Array);
      expect('reduceMax wasmTensor', ox.reduceMax(x, { axes: [1], keepdims: 1 }), 'float32', [rows, 1], want.rowMax, Float32Array);
      expect('hardmax wasmTensor', ox.hardmax(x), 'float32', [rows, cols], want.oneHot, Float32Array);
    } finally {
      x.dispose();
    }
    checks += 1;
    if (!x.disposed) failures.push('wasmTensor: disposed is false after dispose()');
  });

  // A Float16Array input where the runtime has one: same results, outputs in the same class.
  const F16 = globalThis.Float16Array;
  if (typeof F16 === 'function') {
    attempt('Float16Array', () => {
      const data = F16.from(floats);
      const values = Array.from(data);
      const x = new ox.Tensor('float16', data, [rows, cols]);
      const want = reference(values, rows, cols);
      expect('argMax Float16Array', ox.argMax(x, { axis: 1, keepdims: 0 }), 'int64', [rows], want.argMax, BigInt64Array);
      expect('reduceMax Float16Array', ox.reduceMax(x, { axes: [1], keepdims: 0 }), 'float16', [rows], want.rowMax, F16);
      expect('hardmax Float16Array', ox.hardmax(x), 'float16', [rows, cols], want.oneHot, F16);
      const plainBits = new Uint16Array(data.buffer);
      expect('reduceMax Uint16Array bits', ox.reduceMax({ type: 'float16', data: plainBits, dims: [rows, cols] }, { axes: [1], keepdims: 0 }), 'float16', [rows],
        want.rowMax.map((v, r) => plainBits[r * cols + Number(want.argMax[r])]), Uint16Array);
    });
  }

  // Large Float16Array inputs stream through byte views (js/feed.js): every streaming path must
  // give what the same bits give in a Uint16Array (the class the Node tests check against the
  // reference), also into a Float16Array given as { out }. One buffer serves every layout.
  if (typeof F16 === 'function') {
    const all = new F16(9 << 20);
    for (let i = 0; i < all.length; i += 1) all[i] = Math.floor(next() * 200) / 8 - 12; // many ties
    for (let i = 977; i < all.length; i += 1000003) all[i] = NaN;
    const layouts = [
      ['chunks', [64, 8192], (x, o) => ox.argMax(x, { axis: -1 }, o)],
      ['column tiles', [1, 21, 256, 256], (x, o) => ox.argMax(x, { axis: 1, keepdims: 0 }, o)],
      ['output read in parts', [300000, 2], (x, o) => ox.reduceMax(x, { axes: [-1], keepdims: 0 }, o)],
      ['windowed rows', [2200000, 2], (x, o) => ox.reduceMax(x, { axes: [1], keepdims: 0 }, o)],
      ['windowed Hardmax', [800000, 2], (x, o) => ox.hardmax(x, { axis: -1 }, o)],
      ['Hardmax written by the core, read in parts', [300000, 2], (x, o) => ox.hardmax(x, { axis: -1 }, o)],
      ['Hardmax written by the core, staged', [4, 8192], (x, o) => ox.hardmax(x, { axis: 0 }, o)],
      ['gathered slices', [2, 2200000, 2], (x, o) => ox.reduceMax(x, { axes: [0, 2], keepdims: 0 }, o)],
      ['gathered columns', [2, 3, 2, 740000], (x, o) => ox.reduceMax(x, { axes: [0, 2], keepdims: 0 }, o)],
    ];
    for (const [what, dims, run] of layouts) {
      attempt(`Float16Array ${what}`, () => {
        checks += 1;
        const count = dims.reduce((a, b) => a * b, 1);
        const got = run(new ox.Tensor('float16', all.subarray(0, count), dims));
        const want = run(new ox.Tensor('float16', new Uint16Array(all.buffer, 0, count), dims));
        const bits = (t) => (t.data instanceof F16 ? new Uint16Array(t.data.buffer, t.data.byteOffset, t.data.length) : t.data);
        const [a, b] = [bits(got), bits(want)];
        const bad = a.findIndex((v, i) => v !== b[i]);
        if (got.data.constructor !== (want.type === 'float16' ? F16 : want.data.constructor)) failures.push(`Float16Array ${what}: output class ${got.data.constructor.name}`);
        if (JSON.stringify(got.dims) !== JSON.stringify(want.dims) || a.length !== b.length || bad >= 0)
          failures.push(`Float16Array ${what}: differs from Uint16Array bits (dims ${JSON.stringify(got.dims)}, element ${bad})`);
        // The same into an array given as { out }, holding stale values first.
        const out = new got.data.constructor(got.data.length).fill(got.data instanceof BigInt64Array ? 7n : 7);
        const into = run(new ox.Tensor('float16', all.subarray(0, count), dims), { out });
        const c = bits(into);
        const badOut = c.findIndex((v, i) => v !== b[i]);
        if (into.data !== out || c.length !== b.length || badOut >= 0) failures.push(`Float16Array ${what} into out: differs (element ${badOut})`);
      });
    }
  }

  return { checks, failures, float16Array: typeof F16 === 'function' };
}

// float16 bits of a small value that float16 holds exactly (multiples of 0.25 below 1024).
function halfBitsOfSmall(v) {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  return sign | ((e + 15) << 10) | ((a / 2 ** e - 1) * 1024);
}
