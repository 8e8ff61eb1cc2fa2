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

// Typed-array facts read through %TypedArray%.prototype's own getters, never through the
// caller's object: an own `length` getter on a Float32Array, or a prototype swapped for another
// class's, would otherwise decide how many bytes a call copies and as what (a length that lied
// had a call read an earlier call's input left in the staging buffer). A few ns each.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getterOf = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const kindGetter = getterOf(Symbol.toStringTag);
const lengthGetter = getterOf('length');
const byteOffsetGetter = getterOf('byteOffset');
const byteLengthGetter = getterOf('byteLength');
const bufferGetter = getterOf('buffer');

/** 'Float32Array', 'Uint16Array', ...: a typed array's own kind (any subclass, any realm); else undefined. */
export const typedArrayKind = (value) => kindGetter.call(value);
// These take a typed array (typedArrayKind says so).
export const lengthOf = (array) => lengthGetter.call(array);
export const byteOffsetOf = (array) => byteOffsetGetter.call(array);
export const byteLengthOf = (array) => byteLengthGetter.call(array);
export const bufferOf = (array) => bufferGetter.call(array);
const typedArrayAt = TypedArrayPrototype.at;
/**
 * Whether typed array `array` cannot be read: its buffer is detached (transferred to a worker, or
 * a view of a wasm memory that has grown since), or it is a fixed-length view of a resizable
 * buffer shrunk below its end. Either reads as empty, but copying from it throws (a TypeError that
 * names nothing of the call). Only an empty array can be; `at` validates it as every method does.
 */
export function isDetached(array) {
  if (lengthOf(array) !== 0) return false;
  try {
    typedArrayAt.call(array, 0);
    return false;
  } catch {
    return true;
  }
}
/** Of an array isDetached says yes to: whether its buffer itself is detached (else the view is out of its bounds). */
export function bufferIsDetached(array) {
  try {
    new Uint8Array(bufferOf(array), 0, 0);
    return false;
  } catch {
    return true;
  }
}
// SharedArrayBuffer's own byteLength getter: a brand check of any realm (it throws for anything else).
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : undefined;
/**
 * Whether `buffer` (a typed array's, bufferOf) is a SharedArrayBuffer: one memory can have several
 * (structuredClone of one, one posted to a worker twice, a shared WebAssembly.Memory's buffer
 * after grow()), so two views on different ones may still share bytes (sameSharedBytes). This
 * realm's ArrayBuffers go by instanceof; anything else by brand (rare).
 */
export function isSharedBuffer(buffer) {
  if (buffer instanceof ArrayBuffer || sharedByteLength === undefined) return false;
  if (buffer instanceof SharedArrayBuffer) return true;
  try {
    sharedByteLength.call(buffer);
    return true;
  } catch {
    return false;
  }
}
/**
 * Whether byte `at` of SharedArrayBuffers `a` and `b` is the same memory: a byte of a's is flipped
 * and put back, and b's looked at between. (Each SharedArrayBuffer of one memory starts at its
 * start, so the same offset is the same byte.) Only for memory the caller lets this call write
 * at `at` of `a` (option out), and `at` within both.
 */
export function sameSharedBytes(a, b, at) {
  const mine = new Uint8Array(a, at, 1);
  const theirs = new Uint8Array(b, at, 1);
  const before = theirs[0];
  const value = mine[0];
  mine[0] = value ^ 0xff;
  const moved = theirs[0] !== before;
  mine[0] = value;
  return moved;
}
/** A view of class `cls` over exactly the memory of typed array `array`, with nothing of the caller's on it. */
export const plainView = (array, cls) => new cls(bufferOf(array), byteOffsetOf(array), lengthOf(array));
/** The bytes of typed array `array`. */
export const bytesOf = (array) => new Uint8Array(bufferOf(array), byteOffsetOf(array), byteLengthOf(array));

// What typedArrayKind says of instances of a class (a subclass says its base's kind); undefined
// for a class whose instances are no typed arrays of `bytes` bytes an element (a Float16Array
// polyfill's are Proxies).
const kindOf = (cls, bytes) => {
  try {
    const one = new cls(1);
    return byteLengthOf(one) === bytes ? typedArrayKind(one) : undefined;
  } catch {
    return undefined;
  }
};

// Each entry also carries its name and its classes' kinds. A global Float16Array that is no
// typed-array class of 2-byte elements (a page's polyfill; a subclass of another width) is not
// taken as float16 data: matched by kind, a polyfill's undefined kind let any data that is no
// typed array through to the typed-array getters, and a wrong width copied the wrong bytes.
function entryOf(name, info) {
  const alternativeKind = info.alternative && kindOf(info.alternative, info.bytes);
  const alternative = alternativeKind === undefined ? undefined : info.alternative;
  return Object.freeze({ name, ...info, alternative, arrayKind: kindOf(info.array, info.bytes), alternativeKind: alternative && alternativeKind });
}
export const DTYPES = Object.freeze(Object.fromEntries(Object.entries(TABLE).map(([name, info]) => [name, entryOf(name, info)])));

// Each dtype's info at index code, for codes read from wasm memory.
export const DTYPE_BY_CODE = Object.freeze(Object.values(DTYPES).reduce((table, info) => ((table[info.code] = info), table), []));

// A Map: a keyed read of DTYPES with the caller's string, once a call, was a measured cost (megamorphic).
const DTYPE_BY_NAME = new Map(Object.entries(DTYPES));

// The last name found, and its info: a model's calls repeat their types, and a string compare
// (the same string, or an equal literal) costs less than the Map's hashing (about 9 ns a call).
let lastName, lastInfo;

export function dtypeOf(type) {
  if (type === lastName) return lastInfo;
  const info = DTYPE_BY_NAME.get(type);
  if (info !== undefined) (lastName = type), (lastInfo = info);
  return info;
}

// The typed-array class `data` is valid as for this dtype (float16 also takes a Float16Array), or
// undefined: by its own kind, so a Proxy (no typed array) and a swapped prototype do not pass.
export function dataClass(info, data) {
  const kind = typedArrayKind(data);
  if (kind === info.arrayKind) return info.array;
  if (info.alternative !== undefined && kind === info.alternativeKind) return info.alternative;
  return undefined;
}

/** Whether `value` is a list of numbers as dims, axes and list attributes take: an Array or a typed array (not a DataView). */
export const isList = (value) => Array.isArray(value) || typedArrayKind(value) !== undefined; // (a DataView of any realm is not)
/**
 * The length of list `value` (isList): a typed array's own (through the intrinsic getter, not one
 * of the caller's), an Array's as it answers. A Proxy of an Array may answer anything: listFault.
 */
export const listLength = (value) => (Array.isArray(value) ? value.length : lengthOf(value));
/** Whether a length is a count of entries (a Proxy's length may be negative, fractional or no number). */
export const isCount = (n) => Number.isSafeInteger(n) && n >= 0;
/**
 * Why list `value` of length `length` (listLength, read once) cannot be read as its entries:
 * 'length', no count; 'detached', a typed array that cannot be read (isDetached: it reads as
 * empty, so dims or axes given that way would silently mean a scalar or every axis); else
 * undefined. The one check of every reader of dims and list attributes (a few ns).
 */
export function listFault(value, length) {
  if (!isCount(length)) return 'length';
  return length === 0 && typedArrayKind(value) !== undefined && isDetached(value) ? 'detached' : undefined;
}
/** A length that is no count, as a message shows it: -1, NaN, 2.5, the string "2". */
export const lengthText = (n) => (typeof n === 'number' ? String(n) : typeof n === 'bigint' ? `${n}n` : describeValue(n));

// Brand checks of any realm: a Map's or Set's own `size` getter throws for anything else.
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
const hasBrand = (sizeGetter, value) => {
  try {
    sizeGetter.call(value);
    return true;
  } catch {
    return false;
  }
};
/**
 * Whether object `value` is a Map or a Set, of any realm: their entries are no properties, so as
 * attributes or options they would read as none. This realm's objects go by instanceof; another
 * realm's, or one without a prototype, by brand (the checks throw for anything else: slow, but
 * rare). (Object.getPrototypeOf against Object.prototype first cost 11-15 ns a call more.)
 */
export function isMapOrSet(value) {
  if (value instanceof Object) return value instanceof Map || value instanceof Set;
  return hasBrand(mapSize, value) || hasBrand(setSize, value);
}

/** A caller's text (a key, a string value) cut to 40 characters for a message. */
export const clipped = (text) => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

/**
 * A caller's key (an option's name) for a message, clipped, shown as the core shows operator and
 * attribute names (src/wire: put_name_code): printable ASCII as itself, a backslash doubled, any
 * other UTF-16 unit as a JS escape, so a look-alike ('\u0430xis') or an invisible character shows.
 */
export const keyText = (key) =>
  clipped(key).replace(/[^\x20-\x5b\x5d-\x7e]/g, (c) => (c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

// 'a Float32Array', 'an Int8Array': a class name with its article ('a Uint8Array': you-int).
export const withArticle = (name) => `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`;

export function describeValue(value) {
  if (value === null) return 'null';
  if (hasBrand(mapSize, value)) return 'a Map';
  if (hasBrand(setSize, value)) return 'a Set';
  if (ArrayBuffer.isView(value)) return withArticle(Object.prototype.toString.call(value).slice(8, -1));
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(clipped(value))}`;
  return `${typeof value === 'undefined' ? '' : 'a '}${typeof value}`.trim();
}
