// runNode: the one call path of every operator. Validates the tensor-likes' form, writes the
// request, lets the core resolve it, streams the input through a small staging buffer (each chunk
// reduced while in cache; the heap never holds the whole tensor), and copies the output out.
// Wide column plans stream as column tiles instead (feedTiles), and large multi-axis ReduceMax
// plans gathered (feedGathered). An input that fits in the staging buffer (or already is in wasm
// memory) makes the whole call a single crossing into wasm (bindings' run(), where a request
// repeating an earlier one reuses its plan); no view or string is made per call. Hardmax's
// one-hot output is built here from the winning indices, unless its winners are dense (then the
// core writes it and it is read out as other outputs are: bindings' writes_one_hot).
import {
  DTYPE_BY_CODE, bufferOf, byteLengthOf, byteOffsetOf, bytesOf, dataClass, describeValue, isDetached, lengthOf, plainView, typedArrayKind,
} from './dtypes.js';
import { currentModule } from './module.js';
import { Tensor, detachedText, expectedClassText, readTensorLike } from './tensor.js';
import { RequestWriter } from './wire.js';

export const STAGING_BYTES = 256 * 1024; // the tests read it here too
const PAGE_BYTES = 4096;

let state = null; // the loaded module's session: see newSession

// What every call needs from the module, read once: a property of the Module object costs ~20 ns
// per read (it has too many for V8's fast properties), a dozen of them per call.
function newSession(M) {
  // Half a page past a page boundary (so on a cache line too). On a line: emmalloc aligns to 8
  // bytes, and a chunk staged at 8 mod 64 has every fourth SIMD load straddle two lines, and a
  // column walk's 64-byte group span two lines of every row. Half a page: each chunk is copied in
  // by memmove (TypedArray.prototype.set), which on the AMD Zen 3 hosts here runs over 10x slower
  // when the destination lies 8-24 bytes past the source modulo 4 KiB (1.7-2.7 against 25-30
  // GB/s, bench/copy-offsets.mjs); large typed arrays start a few bytes past a page (16 in Node:
  // glibc's mmap'd blocks), and a staging buffer at 24 or 32 mod 4096 made ReduceMax over float32
  // [4096,1024] 3.3x slower end to end (6815 against 2074 us).
  const block = M._malloc(STAGING_BYTES + PAGE_BYTES);
  if (!block) throw new Error('onnx-extrema: cannot allocate the staging buffer');
  const staging = Math.ceil((block - PAGE_BYTES / 2) / PAGE_BYTES) * PAGE_BYTES + PAGE_BYTES / 2;
  return {
    M,
    run: M._run,
    writer: new RequestWriter(M),
    staging,
    views: heapViews(M),
    response: M._responseAddress() / 8,
    step: M._responseAddress() / 8 + M.HARDMAX_WORDS, // outer, reduce, inner, Hardmax winners
    tileWidth: M._responseAddress() / 8 + M.TILE_WIDTH_WORD,
    window: M._responseAddress() / 8 + M.WINDOW_WORD, // windowed?, then final states, window's first state
    gather: M._responseAddress() / 8 + M.GATHER_WORD, // blocks (0: not gathered), offsets, next window
    busy: false, // a call is writing its request or running (runNodeOutput)
    float16One: M.FLOAT16_ONE,
    bfloat16One: M.BFLOAT16_ONE,
  };
}

function session() {
  const M = currentModule();
  if (!M) return null;
  if (!state || state.M !== M) state = newSession(M);
  return state;
}

const heapViews = (M) => ({
  HEAP8: M.HEAP8,
  HEAPU8: M.HEAPU8,
  HEAP16: M.HEAP16,
  HEAPU16: M.HEAPU16,
  HEAP32: M.HEAP32,
  HEAPU32: M.HEAPU32,
  HEAPF32: M.HEAPF32,
  HEAPF64: M.HEAPF64,
  HEAP64: M.HEAP64,
  HEAPU64: M.HEAPU64,
  buffer: M.HEAPU8.buffer,
  byCode: DTYPE_BY_CODE.map((info) => (info ? M[info.view] : undefined)), // each dtype's own view: heapViewFor
});

// The module's heap views, current: memory growth (in any call into wasm) detaches the buffer
// they view, which leaves them 0 long, and Emscripten makes new ones.
function heap(s) {
  if (s.views.HEAPU8.length === 0) s.views = heapViews(s.M);
  return s.views;
}

function opText(opType) {
  return typeof opType === 'string' ? opType : describeValue(opType);
}

// Throws `problem` prefixed with the operator and version the core resolves for the header
// already written (or the header's own problem: an unknown operator, a bad opset).
function failWith(s, header, problem) {
  const { M, writer } = s;
  writer.rewind(header);
  writer.put(0); // no inputs
  writer.put(0); // no attributes
  const ok = M._nodeLabel(writer.count) === 0;
  throw new Error(ok ? `${M._lastError()}: ${problem}` : M._lastError());
}

/** An Error for `problem` in a call of opType at opset, prefixed as the core prefixes its own. */
export function nodeError(opType, opset, problem) {
  const s = session();
  if (!s || s.busy) return new Error(`onnx-extrema: ${opText(opType)}: ${problem}`); // (busy: see runNodeOutput)
  try {
    failWith(s, s.writer.begin(heap(s).HEAPF64, opType, opset), problem);
  } catch (error) {
    return error;
  }
  return new Error(problem); // not reached: failWith always throws
}

function check(M, status) {
  if (status !== 0) throw new Error(M._lastError());
}

// Options are an object or absent: anything else is an error, so that an array given where
// { out: array } was meant is not silently ignored.
function checkedOptions(opType, options, opset) {
  if (typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options))
    throw nodeError(opType, opset, `options must be an object such as { opset, out }, got ${describeValue(options)}`);
  return options;
}

/** The opset of the friendly functions' options { opset, out } (runNode reads `out`). */
export function optionsOpset(opType, options) {
  return options === undefined || options === null ? undefined : checkedOptions(opType, options, undefined).opset;
}

/**
 * Runs one ONNX node, exactly as a model would call it.
 * @param {string} opType 'ArgMax' | 'ArgMin' | 'ReduceMax' | 'Hardmax'
 * @param {Array<{type, data, dims}|null>} inputs
 * @param {object} [attributes] ONNX attribute names and values
 * @param {number} [opset] the model's opset; default the newest version
 * @param {{ out?: ArrayBufferView }} [options] out: the array to write the output into (see claimOutput)
 * @returns {Tensor[]}
 */
export function runNode(opType, inputs, attributes, opset, options) {
  return [runNodeOutput(opType, inputs, attributes, opset, options)];
}

/** runNode's one output itself (the friendly functions': no array around it). */
export function runNodeOutput(opType, inputs, attributes, opset, options) {
  const out = options === undefined || options === null ? undefined : checkedOptions(opType, options, opset).out;
  const s = session();
  if (!s) throw new Error(`onnx-extrema: ${opText(opType)} (${versionText(opset)}) was called before init() resolved; await init() first`);
  if (s.busy) throw callWhileBusyError(opType, opset);
  // Read everything the caller gave before writing the request: getters (as ort.Tensor has) may
  // run any code, even another call, which is harmless until this call starts to write. From
  // then on the module's request, staging buffer and execution are this call's: code of the
  // caller's that still runs (a dims or list element read through a getter or a Proxy while the
  // request is written, a getter of option 'out') may not start another call, which would
  // overwrite them and could make this one answer wrong.
  const { inputCount, tensors, attrs, problem } = readArguments(inputs, attributes, s.writer.limits.inputs);
  s.busy = true;
  try {
    return runArguments(s, opType, opset, inputCount, tensors, attrs, problem, out);
  } finally {
    s.busy = false;
  }
}

// The version a call asks for, named without the core (before init(), or while it is busy) and
// without running the caller's code (no String() of an object).
function versionText(opset) {
  if (opset === undefined) return 'newest version';
  return typeof opset === 'number' || typeof opset === 'bigint' ? `opset ${opset}` : `opset ${describeValue(opset)}`;
}

function callWhileBusyError(opType, opset) {
  return new Error(
    `onnx-extrema: ${opText(opType)} (${versionText(opset)}) was called while another onnx-extrema call was running ` +
      `(from a getter or a Proxy of that call's dims, attributes or option 'out'); make it outside that call`,
  );
}

// runNodeOutput once the arguments are read (and the module is this call's).
function runArguments(s, opType, opset, inputCount, tensors, attrs, problem, out) {
  const { M, writer } = s;
  const header = writer.begin(heap(s).HEAPF64, opType, opset);
  if (problem) failWith(s, header, problem);
  if (out !== undefined) {
    const outIssue = outProblem(s, out, tensors);
    if (outIssue) failWith(s, header, outIssue);
  }

  writer.put(inputCount);
  for (let k = 0; k < tensors.length; k += 1) writer.tensor(tensors[k], k > 0);
  writer.put(attrs.length / 2);
  for (let a = 0; a < Math.min(attrs.length / 2, writer.limits.attrs); a += 1) {
    writer.name(attrs[2 * a]);
    writer.value(attrs[2 * a + 1]);
  }

  const input = tensors[0];
  // The request holds the data's length as read before (tensor.js: readTensorLike); a getter
  // reached while writing (dims, a list attribute) may have resized or detached its buffer since
  // (an empty array detached reads as empty still, but copying from it throws).
  if (input && (lengthOf(input.data) !== input.length || (input.length === 0 && isDetached(input.data))))
    failWith(s, header, `input 0's data changed size while the call read its arguments (its buffer was resized or detached)`);
  // Small or resident inputs make the whole call one crossing into wasm (bindings' run()).
  const at = inputAddress(s, input);
  const status = s.run(writer.count, at, at ? input.length : 0, s.staging, STAGING_BYTES);
  if (status === 1) {
    const message = M._lastError();
    M._finish();
    throw new Error(message);
  }
  if (status === 0) return withCallersOut(stagedOutput(s, header, input, response(s), out), out);
  try {
    return withCallersOut(compute(s, header, input, status === 3, out), out);
  } finally {
    M._finish();
  }
}

// The output written into the caller's `out` (through a view of its memory: claimOutput) has the
// caller's own array as its data.
function withCallersOut(tensor, out) {
  if (out !== undefined) tensor.data = out;
  return tensor;
}

/** Whether `attributes` is an object of attributes (not null, an Array or a Map). */
export const isAttributesObject = (attributes) =>
  attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) && !(attributes instanceof Map);

// readArguments' answer for a problem (made only then: the call path allocates nothing for it).
const argumentsProblem = (problem) => ({ inputCount: 0, tensors: [], attrs: [], problem });

// The count of inputs, the checked tensor-likes among the first `carried` (the request carries
// no more: a sparse Array may be 2^32 - 1 long, and reading every entry took 7 s for 10^8), and
// the defined attributes (name, value, name, value, ...); or the first problem.
function readArguments(inputs, attributes, carried) {
  if (!Array.isArray(inputs)) return argumentsProblem(`inputs must be an array of tensors, got ${describeValue(inputs)}`);
  const inputCount = inputs.length;
  const tensors = new Array(Math.min(inputCount, carried));
  for (let k = 0; k < tensors.length; k += 1) {
    const x = inputs[k];
    if (x === null || x === undefined) {
      tensors[k] = null;
      continue;
    }
    const read = readTensorLike(x);
    if (read.problem) return argumentsProblem(`input ${k} ${read.problem}`);
    tensors[k] = read;
  }
  if (attributes === undefined) return { inputCount, tensors, attrs: [] };
  if (!isAttributesObject(attributes)) return argumentsProblem(`attributes must be an object, got ${describeValue(attributes)}`);
  const attrs = [];
  for (const name in attributes) {
    if (!Object.hasOwn(attributes, name)) continue;
    const value = attributes[name]; // each read once, in key order
    if (value !== undefined) attrs.push(name, value);
  }
  return { inputCount, tensors, attrs };
}

// The heap view for arrays of class `cls` holding dtype `info` (a same-class set() is a plain
// memcpy, with no view to create per call), or undefined: the dtype's other class (Float16Array)
// has none and goes through a byte view. By the dtype's code (a Map lookup by class was a
// measured per-call cost, and a read by the view's name turns megamorphic once a process has
// used several types), and set() as %TypedArray%.prototype's own, so no call site sees many classes.
const heapViewFor = (views, cls, info) => (cls === info.array ? views.byCode[info.code] : undefined);
const typedArraySet = Object.getPrototypeOf(Uint8Array.prototype).set;
const typedArraySlice = Object.getPrototypeOf(Uint8Array.prototype).slice;

// Where the core can read the whole input at once: its own address when it already is in wasm
// memory, the staging buffer (copied there) when it fits, else 0: it is streamed after prepare.
function inputAddress(s, input) {
  if (!input) return 0;
  const { staging } = s;
  const data = input.data;
  const views = heap(s);
  // (the offset first: the buffer's getter is slower, and a heap view never starts at address 0)
  const offset = byteOffsetOf(data);
  if (offset !== 0 && bufferOf(data) === views.HEAPU8.buffer) return offset;
  if (input.length * input.info.bytes > STAGING_BYTES) return 0;
  const view = heapViewFor(views, input.cls, input.info);
  if (view) typedArraySet.call(view, data, staging / input.info.bytes);
  else views.HEAPU8.set(bytesOf(data), staging);
  return staging;
}

// How the input is copied into the staging buffer: through the heap view of its own class
// (`target(views)`), or as bytes (classes without one, e.g. Float16Array); unit = source entries
// per element. The source is a view of the data's memory of this module's making, whose
// subarray() runs no code of the caller's (a subclass's species).
function stagingSource(input) {
  return input.cls === input.info.array
    ? { target: (views) => views.byCode[input.info.code], source: plainView(input.data, input.cls), unit: 1 }
    : { target: (views) => views.HEAPU8, source: bytesOf(input.data), unit: input.info.bytes };
}

// Streams the input through the staging buffer: copy a chunk, reduce it while it is in cache.
// `drain` (windowed state) reads the outputs each chunk made final.
function feedInput(s, input, drain) {
  const { M, staging } = s;
  const data = input.data;
  const size = input.info.bytes;
  const n = input.length;
  const per = Math.floor(STAGING_BYTES / size); // elements per chunk
  if (bufferOf(data) === heap(s).HEAPU8.buffer) { // already in wasm memory: no copy; in chunks when windowed
    const step = drain ? per : n;
    const offset = byteOffsetOf(data);
    for (let at = 0; at < n; at += step) {
      check(M, M._feed(offset + at * size, Math.min(step, n - at)));
      if (drain) drain();
    }
    return;
  }
  const { target, source, unit } = stagingSource(input);
  for (let at = 0; at < n; at += per) {
    const take = Math.min(per, n - at);
    const view = target(heap(s));
    view.set(source.subarray(at * unit, (at + take) * unit), staging / view.BYTES_PER_ELEMENT);
    check(M, M._feed(staging, take));
    if (drain) drain();
  }
}

// A wide column plan (ArgMax over the channels of [1, 21, 512, 512]) streams as column tiles, so
// the running state of a tile's columns stays in cache while all its rows pass over it: for each
// outer slice, left to right, columns [c, c + width) of every reduced row are copied into the
// staging buffer packed row after row (reduce x w), then reduced. Where the rows of a tile do not
// all fit (150 classes), they go in parts of equal rows, each part a feed. The core picks the width
// (src/exec/execution.h: column_tile_width) and checks the order. `drain` as in feedInput.
function feedTiles(s, input, width, drain) {
  const { M, staging } = s;
  const words = heap(s).HEAPF64;
  const h = s.step;
  const outer = words[h], reduce = words[h + 1], inner = words[h + 2];
  const { target, source, unit } = stagingSource(input);
  const rowStep = inner * unit;
  const parts = Math.ceil(reduce / Math.floor(STAGING_BYTES / (width * input.info.bytes)));
  const partRows = Math.ceil(reduce / parts);
  for (let o = 0; o < outer; o += 1) {
    for (let c = 0; c < inner; c += width) {
      const w = Math.min(width, inner - c);
      const length = w * unit;
      for (let r0 = 0; r0 < reduce; r0 += partRows) {
        const rows = Math.min(partRows, reduce - r0);
        const view = target(heap(s));
        let from = ((o * reduce + r0) * inner + c) * unit;
        for (let r = 0, to = staging / view.BYTES_PER_ELEMENT; r < rows; r += 1, from += rowStep, to += length)
          view.set(source.subarray(from, from + length), to);
        check(M, M._feedTile(staging, o, c, w, r0, rows));
      }
      if (drain) drain();
    }
  }
}

// A windowed plan with prefix axes (ReduceMax over axes [0, 2] of [2, N, 2]) folds several blocks
// of the input into the same outputs: the core asks for its input gathered, a window of outputs
// at a time (src/exec/execution.h: GatherWindow). Each feed packs, from every block (at the input
// offsets the core listed), `runs` runs of `length` elements `stride` apart, block after block.
function feedGathered(s, input, blocks, drain) {
  const { M, staging } = s;
  const g = s.gather;
  const { target, source, unit } = stagingSource(input);
  const offsets = heap(s).HEAPF64[g + 1] / 8;
  for (let fed = 0, total = input.length; fed < total; ) {
    const words = heap(s).HEAPF64;
    const offset = words[g + 2], runs = words[g + 3], length = words[g + 4], stride = words[g + 5];
    if (!(runs > 0 && length > 0)) throw new Error('onnx-extrema: an empty gathered window (internal error)'); // never loop in place
    const view = target(heap(s));
    const size = length * unit;
    let to = staging / view.BYTES_PER_ELEMENT;
    for (let b = 0; b < blocks; b += 1) {
      for (let r = 0, from = (words[offsets + b] + offset) * unit; r < runs; r += 1, from += stride * unit, to += size)
        view.set(source.subarray(from, from + size), to);
    }
    check(M, M._feedGathered(staging));
    fed += blocks * runs * length;
    if (drain) drain();
  }
}

// Streams the input gathered or as column tiles where the core asks for that, else in row-major
// chunks.
function streamInput(s, input, drain) {
  const words = heap(s).HEAPF64;
  const tileWidth = words[s.tileWidth];
  const blocks = words[s.gather];
  if (blocks > 0) feedGathered(s, input, blocks, drain);
  else if (tileWidth > 0) feedTiles(s, input, tileWidth, drain);
  else feedInput(s, input, drain);
}

// What prepare() wrote about the output.
function response(s) {
  const words = heap(s).HEAPF64;
  const r = s.response;
  const rank = words[r + 3];
  const dims = new Array(rank);
  for (let d = 0; d < rank; d += 1) dims[d] = words[r + 4 + d];
  const info = DTYPE_BY_CODE[words[r + 1]];
  return { identity: words[r] === 1, type: info.name, info, count: words[r + 2], dims };
}

// A Tensor of values this module produced: the constructor's checks would only re-prove them.
// (A constructor sharing Tensor's prototype: cheaper than Object.create and three stores.)
function ProducedTensor(type, data, dims) {
  this.type = type;
  this.data = data;
  this.dims = dims;
}
ProducedTensor.prototype = Tensor.prototype;
const resultTensor = (type, data, dims) => new ProducedTensor(type, data, dims);

// The output's class: the input's when the dtype is the same (a Float16Array stays one).
const outputClass = (input, r) => (r.type === input.type ? input.cls : r.info.array);

// Node's Buffer.allocUnsafeSlow: an ArrayBuffer of its own, not zeroed. For an output the caller
// then overwrites whole, the zero fill is pure cost: [1,2,512,512]'s 2 MiB of int64 indices,
// allocated and copied out, 300 -> 230 us on this VM. Browsers have no Buffer: the plain constructor.
const allocUninitialized = typeof globalThis.Buffer?.allocUnsafeSlow === 'function' ? (bytes) => globalThis.Buffer.allocUnsafeSlow(bytes).buffer : null;

// A new output array; `overwritten`: the caller writes every element before anyone reads it (so
// it may start uninitialized), else it starts zeroed.
function newOutput(s, header, OutClass, info, count, overwritten = false) {
  if (overwritten && allocUninitialized && count > 0 && OutClass === info.array) {
    try {
      const buffer = allocUninitialized(count * OutClass.BYTES_PER_ELEMENT);
      if (buffer.byteLength === count * OutClass.BYTES_PER_ELEMENT) return new OutClass(buffer);
    } catch {
      // too large for a Buffer: the typed-array constructor decides below
    }
  }
  try {
    return new OutClass(count);
  } catch (cause) {
    failWith(s, header, `the output (${count} elements of ${info.name}) does not fit in memory: ${cause.message}`);
  }
}

// The caller's output array (the option `out`), what can be checked before the call: a typed
// array outside the module's memory (which moves when it grows) that shares no byte with an input
// (a windowed plan writes outputs while it still reads the input). Its class and length are
// checked once prepare() has said what the output is (claimOutput). A problem text, or undefined.
// (The views' getters cost 20-25 ns each: .buffer is read once, the byte ranges only for an input
// in the same buffer.)
function outProblem(s, out, tensors) {
  if (typedArrayKind(out) === undefined)
    return `option 'out' must be a typed array to write the output into, got ${describeValue(out)}`;
  if (isDetached(out)) return `option 'out' is ${detachedText(out)}`;
  const buffer = bufferOf(out);
  if (buffer === heap(s).buffer)
    return "option 'out' is a view of onnx-extrema's own wasm memory, which moves when it grows; give an array of your own";
  for (let k = 0; k < tensors.length; k += 1) {
    const data = tensors[k]?.data;
    if (!data || bufferOf(data) !== buffer) continue;
    const start = byteOffsetOf(out), end = start + byteLengthOf(out);
    const dataStart = byteOffsetOf(data), dataEnd = dataStart + byteLengthOf(data);
    if (start < end && dataStart < dataEnd && start < dataEnd && dataStart < end)
      return `option 'out' shares memory with input ${k}; the output must go to memory of its own`;
  }
  return undefined;
}

// The caller's `out` (a typed array: outProblem) as the output array, once its class (one the
// output's type takes: a float16 output takes a Uint16Array or a Float16Array) and length are
// right: a view of its memory of this module's making, so that no property or method of the
// caller's object (a subclass's, an own getter) runs inside a call; runNode returns `out` itself.
function claimOutput(s, header, out, r) {
  const { info, count } = r;
  const cls = dataClass(info, out);
  const length = lengthOf(out);
  if (length === 0 && isDetached(out)) failWith(s, header, `option 'out' is ${detachedText(out)}`); // (by a getter since outProblem)
  if (!cls || length !== count) {
    const expected = `${expectedClassText(info)} of ${count} element${count === 1 ? '' : 's'}`;
    const got = `${describeValue(out)} of ${length} element${length === 1 ? '' : 's'}`;
    failWith(s, header, `option 'out' must be ${expected} (the output's ${info.name} data, dims ${JSON.stringify(r.dims)}), got ${got}`);
  }
  return plainView(out, cls);
}

// The output array: the caller's `out` when given (zero-filled unless `overwritten`), else a new one.
function outputArray(s, header, out, OutClass, r, overwritten = false) {
  if (out === undefined) return newOutput(s, header, OutClass, r.info, r.count, overwritten);
  const claimed = claimOutput(s, header, out, r);
  if (!overwritten) claimed.fill(0); // Hardmax outputs: only the floating types, 0 is +0 bits
  return claimed;
}

// A few int64 indices (ArgMax/ArgMin) are copied out by a loop, cheaper than slice() or a view
// and set(); any other class is not: a loop's element accesses went megamorphic once a process
// had used several classes (after calls of eight types, [1,10] ArgMax 0.52 -> 0.43 us, float16
// [1,32000] 1.76 -> 1.60; level in a process of one type).
const SMALL_OUTPUT = 8;
const copiesByLoop = (info, count) => count <= SMALL_OUTPUT && info.array === BigInt64Array;

// The whole output, already in the staging buffer; into `out` when the caller gave one.
function stagedOutput(s, header, input, r, given) {
  const { staging } = s;
  if (given !== undefined) {
    const out = claimOutput(s, header, given, r);
    copyOut(s, out, r.info, 0, r.count);
    return resultTensor(r.type, out, r.dims);
  }
  const OutClass = outputClass(input, r);
  const view = heapViewFor(heap(s), OutClass, r.info);
  if (view) {
    const at = staging / r.info.bytes;
    if (!copiesByLoop(r.info, r.count)) return resultTensor(r.type, typedArraySlice.call(view, at, at + r.count), r.dims);
    const out = new BigInt64Array(r.count);
    for (let k = 0; k < r.count; k += 1) out[k] = view[at + k];
    return resultTensor(r.type, out, r.dims);
  }
  const out = newOutput(s, header, OutClass, r.info, r.count);
  copyOut(s, out, r.info, 0, r.count);
  return resultTensor(r.type, out, r.dims);
}

// Hardmax's one-hot output built in JS: a zeroed array and a 1 at each winner (the int32 indices
// the kernel left in wasm memory). Faster than writing the one-hot in C++ and copying it out
// wherever the winners are sparse (16 MiB: 34 vs 117 ms; 64x1000: 222 vs 696 us, on an early
// host); where they are dense (a winner per 64 bytes or fewer) the core writes the one-hot, and
// the response gives no winners address, so this runs only for the sparse ones.
function hardmaxOutput(s, header, given, OutClass, r, winners) {
  const out = outputArray(s, header, given, OutClass, r);
  const words = heap(s).HEAPF64;
  if (r.count > 0) markWinners(s, out, r, winners, 0, words[s.step] * words[s.step + 2], 0);
  return out;
}

// Sets the 1s of states [first, end) (each an (outer, inner) pair) in Hardmax's zeroed output;
// the winner of state k is in wasm memory at `winners`, slot k - windowFirst.
function markWinners(s, out, r, winners, first, end, windowFirst) {
  const views = heap(s);
  const words = views.HEAPF64;
  const h = s.step;
  const span = words[h + 1] * words[h + 2], inner = words[h + 2];
  // 1 in the output's representation: float16/bfloat16 bits in a Uint16Array; a Float16Array
  // takes the number 1 and stores 0x3C00.
  const one = out instanceof Uint16Array ? (r.type === 'float16' ? s.float16One : s.bfloat16One) : 1;
  const index = views.HEAP32;
  // State k is (o, i) = (k / inner, k % inner): its 1 is at o * span + winner * inner + i. One
  // flat loop stepping (base, i), with no per-row bookkeeping: rows of one state each (the axis
  // innermost, [1,512,512,21]) cost as little as wide ones.
  let w = winners / 4 + first - windowFirst;
  let i = first % inner;
  for (let base = ((first - i) / inner) * span, stop = w + (end - first); w < stop; w += 1) {
    out[base + index[w] * inner + i] = one;
    if (++i === inner) (i = 0), (base += span);
  }
}

// Output elements [begin, end) read from the core into `out`, through the staging buffer in parts.
function readOutput(s, out, info, begin, end) {
  const { M, staging } = s;
  const per = Math.floor(STAGING_BYTES / info.bytes); // output elements per part
  for (let at = begin; at < end; at += per) {
    const n = Math.min(per, end - at);
    check(M, M._writeOutput(staging, at, n));
    copyOut(s, out, info, at, n);
  }
}

// n output elements from the staging buffer into out[at, at + n): through the heap view of out's
// class, or as bytes (a Float16Array).
function copyOut(s, out, info, at, n) {
  const own = heapViewFor(heap(s), out.constructor, info);
  const unit = own ? 1 : info.bytes; // target entries per element
  const view = own ?? heap(s).HEAPU8;
  const from = s.staging / view.BYTES_PER_ELEMENT;
  if (own && copiesByLoop(info, n)) {
    for (let k = 0; k < n; k += 1) out[at + k] = view[from + k];
    return;
  }
  (own ? out : bytesOf(out)).set(view.subarray(from, from + n * unit), at * unit);
}

// The call after prepare (and after the whole input was fed, when `fed`): streams the input if
// needed, then reads the output.
function compute(s, header, input, fed, given) {
  const { M, staging } = s;
  const r = response(s);
  const data = input.data;
  if (r.identity) {
    if (given === undefined) return resultTensor(r.type, plainView(data, input.cls).slice(), r.dims); // a copy, same class
    const out = claimOutput(s, header, given, r);
    bytesOf(out).set(bytesOf(data));
    return resultTensor(r.type, out, r.dims);
  }
  const OutClass = outputClass(input, r);
  const winners = heap(s).HEAPF64[s.step + 3];
  if (heap(s).HEAPF64[s.window] === 1) return resultTensor(r.type, windowed(s, header, input, given, OutClass, r, winners), r.dims);
  if (!fed) streamInput(s, input);

  if (winners) return resultTensor(r.type, hardmaxOutput(s, header, given, OutClass, r, winners), r.dims);
  const per = Math.floor(STAGING_BYTES / r.info.bytes);
  if (r.count <= per) {
    if (r.count > 0) check(M, M._writeOutput(staging, 0, r.count));
    return stagedOutput(s, header, input, r, given);
  }
  const out = outputArray(s, header, given, OutClass, r, true);
  readOutput(s, out, r.info, 0, r.count);
  return resultTensor(r.type, out, r.dims);
}

// A plan whose state is windowed (a large output: ArgMax over axis 0 of [2, 16M]): the core holds
// the state of a few outputs only, so the outputs each feed made final are read before the next.
function windowed(s, header, input, given, OutClass, r, winners) {
  const out = outputArray(s, header, given, OutClass, r, !winners); // Hardmax's starts zeroed
  let read = 0; // states read so far
  const drain = () => {
    const words = heap(s).HEAPF64;
    const final = words[s.window + 1];
    if (final === read) return;
    if (winners) markWinners(s, out, r, winners, read, final, words[s.window + 2]);
    else readOutput(s, out, r.info, read, final);
    read = final;
  };
  streamInput(s, input, drain);
  return out;
}

/** Whether ReduceMax at this opset takes axes as an input (version 18 on). */
export function reduceAxesIsInput(opset) {
  const s = session();
  if (!s) return true; // runNode reports the missing init()
  const value = typeof opset === 'number' ? opset : typeof opset === 'bigint' ? Number(opset) : NaN;
  return s.M._axesIsInput(opset === undefined ? 0 : 1, value) === 1;
}
