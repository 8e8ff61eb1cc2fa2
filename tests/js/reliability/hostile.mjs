// Hostile calls through the public API, each with what it must do:
//   'error'   throw an Error whose message starts with `label` (operator and version when known)
//   'value'   return the reference's answer
//   'caller'  a throwing getter / Proxy trap: its exception comes through unchanged, or, when the
//             engine never reads the object, an 'error' as above
//   'any'     an object the engine cannot even inspect (a revoked Proxy): some Error
// Each slot of a call (op name, inputs, type, data, dims, attributes, each attribute, opset, an
// extra input) is filled in turn with every value of HOSTILE, the rest of the call staying valid.
import { OPS, VERSIONS, expected, versionFor } from './reference.mjs';

export const TRAP = new Error('hostile trap'); // what hostile getters and traps throw

function revoked(target) {
  const p = Proxy.revocable(target, {});
  p.revoke();
  return p.proxy;
}

// An Array whose length (through a Proxy) is no count of entries.
function lyingLength(entries, length) {
  return new Proxy(entries, { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
}

const throwingProxy = () =>
  new Proxy({}, { get() { throw TRAP; }, ownKeys() { throw TRAP; }, has() { throw TRAP; }, getPrototypeOf() { throw TRAP; } });

/** Values that go where they should not. Functions build fresh ones (frozen, stateful, ...). */
export const HOSTILE = [
  undefined, null, true, false, 0, -0, 1, 2, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53,
  2 ** 53 + 2, 1e300, -1e300, Number.MIN_VALUE, '', '0', '1', '13', 'float32', 'ArgMax', 'constructor', '__proto__',
  Symbol('hostile'), Symbol.iterator, 0n, 1n, -1n, 13n, 2n ** 64n, -(2n ** 64n),
  () => 0, function named() {}, class K {}, async () => 0,
  [], [0], [1], [-1], [-0], [1.5], [NaN], ['0'], [[1]], [1n], [null], [undefined], [, 1], new Array(3),
  Object.freeze([0]), [65536, 65536, 65536], [2 ** 53, 0], [2 ** 32], [0, 0], [1, -1], [0, 1, 2],
  {}, Object.create(null), { length: 2, 0: 1, 1: 2 }, { valueOf: () => 1 }, { toString: () => 'ArgMax' },
  { [Symbol.toPrimitive]: () => 13 }, Object.freeze({ type: 'float32' }), new Number(1), new String('float32'),
  new Boolean(true), new Float32Array(6), new Float64Array(0), new BigInt64Array([1n]), new Int32Array([1]),
  new Uint8Array(3), new DataView(new ArrayBuffer(8)), new ArrayBuffer(8), new Float32Array(new SharedArrayBuffer(24)),
  new Map([['axis', 1]]), new Set([1]), new Date(0), /re/, Promise.resolve(1), new Error('x'), Math, JSON,
  lyingLength([0], -1), lyingLength([0], 'abc'), lyingLength([1], NaN),
];
/** Hostile objects whose every read throws (the caller's exception) or cannot be read at all. */
export const HOSTILE_THROWING = [
  { make: throwingProxy, kind: 'caller' },
  { make: () => ({ get type() { throw TRAP; }, get axis() { throw TRAP; }, get 0() { throw TRAP; } }), kind: 'caller' },
  { make: () => revoked({}), kind: 'any' },
  { make: () => revoked([]), kind: 'any' },
];

// Known bugs outside the reliability area (reported to their owners). A call whose misbehaviour
// one explains is listed by hostile.test.mjs's todo test instead of failing the suite.
export const KNOWN = []; // none open (holes in an inputs array were fixed in engine.js)

const label = (op, since) => `${op} version ${since}`;
const isList = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
const isInt = (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
const num = (v) => Number(v);

function validFlag(v) {
  return v === 0 || v === 1 || v === true || v === false || v === 0n || v === 1n;
}

function validAxis(v, rank) {
  return isInt(v) && num(v) >= -rank && num(v) <= rank - 1;
}

// A list of axes for `rank`: every carried entry numeric, integer, in range, no repeats.
function validAxes(v, rank) {
  if (!isList(v) || !(Number.isSafeInteger(v.length) && v.length >= 0)) return false;
  const seen = new Set();
  for (let i = 0; i < v.length; i += 1) {
    const a = v[i];
    if (!(typeof a === 'number' || typeof a === 'bigint') || !validAxis(a, rank)) return false;
    const n = num(a) < 0 ? num(a) + rank : num(a);
    if (seen.has(n)) return false;
    seen.add(n);
  }
  return true;
}

const X = () => ({ type: 'float32', data: new Float32Array([1, 3, 2, 4, 0, 5]), dims: [2, 3] });

/** One hostile call: { name, run(api), kind, label, want? }. */
function call(name, kind, labelText, run, want) {
  return { name, kind, label: labelText, run, want };
}

function describe(v) {
  try {
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'function') return `function ${v.name}`;
    if (Array.isArray(v)) return `[${Array.from(v, (e) => describe(e)).join(',')}]`;
    if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length ?? v.byteLength})`;
    if (v && typeof v === 'object') return `object ${v.constructor?.name ?? 'null-proto'}`;
    return String(v);
  } catch {
    return 'unreadable';
  }
}

/** The whole catalog: several thousand calls. */
export function hostileCalls() {
  const calls = [];
  const values = [...HOSTILE.map((v) => ({ v: () => v, kind: null, text: describe(v) })),
    ...HOSTILE_THROWING.map((h, i) => ({ v: h.make, kind: h.kind, text: `throwing#${i}` }))];

  // The operator name.
  for (const h of values) {
    const v = h.kind ? Symbol('throwing') : h.v();
    const valid = typeof v === 'string' && OPS.includes(v);
    const kind = h.kind ?? (valid ? 'value' : 'error');
    calls.push(call(`opType=${h.text}`, kind, 'onnx-extrema: unknown operator', (api) => api.runNode(h.v(), [X()]),
      valid ? expected(v, VERSIONS[v].at(-1).since, X(), {}) : undefined));
  }

  for (const op of OPS)
    for (const opset of [undefined, ...VERSIONS[op].map((v) => v.since)]) {
      const version = versionFor(op, opset);
      const L = label(op, version.since);
      const runNode = (api, inputs, attrs) => api.runNode(op, inputs, attrs, opset);
      const ok = (x = X(), attrs = {}) => expected(op, version.since, x, attrs);

      for (const h of values) {
        // A throwing value is never valid, and inspecting it here would throw.
        const v = h.kind ? Symbol('throwing') : h.v();
        const k = (valid) => h.kind ?? (valid ? 'value' : 'error');
        // inputs itself
        calls.push(call(`${op}@${opset} inputs=${h.text}`, k(false), L, (api) => runNode(api, h.v())));
        // each field of the tensor
        calls.push(call(`${op}@${opset} type=${h.text}`, k(v === 'float32'), L,
          (api) => runNode(api, [{ ...X(), type: h.v() }]), v === 'float32' ? ok() : undefined));
        const dataValid = v instanceof Float32Array && v.length === 6;
        calls.push(call(`${op}@${opset} data=${h.text}`, k(dataValid), L,
          (api) => runNode(api, [{ ...X(), data: h.v() }]), dataValid ? ok({ ...X(), data: v }) : undefined));
        const dimsValid = v === undefined && !(op === 'Hardmax' && version.since < 13); // [6]: rank 1, default axis 1
        calls.push(call(`${op}@${opset} dims=${h.text}`, k(dimsValid), L,
          (api) => runNode(api, [{ ...X(), dims: h.v() }]), dimsValid ? ok({ ...X(), dims: [6] }) : undefined));
        // the tensor itself, and a second input
        calls.push(call(`${op}@${opset} x=${h.text}`, k(false), L, (api) => runNode(api, [h.v()])));
        const secondValid = op === 'ReduceMax' && version.since >= 18 && (v === null || v === undefined);
        calls.push(call(`${op}@${opset} inputs[1]=${h.text}`, k(secondValid), L,
          (api) => runNode(api, [X(), h.v()]), secondValid ? ok() : undefined));
        // the attributes object
        let attrsValid = v === undefined;
        try {
          attrsValid ||= typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set) && Object.keys(v).every((n) => v[n] === undefined);
        } catch {
          attrsValid = false;
        }
        calls.push(call(`${op}@${opset} attributes=${h.text}`, k(attrsValid), L,
          (api) => runNode(api, [X()], h.v()), attrsValid ? ok() : undefined));
        // each attribute any version knows, with this value
        for (const name of ['axis', 'axes', 'keepdims', 'select_last_index', 'noop_with_empty_axes', 'bogus']) {
          const form = version.attrs[name];
          let valid = v === undefined; // dropped, like any undefined attribute
          if (form === 'int') valid ||= validAxis(v, 2);
          if (form === 'flag') valid ||= validFlag(v);
          if (form === 'ints') valid ||= validAxes(v, 2);
          const attrs = { [name]: v };
          calls.push(call(`${op}@${opset} ${name}=${h.text}`, k(valid), L,
            (api) => runNode(api, [X()], { [name]: h.v() }), valid ? ok(X(), attrs) : undefined));
        }
        // the opset
        const good = v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 1) || (typeof v === 'bigint' && v >= 1n);
        const atOpset = good ? versionFor(op, v) : undefined;
        calls.push(call(`${op} opset=${h.text}`, k(good), op, (api) => api.runNode(op, [X()], {}, h.v()),
          good ? expected(op, atOpset.since, X(), {}) : undefined));
      }
    }
  return calls;
}
