// The Tensor class ({ type, data, dims }, the shape of onnxruntime-web's ort.Tensor) and the
// reading of tensor-likes given to operators.
import { DTYPES, bufferIsDetached, dataClass, describeValue, dtypeOf, isDetached, isList, lengthOf, lengthText, listFault, listLength, withArticle } from './dtypes.js';

// 'a Float32Array', or 'a Uint16Array (or Float16Array)' for a dtype with two classes.
export function expectedClassText(info) {
  const name = withArticle(info.array.name);
  return info.alternative ? `${name} (or ${info.alternative.name})` : name;
}

// 'a Float32Array whose buffer is detached (...)': what a call says of an input, output or list
// that cannot be read (dtypes.js: isDetached).
export const detachedText = (array) =>
  bufferIsDetached(array)
    ? `${describeValue(array)} whose buffer is detached (transferred away, or a view of a wasm memory that has grown since)`
    : `${describeValue(array)} out of the bounds of its resizable buffer, which was shrunk below the view's end`;

/** What a list with listFault `fault` is, as the end of 'dims is ...' or "attribute 'axes' is ...". */
export const listFaultText = (list, length, fault) =>
  fault === 'detached' ? detachedText(list) : `a list whose length is ${lengthText(length)}, not a count of entries`;

// Checks a { type, data, dims } and returns its parts, or a problem text (no throwing here so the
// caller can prefix the operator and version).
export function readTensorLike(x) {
  if (x === null || typeof x !== 'object') return { problem: `is ${describeValue(x)}, not a tensor { type, data, dims }` };
  let type, data, dims;
  try {
    ({ type, data, dims } = x); // through getters, as ort.Tensor has them
  } catch (error) {
    const problem = offCpuProblem(x);
    if (problem) return { problem };
    throw error; // the caller's own getter's exception, unchanged
  }
  return readTensorParts(type, data, dims);
}

// The tensors wasmTensor() made whose dispose() has freed their memory (wasm-tensor.js); their
// data getter throws, and an operator names them so.
export const disposedWasmTensors = new WeakSet();
// How many dispose() calls have freed memory so far: a call compares it before and after reading
// its arguments, whose getters may free the data it has just read (engine.js: runNodeOutput).
export const wasmTensorFrees = { count: 0 };

// ort.Tensor's data getter throws for a tensor whose data is on a GPU or NPU (WebGPU or WebNN
// outputs, preferredOutputLocation) or that was disposed; its `location` tells which. Read only
// after that getter threw, so the common call reads no more properties.
function offCpuProblem(x) {
  if (disposedWasmTensors.has(x)) return 'is a wasmTensor that was disposed; its memory is freed';
  let location;
  try {
    location = x.location;
  } catch {
    return undefined;
  }
  if (location === 'none') return 'is an ort.Tensor that was disposed (its location is \'none\'); it holds no data';
  if (location === 'gpu-buffer' || location === 'texture' || location === 'ml-tensor')
    return `is an ort.Tensor whose data is on '${location}', not on the CPU; await its getData() first, which downloads the data and makes it a CPU tensor`;
  return undefined;
}

// readTensorLike of the parts already read.
function readTensorParts(type, data, dims) {
  const info = dtypeOf(type);
  if (!info) {
    const known = Object.keys(DTYPES).join(', ');
    return { problem: `has type ${typeof type === 'string' ? `'${type}'` : describeValue(type)}, which is not a tensor type (${known})` };
  }
  const cls = dataClass(info, data);
  if (!cls)
    return { problem: `has type '${type}' but its data is ${describeValue(data)}; '${type}' data must be ${expectedClassText(info)}` };
  // From here on the call reads the data's elements and its own memory, and its length as read
  // here, never a property or method of the caller's object (dtypes.js: intrinsics): a subclass's
  // species-aware subarray would run its constructor, an own `length` getter could lie. The call
  // checks that the length still holds once its request is written (getters of dims may resize).
  const length = lengthOf(data);
  if (length === 0 && isDetached(data)) return { problem: `has as data ${detachedText(data)}` };
  // (`address`: where the data lies when it is already in wasm memory, else 0; feed.js: inputAddress)
  if (dims === undefined) return { type, info, cls, data, length, dims: [length], address: 0 };
  if (!isList(dims))
    return { problem: `has dims ${describeValue(dims)}; dims must be an array of non-negative integers` };
  return { type, info, cls, data, length, dims, address: 0 };
}

// A bound far past any model's rank (the operators take 64 at most), below which copying dims is harmless.
export const MAX_TENSOR_RANK = 65536;

// A Tensor's dims as numbers, and their product. Each entry read once and checked as it is read,
// so a sparse Array of length 2^32 - 1 fails at entry 0 (copied whole first, it took 6 s to a
// RangeError, or crashed the process). A loop, not Array.from(dims, Number): a Tensor made per
// call of a small input cost that call about 0.28 us more than a plain { type, data, dims }.
// `who` opens its Errors ('Tensor', or wasmTensor's).
export function shapeOf(dims, who = 'Tensor') {
  const rank = listLength(dims);
  const fault = listFault(dims, rank);
  if (fault) throw new Error(`${who}: dims is ${listFaultText(dims, rank, fault)}`);
  if (rank > MAX_TENSOR_RANK) throw new Error(`${who}: dims has ${rank} entries, more than any tensor has (at most ${MAX_TENSOR_RANK})`);
  const shape = [];
  let size = 1;
  for (let i = 0; i < rank; i += 1) {
    const entry = dims[i];
    const d = typeof entry === 'symbol' ? NaN : Number(entry);
    if (!Number.isSafeInteger(d) || d < 0)
      throw new Error(`${who}: dims[${i}] is ${typeof entry === 'number' ? entry : describeValue(entry)}; dims must be non-negative integers`);
    shape.push(d);
    size *= d;
  }
  return { shape, size };
}

// `checked` if its size is `length`, else the Error.
function fitting(checked, length) {
  if (checked.size !== length)
    throw new Error(`Tensor: dims ${JSON.stringify(checked.shape)} need ${checked.size} elements but data has ${length}`);
  return checked;
}

// A plain Array's entries in the type's class, entry by entry: an undefined entry (a hole of a
// sparse Array) is an Error at once. (TypedArray.from gathered every entry of a sparse Array of
// 2^31 holes first, and ran past 20 GB and two minutes; undefined would have read as 0 or NaN.)
function convertedArray(array, info, bool) {
  const n = array.length;
  let out;
  try {
    out = new info.array(n);
  } catch (cause) {
    throw new Error(`Tensor: cannot convert the Array to ${info.array.name}: ${cause.message}`);
  }
  for (let i = 0; i < n; i += 1) {
    const v = array[i];
    if (v === undefined) throw new Error(`Tensor: data[${i}] is undefined${i in array ? '' : ' (a hole of a sparse Array)'}; the entries must be values of the type`);
    try {
      out[i] = bool ? (v ? 1 : 0) : v;
    } catch (cause) {
      throw new Error(`Tensor: cannot convert the Array to ${info.array.name}: data[${i}]: ${cause.message}`);
    }
  }
  return out;
}

export class Tensor {
  /**
   * @param {string} type  'float32', 'int64', 'float16', ... (see README)
   * @param {ArrayBufferView|Array} data  the typed array for `type`; a plain Array is converted
   *   for number and bigint types (not for float16/bfloat16, whose numbers would be ambiguous); an
   *   undefined entry or a hole is an Error
   * @param {number[]} [dims]  defaults to [data.length]
   */
  constructor(type, data, dims) {
    const info = dtypeOf(type);
    let checked; // { shape, size } of dims, checked before a plain Array is converted
    if (info && Array.isArray(data) && type !== 'float16' && type !== 'bfloat16') {
      // dims that do not fit the Array's length are an Error before it is converted (a sparse
      // Array of 2^32 - 1 entries made a 16 GB array first).
      if (isList(dims)) checked = fitting(shapeOf(dims), data.length);
      data = convertedArray(data, info, type === 'bool');
    }
    const read = readTensorParts(type, data, dims);
    if (read.problem) throw new Error(`Tensor: the tensor ${read.problem}`);
    const { shape } = checked ?? fitting(shapeOf(read.dims), read.length);
    this.type = type;
    this.data = read.data;
    this.dims = shape;
  }

  /** Number of elements. */
  get size() {
    return this.data.length;
  }
}
