// The JS side's single dtype table: ONNX code, bytes per element and the typed-array class the
// public API uses (src/core/dtype.cc is the C++ side's).
const Float16ArrayClass = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;

// `view`: the name of the module's heap view of `array` (a same-class copy into it is a memcpy).
const TABLE = {
  float32: { code: 1, bytes: 4, array: Float32Array, view: 'HEAPF32' },
  uint8: { code: 2, bytes: 1, array: Uint8Array, view: 'HEAPU8' },
  int8: { code: 3, bytes: 1, array: Int8Array, view: 'HEAP8' },
  uint16: { code: 4, bytes: 2, array: Uint16Array, view: 'HEAPU16' },
  int16: { code: 5, bytes: 2, array: Int16Array, view: 'HEAP16' },
  int32: { code: 6, bytes: 4, array: Int32Array, view: 'HEAP32' },
  int64: { code: 7, bytes: 8, array: BigInt64Array, view: 'HEAP64' },
  bool: { code: 9, bytes: 1, array: Uint8Array, view: 'HEAPU8' },
  float16: { code: 10, bytes: 2, array: Uint16Array, view: 'HEAPU16', alternative: Float16ArrayClass },
  float64: { code: 11, bytes: 8, array: Float64Array, view: 'HEAPF64' },
  uint32: { code: 12, bytes: 4, array: Uint32Array, view: 'HEAPU32' },
  uint64: { code: 13, bytes: 8, array: BigUint64Array, view: 'HEAPU64' },
  bfloat16: { code: 16, bytes: 2, array: Uint16Array, view: 'HEAPU16' },
};

// Each entry also carries its name.
export const DTYPES = Object.freeze(Object.fromEntries(Object.entries(TABLE).map(([name, info]) => [name, Object.freeze({ name, ...info })])));

// Each dtype's info at index code, for codes read from wasm memory.
export const DTYPE_BY_CODE = Object.freeze(Object.values(DTYPES).reduce((table, info) => ((table[info.code] = info), table), []));

// A Map: a keyed read of DTYPES with the caller's string, once a call, was a measured cost (megamorphic).
const DTYPE_BY_NAME = new Map(Object.entries(DTYPES));

export function dtypeOf(type) {
  return DTYPE_BY_NAME.get(type);
}

// The typed-array class `data` is valid as for this dtype (float16 also takes a Float16Array), or
// undefined. ArrayBuffer.isView first: a Proxy passes instanceof but is no typed array.
export function dataClass(info, data) {
  if (!ArrayBuffer.isView(data)) return undefined;
  if (data instanceof info.array) return info.array;
  if (info.alternative !== undefined && data instanceof info.alternative) return info.alternative;
  return undefined;
}

export function describeValue(value) {
  if (value === null) return 'null';
  if (value instanceof Map) return 'a Map';
  if (ArrayBuffer.isView(value)) return `a ${Object.prototype.toString.call(value).slice(8, -1)}`;
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value)}`;
  return `${typeof value === 'undefined' ? '' : 'a '}${typeof value}`.trim();
}
