// runNode: the one call path of every operator. Validates the tensor-likes' form, writes the
// request, lets the core resolve it, streams the input through a small staging buffer (each chunk
// reduced while in cache; the heap never holds the whole tensor), and copies the output out.
import { DTYPES, DTYPE_NAME_BY_CODE, describeValue } from './dtypes.js';
import { currentModule } from './module.js';
import { Tensor, readTensorLike } from './tensor.js';
import { RequestWriter } from './wire.js';

const STAGING_BYTES = 256 * 1024;

let state = null; // { M, writer, staging } for the loaded module

function session() {
  const M = currentModule();
  if (!M) return null;
  if (!state || state.M !== M) {
    const staging = M._malloc(STAGING_BYTES);
    if (!staging) throw new Error('onnx-extrema: cannot allocate the staging buffer');
    state = { M, writer: new RequestWriter(M), staging };
  }
  return state;
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
  if (!s) return new Error(`onnx-extrema: ${opText(opType)}: ${problem}`);
  try {
    failWith(s, s.writer.begin(opType, opset), problem);
  } catch (error) {
    return error;
  }
  return new Error(problem); // not reached: failWith always throws
}

function check(M, status) {
  if (status !== 0) throw new Error(M._lastError());
}

/**
 * Runs one ONNX node, exactly as a model would call it.
 * @param {string} opType 'ArgMax' | 'ArgMin' | 'ReduceMax' | 'Hardmax'
 * @param {Array<{type, data, dims}|null>} inputs
 * @param {object} [attributes] ONNX attribute names and values
 * @param {number} [opset] the model's opset; default the newest version
 * @returns {Tensor[]}
 */
export function runNode(opType, inputs, attributes, opset) {
  const s = session();
  if (!s) {
    const at = opset === undefined ? 'newest version' : `opset ${String(opset)}`;
    throw new Error(`onnx-extrema: ${opText(opType)} (${at}) was called before init() resolved; await init() first`);
  }
  const { M, writer } = s;
  // Read everything the caller gave before writing the request: getters (as ort.Tensor has) may
  // run any code, even another call, which would overwrite a half-written request.
  const { tensors, attrs, problem } = readArguments(inputs, attributes);
  const header = writer.begin(opType, opset);
  if (problem) failWith(s, header, problem);

  writer.put(tensors.length);
  for (let k = 0; k < Math.min(tensors.length, writer.limits.inputs); k += 1) writer.tensor(tensors[k], k > 0);
  writer.put(attrs.length);
  for (let a = 0; a < Math.min(attrs.length, writer.limits.attrs); a += 1) {
    writer.name(attrs[a][0]);
    writer.value(attrs[a][1]);
  }

  check(M, M._prepare(writer.count));
  try {
    return [compute(s, header, tensors[0])];
  } finally {
    M._finish();
  }
}

// The checked tensor-likes and the defined [name, value] attributes, or the first problem.
function readArguments(inputs, attributes) {
  const none = { tensors: [], attrs: [] };
  if (!Array.isArray(inputs)) return { ...none, problem: `inputs must be an array of tensors, got ${describeValue(inputs)}` };
  const tensors = [];
  for (let k = 0; k < inputs.length; k += 1) {
    const x = inputs[k];
    if (x === null || x === undefined) {
      tensors.push(null);
      continue;
    }
    const read = readTensorLike(x);
    if (read.problem) return { ...none, problem: `input ${k} ${read.problem}` };
    tensors.push(read);
  }
  if (attributes === undefined) return { tensors, attrs: [] };
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes))
    return { ...none, problem: `attributes must be an object, got ${describeValue(attributes)}` };
  const attrs = Object.keys(attributes)
    .map((name) => [name, attributes[name]])
    .filter(([, value]) => value !== undefined);
  return { tensors, attrs };
}

function compute(s, header, input) {
  const { M, staging } = s;
  const response = M._responseAddress() / 8;
  let words = M.HEAPF64;
  const identity = words[response] === 1;
  const outCode = words[response + 1];
  const outCount = words[response + 2];
  const outDims = Array.from(words.subarray(response + 4, response + 4 + words[response + 3]));
  const outType = DTYPE_NAME_BY_CODE[outCode];
  const data = input.data;

  if (identity) return new Tensor(outType, data.slice(), outDims);

  // Stream the input in.
  const size = input.info.bytes;
  const heap = M.HEAPU8;
  if (data.buffer === heap.buffer) {
    check(M, M._feed(data.byteOffset, data.length)); // already in wasm memory: no copy
  } else {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const chunk = STAGING_BYTES - (STAGING_BYTES % size);
    for (let at = 0; at < bytes.length; at += chunk) {
      const part = bytes.subarray(at, Math.min(at + chunk, bytes.length));
      heap.set(part, staging);
      check(M, M._feed(staging, part.length / size));
    }
  }

  // Copy the output out, in the input's class when the dtype is the same (Float16Array stays one).
  const outInfo = DTYPES[outType];
  const OutClass = outType === input.type ? data.constructor : outInfo.array;
  let out;
  try {
    out = new OutClass(outCount);
  } catch (cause) {
    failWith(s, header, `the output (${outCount} elements of ${outType}) does not fit in memory: ${cause.message}`);
  }
  const outBytes = new Uint8Array(out.buffer);
  const per = Math.floor(STAGING_BYTES / outInfo.bytes);
  for (let begin = 0; begin < outCount; begin += per) {
    const n = Math.min(per, outCount - begin);
    check(M, M._writeOutput(staging, begin, n));
    outBytes.set(M.HEAPU8.subarray(staging, staging + n * outInfo.bytes), begin * outInfo.bytes);
  }
  return new Tensor(outType, out, outDims);
}

/** Whether ReduceMax at this opset takes axes as an input (version 18 on). */
export function reduceAxesIsInput(opset) {
  const s = session();
  if (!s) return true; // runNode reports the missing init()
  return s.M._axesIsInput(opset === undefined ? 0 : 1, typeof opset === 'number' ? opset : NaN) === 1;
}
