// wasmTensor(type, dims): a Tensor whose data lives in the module's own WebAssembly memory. An
// operator given one reads it where it is (feed.js: inputAddress), without the copy in that any
// JS array costs, which for the large ReduceMax cases is most of the call (docs/speed.md: the copy
// floor). The caller fills `data`, calls, and frees it with dispose().
import { DTYPES, bufferIsDetached, describeValue, dtypeOf, isList, lengthOf } from './dtypes.js';
import { currentModule, moduleInteger } from './module.js';
import { session } from './session.js';
import { Tensor, disposedWasmTensors, shapeOf, wasmTensorFrees } from './tensor.js';

// A block of `bytes` in the module's memory: its address, 0 if none. emmalloc meets a request no
// free block holds by growing the memory for the whole of it, even where a free block at the top
// could be extended; its malloc_trim gives that block back to the break (bindings/sbrk_shrink.cc:
// the memory stays, as wasm memory never shrinks), so the growth starts there. dispose() trims, and
// a request that fails trims and asks once more (for a block the core freed at the top).
function allocate(M, bytes) {
  // (>>> 0: the raw export returns an i32, so a block at or above 2 GiB comes back negative)
  const block = M._malloc(bytes) >>> 0;
  if (block || !M._ox_malloc_trim()) return block;
  return M._malloc(bytes) >>> 0;
}

const mebibytes = (bytes) => Math.round(bytes / 2 ** 20);

// Not the caller's to construct: wasmTensor() makes them. Its prototype joins Tensor's below, so
// `instanceof Tensor` holds and `size` is Tensor's, while `data` is a getter here, not a field.
class WasmTensor {
  #M;
  #block; // the allocation, freed by dispose(); 0 once freed
  #address; // data's first byte: #block rounded up to a cache line
  #length;
  #cls; // the type's typed array class
  #view; // the last view made of the memory: memory growth detaches it (its length reads 0)

  constructor(M, type, info, shape, length) {
    const line = moduleInteger(M, 'CACHE_LINE_BYTES'); // the data starts on a line, as a staged input does (session.js)
    const bytes = length * info.bytes;
    const block = bytes + line <= 0xffffffff ? allocate(M, bytes + line) : 0;
    if (!block)
      throw new Error(`onnx-extrema: wasmTensor('${type}', ${JSON.stringify(shape)}): cannot allocate ${bytes} bytes in the module's wasm memory (its memory is ${mebibytes(M.HEAPU8.length)} MiB of at most 4096; its free blocks and the growth left cannot hold that)`);
    this.#M = M;
    this.#block = block;
    this.#address = Math.ceil(block / line) * line;
    this.#length = length;
    this.#cls = info.array;
    this.#view = new info.array(M.HEAPU8.buffer, this.#address, length);
    this.type = type;
    this.dims = shape;
  }

  /**
   * The data, a view of the module's memory. Memory growth (a call, or another wasmTensor, may
   * grow it) detaches earlier views, so read `data` again rather than keep one across calls.
   */
  get data() {
    const view = this.#view;
    if (this.#block !== 0 && lengthOf(view) === this.#length && (this.#length !== 0 || !bufferIsDetached(view))) return view;
    if (this.#block === 0) throw disposedError();
    return (this.#view = new this.#cls(this.#M.HEAPU8.buffer, this.#address, this.#length));
  }

  /** Whether dispose() has freed the data's memory. */
  get disposed() {
    return this.#block === 0;
  }

  /**
   * Frees the data's memory: `data` throws after, and an operator given this tensor says it was
   * disposed. Views of the data kept from before (and tensors made of them) still reach the freed
   * bytes, which the module reuses: they must not be used after. A second dispose() does nothing.
   */
  dispose() {
    if (this.#block === 0) return;
    if (session()?.busy) throw new Error('onnx-extrema: a wasmTensor was disposed while an onnx-extrema call was running (from a getter or a Proxy of its arguments); dispose it after the call');
    this.#M._free(this.#block);
    this.#M._ox_malloc_trim(); // (allocate)
    this.#block = 0;
    this.#view = null;
    disposedWasmTensors.add(this); // (tensor.js: readTensorLike names it)
    wasmTensorFrees.count += 1; // (engine.js: a call whose getters freed one stops before reading it)
  }
}
Object.setPrototypeOf(WasmTensor.prototype, Tensor.prototype);
Object.defineProperty(WasmTensor, 'name', { value: 'WasmTensor' });

const disposedError = () => new Error('onnx-extrema: this wasmTensor was disposed; its memory is freed');

/**
 * A tensor of `type` and `dims` whose data is allocated in the module's wasm memory, zeroed (float16
 * and bfloat16 as their bits, in a Uint16Array). Operators read it in place. Free it with dispose().
 */
export function wasmTensor(type, dims) {
  const M = currentModule();
  if (!M) throw new Error('onnx-extrema: wasmTensor() was called before init() resolved; await init() first');
  const info = dtypeOf(type);
  if (!info) {
    const given = typeof type === 'string' ? `type '${type}' is` : `the type is ${describeValue(type)},`;
    throw new Error(`onnx-extrema: wasmTensor(): ${given} not a tensor type (${Object.keys(DTYPES).join(', ')})`);
  }
  if (dims === undefined) throw new Error('onnx-extrema: wasmTensor(): dims are required (an array of non-negative integers)');
  if (!isList(dims)) throw new Error(`onnx-extrema: wasmTensor(): dims is ${describeValue(dims)}; dims must be an array of non-negative integers`);
  if (session()?.busy) throw new Error('onnx-extrema: wasmTensor() was called while an onnx-extrema call was running (from a getter or a Proxy of its arguments); make it outside that call');
  const checked = shapeOf(dims, 'onnx-extrema: wasmTensor()');
  const tensor = new WasmTensor(M, type, info, checked.shape, checked.size);
  tensor.data.fill(info.array === BigInt64Array || info.array === BigUint64Array ? 0n : 0); // freed memory holds old bytes
  return tensor;
}
