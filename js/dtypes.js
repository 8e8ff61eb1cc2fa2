// The JS side's single dtype table: ONNX code, bytes per element and the typed-array class the
// public API uses (src/core/dtype.cc is the C++ side's).
const Float16ArrayClass = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;

export const DTYPES = Object.freeze({
  float32: { code: 1, bytes: 4, array: Float32Array },
  uint8: { code: 2, bytes: 1, array: Uint8Array },
  int8: { code: 3, bytes: 1, array: Int8Array },
  uint16: { code: 4, bytes: 2, array: Uint16Array },
  int16: { code: 5, bytes: 2, array: Int16Array },
  int32: { code: 6, bytes: 4, array: Int32Array },
  int64: { code: 7, bytes: 8, array: BigInt64Array },
  bool: { code: 9, bytes: 1, array: Uint8Array },
  float16: { code: 10, bytes: 2, array: Uint16Array, alternative: Float16ArrayClass },
  float64: { code: 11, bytes: 8, array: Float64Array },
  uint32: { code: 12, bytes: 4, array: Uint32Array },
  uint64: { code: 13, bytes: 8, array: BigUint64Array },
  bfloat16: { code: 16, bytes: 2, array: Uint16Array },
});

export const DTYPE_NAME_BY_CODE = Object.freeze(
  Object.fromEntries(Object.entries(DTYPES).map(([name, info]) => [info.code, name])),
);

export function dtypeOf(type) {
  return typeof type === 'string' && Object.hasOwn(DTYPES, type) ? DTYPES[type] : undefined;
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
