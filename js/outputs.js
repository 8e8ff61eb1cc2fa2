// The output out of wasm memory: what the core said it is (response), into a new array or the
// caller's own (`out`, claimed once its class and length are known), copied from the staging
// buffer, and Hardmax's one-hot marked from the winners' indices.
import {
  DTYPE_BY_CODE, bufferOf, byteLengthOf, byteOffsetOf, bytesOf, dataClass, describeValue, isDetached, isSharedBuffer, lengthOf, plainView, sameSharedBytes,
  typedArrayKind,
} from './dtypes.js';
import { STAGING_BYTES, check, failWith, heap, heapViewFor, knownInHeap, typedArraySet, typedArraySlice } from './session.js';
import { Tensor, detachedText, expectedClassText } from './tensor.js';

const INT32_MAX = 0x7fffffff;

// What prepare() wrote about the output. Its rank, dtype code and count as int32s where they fit:
// a word read from HEAPF64 is a double, which JavaScriptCore's JIT keeps one, and new Array(a
// double) and a read at a double index made this function about 4x as slow in WebKit (300
// against 77 ns; Firefox 151 against 96, Node 68 against 56); a typed array of a double length
// is made 3.5x as slowly in WebKit (64 against 18 ns) and 2.8x in Firefox.
export function response(s) {
  const words = heap(s).HEAPF64;
  const r = s.response;
  const rank = words[r + 3] | 0;
  const dims = new Array(rank);
  for (let d = 0; d < rank; d += 1) dims[d] = words[r + 4 + d];
  const info = DTYPE_BY_CODE[words[r + 1] | 0];
  const count = words[r + 2];
  return { identity: words[r] === 1, type: info.name, info, count: count <= INT32_MAX ? count | 0 : count, dims };
}

// A Tensor of values this module produced: the constructor's checks would only re-prove them.
// (A constructor sharing Tensor's prototype: cheaper than Object.create and three stores.)
function ProducedTensor(type, data, dims) {
  this.type = type;
  this.data = data;
  this.dims = dims;
}
ProducedTensor.prototype = Tensor.prototype;
export const resultTensor = (type, data, dims) => new ProducedTensor(type, data, dims);

// The output's class: the input's when the dtype is the same (a Float16Array stays one).
export const outputClass = (input, r) => (r.type === input.type ? input.cls : r.info.array);

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
export function outProblem(s, out, tensors) {
  if (typedArrayKind(out) === undefined)
    return `option 'out' must be a typed array to write the output into, got ${describeValue(out)}`;
  if (isDetached(out)) return `option 'out' is ${detachedText(out)}`;
  const buffer = bufferOf(out);
  if (buffer === heap(s).buffer)
    return "option 'out' is a view of onnx-extrema's own wasm memory, which moves when it grows; give an array of your own";
  let outShared; // whether out's buffer is a SharedArrayBuffer, asked once an input is in another buffer
  for (let k = 0; k < tensors.length; k += 1) {
    const data = tensors[k]?.data;
    // (a resident input, known to view the heap's ArrayBuffer, which out does not: no byte shared)
    if (!data || knownInHeap(s, data)) continue;
    const dataBuffer = bufferOf(data);
    if (dataBuffer !== buffer && !((outShared ??= isSharedBuffer(buffer)) && isSharedBuffer(dataBuffer))) continue;
    const start = byteOffsetOf(out), end = start + byteLengthOf(out);
    const dataStart = byteOffsetOf(data), dataEnd = dataStart + byteLengthOf(data);
    if (!(start < end && dataStart < dataEnd && start < dataEnd && dataStart < end)) continue;
    // Two SharedArrayBuffers may be one memory: then the bytes both views cover are the same.
    if (dataBuffer === buffer || sameSharedBytes(buffer, dataBuffer, Math.max(start, dataStart)))
      return `option 'out' shares memory with input ${k}; the output must go to memory of its own`;
  }
  return undefined;
}

// The class the caller's `out` (a typed array: outProblem) is written as, once that class (one the
// output's type takes: a float16 output takes a Uint16Array or a Float16Array) and its length are
// right. Its length is read again: a getter that ran since outProblem may have resized or detached it.
function claimedClass(s, header, out, r) {
  const { info, count } = r;
  const cls = dataClass(info, out);
  const length = lengthOf(out);
  if (length === 0 && isDetached(out)) failWith(s, header, `option 'out' is ${detachedText(out)}`);
  if (!cls || length !== count) {
    const expected = `${expectedClassText(info)} of ${count} element${count === 1 ? '' : 's'}`;
    const got = `${describeValue(out)} of ${length} element${length === 1 ? '' : 's'}`;
    failWith(s, header, `option 'out' must be ${expected} (the output's ${info.name} data, dims ${JSON.stringify(r.dims)}), got ${got}`);
  }
  return cls;
}

// The caller's `out` as the output array (claimedClass): a view of its memory of this module's
// making, so that no property or method of the caller's object (a subclass's, an own getter) runs
// inside a call, and the long loops over it (Hardmax's winners, reads in parts) store into a base
// class; runNode returns `out` itself. The one-crossing path (stagedOutput) skips the view: one
// copy of a few elements, where making it cost more than the copy.
export const claimOutput = (s, header, out, r) => plainView(out, claimedClass(s, header, out, r));

// The output array: the caller's `out` when given (zero-filled unless `overwritten`), else a new one.
export function outputArray(s, header, out, OutClass, r, overwritten = false) {
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
export function stagedOutput(s, header, input, r, given) {
  const { staging } = s;
  if (given !== undefined) {
    // No view (claimOutput): copyOut touches `given` through intrinsics only.
    copyOut(s, given, claimedClass(s, header, given, r), r.info, 0, r.count);
    return resultTensor(r.type, given, r.dims);
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
  copyOut(s, out, OutClass, r.info, 0, r.count);
  return resultTensor(r.type, out, r.dims);
}

// Hardmax's one-hot output built in JS: a zeroed array and a 1 at each winner (the int32 indices
// the kernel left in wasm memory). Faster than writing the one-hot in C++ and copying it out
// wherever the winners are sparse (16 MiB: 34 vs 117 ms; 64x1000: 222 vs 696 us, on an early
// host); where they are dense (a winner per 64 bytes or fewer) the core writes the one-hot, and
// the response gives no winners address, so this runs only for the sparse ones.
export function hardmaxOutput(s, header, given, OutClass, r, winners) {
  const out = outputArray(s, header, given, OutClass, r);
  const words = heap(s).HEAPF64;
  if (r.count > 0) markWinners(s, out, r, winners, 0, words[s.step] * words[s.step + 2], 0);
  return out;
}

// Sets the 1s of states [first, end) (each an (outer, inner) pair) in Hardmax's zeroed output;
// the winner of state k is in wasm memory at `winners`, slot k - windowFirst.
export function markWinners(s, out, r, winners, first, end, windowFirst) {
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
export function readOutput(s, out, info, begin, end) {
  const { M, staging } = s;
  const per = Math.floor(STAGING_BYTES / info.bytes); // output elements per part
  for (let at = begin; at < end; at += per) {
    const n = Math.min(per, end - at);
    check(M, M._writeOutput(staging, at, n));
    copyOut(s, out, out.constructor, info, at, n); // out: a new array or claimOutput's view
  }
}

// n output elements from the staging buffer into out[at, at + n): through the heap view of `cls`
// (out's class or the base class of it), or as bytes (a Float16Array). Only intrinsics touch out
// (element stores and %TypedArray%.prototype.set), so a caller's out may be written as it is.
function copyOut(s, out, cls, info, at, n) {
  const own = heapViewFor(heap(s), cls, info);
  const unit = own ? 1 : info.bytes; // target entries per element
  const view = own ?? heap(s).HEAPU8;
  const from = s.staging / view.BYTES_PER_ELEMENT;
  if (own && copiesByLoop(info, n)) {
    for (let k = 0; k < n; k += 1) out[at + k] = view[from + k];
    return;
  }
  typedArraySet.call(own ? out : bytesOf(out), stagedPart(s, view, from, n * unit), at * unit);
}

// view[from, from + length) as an array of its own, the last one made kept: calls of one shape
// (a frame loop into its { out }) copy the same part each time. (Making it cost about 0.1 us of a
// [1,10] ReduceMax into { out }.) `from` is the staging buffer's place in `view`, so the view and
// the length name the part; a view is the heap's until the memory grows (heap(): new views).
function stagedPart(s, view, from, length) {
  const last = s.stagedPart;
  if (last !== undefined && last.view === view && last.length === length) return last.part;
  const part = view.subarray(from, from + length);
  s.stagedPart = { view, length, part };
  return part;
}
