// Shared test helpers: tensors from plain values, exact tensor comparison, the expected-error
// check, a seeded PRNG, and the reference-vs-package comparison every differential test uses.
import assert from 'node:assert/strict';
import { exactBits } from './exact-float.mjs';
import { TYPES, bfloat16Value, float16Value, referenceNode } from './reference.mjs';

/**
 * Outside Node (scripts/other-runtimes.mjs runs the suite under Deno and Bun): the reason a test
 * that starts Node child processes (process.execPath with Node's flags) skips, else false.
 */
export const NOT_NODE = 'Deno' in globalThis || 'Bun' in globalThis ? 'starts Node child processes' : false;

/** src/exec/execution.h kWindowAboveBytes: a call's state above this many bytes is windowed. */
export const WINDOW_ABOVE_BYTES = 4 << 20;

/** The argument lists of every call of the module's entry `name` while fn runs (then unhooked). */
export function recordCalls(M, name, fn) {
  const original = M[name];
  const calls = [];
  M[name] = (...args) => (calls.push(args), original.apply(M, args));
  try {
    fn();
  } finally {
    M[name] = original;
  }
  return calls;
}

/** A { type, data, dims } from plain values: numbers (or BigInts), NaN/±Infinity/-0 allowed. */
export function tensor(type, values, dims = [values.length]) {
  const info = TYPES[type];
  const data = new info.array(values.length);
  values.forEach((v, i) => {
    if (info.family === 'float16' || info.family === 'bfloat16') data[i] = exactBits(Number(v), type);
    else if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[i] = BigInt(v);
    else data[i] = Number(v);
  });
  return { type, data, dims };
}

/** The numbers a tensor holds (16-bit floats decoded; 64-bit integers stay BigInt). */
export function valuesOf(t) {
  const family = TYPES[t.type].family;
  if (family === 'float16') return Array.from(t.data, float16Value);
  if (family === 'bfloat16') return Array.from(t.data, bfloat16Value);
  return Array.from(t.data);
}

function sameElement(a, b, family, zeroEither) {
  if (family === 'float16' || family === 'bfloat16') {
    const decode = family === 'float16' ? float16Value : bfloat16Value;
    const x = decode(a);
    const y = decode(b);
    if (Number.isNaN(x) && Number.isNaN(y)) return true; // any NaN payload is NaN
    return a === b || (zeroEither && x === 0 && y === 0);
  }
  if (typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b)) return true;
  return Object.is(a, b) || (zeroEither && a === 0 && b === 0);
}

const show = (v) => (typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : String(v));

/** Exact comparison: type, dims, data class, every element (bits for 16-bit floats; NaN == NaN). */
export function assertTensorEqual(actual, expected, where = '') {
  const at = where ? ` (${where})` : '';
  assert.equal(actual.type, expected.type, `type${at}`);
  assert.deepEqual(Array.from(actual.dims), Array.from(expected.dims), `dims${at}`);
  assert.equal(actual.data.constructor, expected.data.constructor, `data class${at}`);
  assert.equal(actual.data.length, expected.data.length, `data length${at}`);
  const family = TYPES[expected.type].family;
  const either = new Set(expected.zeroEither ?? []);
  for (let i = 0; i < expected.data.length; i += 1) {
    if (!sameElement(actual.data[i], expected.data[i], family, either.has(i)))
      assert.fail(`element ${i} is ${show(actual.data[i])}, expected ${show(expected.data[i])}${at}`);
  }
}

// What each predicted failure's message must say (besides the operator and version).
export const ERROR_PATTERNS = {
  'unknown-op': /unknown operator/,
  opset: /opset/,
  'inputs-not-array': /inputs must be an array/,
  'attributes-not-object': /attributes must be an object/,
  'not-a-tensor': /not a tensor/,
  'unknown-type': /not a tensor type/,
  'data-class': /data must be/,
  'dims-form': /dims must be/,
  'input-count': /takes \d+ inputs?, got \d+/,
  'missing-input': /missing required input/,
  'attr-unknown': /unknown attribute/,
  'attr-later': /arrives in \w+ version \d+/,
  'attr-is-input': /second input/,
  'attr-value': /must (be|hold)/,
  type: /has type \w+, which/,
  'bad-dims': /not a non-negative integer/,
  length: /elements? of data but dims/,
  axis: /out of range/,
  'empty-axis': /has length 0/,
  'repeated-axis': /appears twice/,
  'axes-input': /must be (an int64 tensor|1-D)/,
};

/** Calls fn, which must throw an Error naming op, version and the problem `kind`. */
export function assertNodeError(fn, { op, version, kind, first, type }, where = '') {
  let error = null;
  let result;
  try {
    result = fn();
  } catch (e) {
    error = e;
  }
  const at = where ? ` (${where})` : '';
  if (error === null) assert.fail(`expected a ${kind} error, got a result of dims ${JSON.stringify(result?.dims ?? result?.[0]?.dims)}${at}`);
  assert.ok(error instanceof Error, `threw ${typeof error} ${String(error)}, not an Error${at}`);
  const m = error.message;
  if (typeof op === 'string') assert.ok(m.includes(op), `message does not name ${op}: ${m}${at}`);
  if (version !== undefined) assert.match(m, new RegExp(`\\b${op} version ${version}\\b`), `message does not name the version${at}`);
  assert.match(m, ERROR_PATTERNS[kind], `message does not say ${kind}${at}`);
  if (kind === 'type') {
    assert.ok(m.includes(`type ${type}`), `message does not name type ${type}: ${m}${at}`);
    if (first === null) assert.match(m, /no version/, `message should say no version accepts ${type}: ${m}${at}`);
    else assert.match(m, new RegExp(`version ${first}\\b`), `message does not name version ${first}: ${m}${at}`);
  }
  if (kind === 'attr-later') assert.match(m, new RegExp(`version ${first}\\b`), `message does not name version ${first}${at}`);
  return error;
}

/**
 * Runs the node through the package's runNode and through the reference: the same output, or an
 * Error when the reference says the call is invalid. Returns the reference's verdict.
 */
export function checkAgainstReference(runNode, op, inputs, attributes, opset, where = '') {
  const expected = referenceNode(op, inputs, attributes, opset);
  if (!expected.ok) {
    assertNodeError(() => runNode(op, inputs, attributes, opset), { op, ...expected }, where);
    return expected;
  }
  const outputs = runNode(op, inputs, attributes, opset);
  assert.ok(Array.isArray(outputs) && outputs.length === 1, `runNode returns one output${where ? ` (${where})` : ''}`);
  assertTensorEqual(outputs[0], expected.output, where);
  return expected;
}

/** mulberry32: a small seeded PRNG; the seed is printed by the tests that use it. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n), // 0..n-1
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // lo..hi
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

/** A seed from OX_SEED or the clock, shown in the test name so a failure can be replayed. */
export const seedFromEnvironment = (fallback) => (process.env.OX_SEED ? Number(process.env.OX_SEED) : fallback);
