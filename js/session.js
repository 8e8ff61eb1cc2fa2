// The loaded module's session (what every call needs from it, read once), its heap views, and
// the errors a call throws with the core's label for its operator and version.
import { PLACEMENT_SLACK_BYTES, chunkClock } from './chunk-placement.js';
import { DTYPE_BY_CODE, bufferOf, describeValue } from './dtypes.js';
import { currentModule, moduleInteger } from './module.js';
import { RequestWriter } from './wire.js';

export const STAGING_BYTES = 256 * 1024; // (the tests read it here too)
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
  // (Streamed chunks go up to PLACEMENT_SLACK_BYTES past it: chunk-placement.js.)
  const blockBytes = STAGING_BYTES + PAGE_BYTES + PLACEMENT_SLACK_BYTES;
  const block = M._malloc(blockBytes);
  if (!block) throw new Error('onnx-extrema: cannot allocate the staging buffer');
  const staging = Math.ceil((block - PAGE_BYTES / 2) / PAGE_BYTES) * PAGE_BYTES + PAGE_BYTES / 2;
  return {
    M,
    run: M._run,
    writer: new RequestWriter(M),
    staging,
    stagingBlock: { address: block >>> 0, bytes: blockBytes }, // (the tests check the slack)
    chunkClock: chunkClock(),
    views: heapViews(M),
    response: responseWord(M, 0),
    step: responseWord(M, moduleInteger(M, 'HARDMAX_WORDS')), // outer, reduce, inner, Hardmax winners
    tileWidth: responseWord(M, moduleInteger(M, 'TILE_WIDTH_WORD')), // then the rows of each part of a tile
    window: responseWord(M, moduleInteger(M, 'WINDOW_WORD')), // windowed?, then final states, window's first state
    gather: responseWord(M, moduleInteger(M, 'GATHER_WORD')), // blocks (0: not gathered), offsets, next window
    busy: false, // a call is writing its request or running (runNodeOutput)
    stagedPart: undefined, // the last part of the staging buffer copied out (outputs.js: stagedPart)
    heapView: null, // the last view found to lie in the heap (inHeap); heap() forgets it when the memory grows
    attributeNames: M._attributeNames().split(','), // every operator's, the core's list (readArguments)
    float16One: moduleInteger(M, 'FLOAT16_ONE'),
    bfloat16One: moduleInteger(M, 'BFLOAT16_ONE'),
  };
}

// The index in HEAPF64 of the response's word `word`, an int32 as the module's constants are (module.js).
const responseWord = (M, word) => ((M._responseAddress() / 8) | 0) + word;

export function session() {
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
export function heap(s) {
  if (s.views.HEAPU8.length === 0) {
    s.views = heapViews(s.M);
    s.heapView = null; // (a view of the memory before it grew)
  }
  return s.views;
}

/**
 * Whether typed array `data` views the module's own memory (a wasmTensor's data, read in place).
 * The last such view is kept until the memory grows (heap()): a typed array's buffer never
 * changes, so a call repeating it (a model's resident input, call after call) reads no `buffer`
 * getter, a C++ builtin of about 10 ns, twice a call (feed.js: inputAddress; outputs.js:
 * outProblem). A view of the heap only: keeping it holds no memory of the caller's.
 */
export function inHeap(s, data) {
  if (knownInHeap(s, data)) return true;
  if (bufferOf(data) !== s.views.buffer) return false; // (s.views: heap() ran in knownInHeap)
  s.heapView = data;
  return true;
}

/** Whether `data` is the last view inHeap found in the heap, of the memory as it is now. */
export const knownInHeap = (s, data) => (heap(s), data === s.heapView);

export function opText(opType) {
  return typeof opType === 'string' ? opType : describeValue(opType);
}

// Errors whose text the core wrote (its label; a ReduceMax node's list of attributes): reduceMax()
// amends only these (ops.js), never an error thrown by the caller's code inside a call.
const coreErrors = new WeakSet();
export function coreError(message) {
  const error = new Error(message);
  coreErrors.add(error);
  return error;
}
export const isCoreError = (error) => coreErrors.has(error);

// Throws `problem` prefixed with the operator and version the core resolves for the header
// already written (or the header's own problem: an unknown operator, a bad opset).
export function failWith(s, header, problem) {
  const { M, writer } = s;
  writer.rewind(header);
  writer.put(0); // no inputs
  writer.put(0); // no attributes
  const ok = M._nodeLabel(writer.count) === 0;
  throw coreError(writer.exactText(ok ? `${M._lastError()}: ${problem}` : M._lastError()));
}

export function check(M, status) {
  if (status !== 0) throw coreError(M._lastError());
}

// The heap view for arrays of class `cls` holding dtype `info` (a same-class set() is a plain
// memcpy, with no view to create per call), or undefined: the dtype's other class (Float16Array)
// has none and goes through a byte view. By the dtype's code (a Map lookup by class was a
// measured per-call cost, and a read by the view's name turns megamorphic once a process has
// used several types), and set() as %TypedArray%.prototype's own, so no call site sees many classes.
export const heapViewFor = (views, cls, info) => (cls === info.array ? views.byCode[info.code] : undefined);
export const typedArraySet = Object.getPrototypeOf(Uint8Array.prototype).set;
export const typedArraySlice = Object.getPrototypeOf(Uint8Array.prototype).slice;
