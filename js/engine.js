// runNode: the one call path of every operator. Validates the tensor-likes' form, writes the
// request, lets the core resolve it, then has the input fed (feed.js: through a small staging
// buffer, each chunk reduced while in cache, so the heap never holds the whole tensor; wide column
// plans as column tiles, large multi-axis ReduceMax plans gathered) and the output read out
// (outputs.js, which also builds Hardmax's one-hot from the winning indices unless the core wrote
// it). An input that fits in the staging buffer (or already is in wasm memory) makes the whole
// call a single crossing into wasm (bindings' run(), where a request repeating an earlier one
// reuses its plan); no view or string is made per call. session.js holds what every call needs
// from the loaded module.
import { bufferIsDetached, bytesOf, describeValue, isCount, isDetached, isMapOrSet, keyText, lengthOf, lengthText, plainView } from './dtypes.js';
import { inputAddress, streamInput } from './feed.js';
import {
  claimOutput, hardmaxOutput, markWinners, outProblem, outputArray, outputClass, readOutput, response, resultTensor, stagedOutput,
} from './outputs.js';
import { STAGING_BYTES, check, coreError, failWith, heap, isCoreError, opText, session } from './session.js';
import { detachedText, listFaultText, readTensorLike, wasmTensorFrees } from './tensor.js';

/** An Error for `problem` in a call of opType at opset, prefixed as the core prefixes its own. */
export function nodeError(opType, opset, problem) {
  const s = session();
  // A call before init() or from inside another call: that is the problem to name (runNodeOutput).
  if (!s) return beforeInitError(opType, opset);
  if (s.busy) return callWhileBusyError(opType, opset);
  try {
    failWith(s, s.writer.begin(heap(s).HEAPF64, opType, opset), problem);
  } catch (error) {
    return error;
  }
  return new Error(problem); // not reached: failWith always throws
}

// Options are an object or absent: anything else is an error, so that an array given where
// { out: array } was meant is not silently ignored. `takesOpset`: the friendly functions' options
// ({ opset, out }), not runNode's ({ out }, its opset an argument).
function checkedOptions(opType, options, opset, takesOpset) {
  if (typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options) || isMapOrSet(options))
    throw nodeError(opType, opset, `options must be an object such as ${takesOpset ? '{ opset, out }' : '{ out }'}, got ${describeValue(options)}`);
  return options;
}

// A key besides those an entry point takes (the friendly functions: opset and out; runNode: out,
// its opset being an argument) is an Error: a misspelt `opset` would run the newest version, whose
// semantics can differ (Hardmax 1 and 11 against 13). Own enumerable keys, as a literal has them;
// no value is read (getters run once, where the call reads them).
function checkOptionKeys(opType, options, opset, takesOpset) {
  for (const key in options) {
    if (key === 'out' || (key === 'opset' && takesOpset) || !Object.hasOwn(options, key)) continue;
    const name = keyText(key);
    throw nodeError(opType, opset, key === 'opset'
      ? "runNode takes the opset as its fourth argument, not as option 'opset'"
      : `unknown option '${name}'; ${takesOpset ? 'the options are opset and out' : "runNode's one option is out"}`);
  }
}

/** The opset of the friendly functions' options { opset, out } (runNode reads `out`). */
export function optionsOpset(opType, options) {
  if (options === undefined || options === null) return undefined;
  const opset = checkedOptions(opType, options, undefined, true).opset;
  checkOptionKeys(opType, options, opset, true);
  return opset;
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
  if (options !== undefined && options !== null) checkOptionKeys(opType, checkedOptions(opType, options, opset, false), opset, false);
  return [runNodeOutput(opType, inputs, attributes, opset, options)];
}

/**
 * runNode's one output itself (the friendly functions': no array around it); options already
 * checked (runNode, optionsOpset). `amend`: rewrites an Error of the core's for this call (reduceMax()).
 */
export function runNodeOutput(opType, inputs, attributes, opset, options, amend) {
  const out = options === undefined || options === null ? undefined : options.out;
  const s = session();
  if (!s) throw beforeInitError(opType, opset);
  if (s.busy) throw callWhileBusyError(opType, opset);
  // Read everything the caller gave before writing the request: getters (as ort.Tensor has) may
  // run any code, even another call, which is harmless until this call starts to write. From
  // then on the module's request, staging buffer and execution are this call's: code of the
  // caller's that still runs (a dims or list element read through a getter or a Proxy while the
  // request is written, a getter of option 'out') may not start another call, which would
  // overwrite them and could make this one answer wrong.
  const frees = wasmTensorFrees.count;
  const { inputCount, tensors, attrs, problem } = readArguments(inputs, attributes, s.writer.limits.inputs, s.attributeNames);
  s.busy = true;
  try {
    return runArguments(s, opType, opset, inputCount, tensors, attrs, frees === wasmTensorFrees.count ? problem : FREED_WHILE_READING, out);
  } catch (error) {
    throw amend !== undefined && isCoreError(error) ? amend(error) : error;
  } finally {
    s.busy = false;
  }
}

// A getter of the call's arguments (an attribute's, a later input's) disposed a wasmTensor: its
// memory, which an input already read may view, is free for the module to reuse.
const FREED_WHILE_READING =
  'a wasmTensor was disposed while the call read its arguments (from a getter or a Proxy of them); the data it had read may be freed: dispose it after the call';

// The version a call asks for, named without the core (before init(), or while it is busy) and
// without running the caller's code (no String() of an object).
function versionText(opset) {
  if (opset === undefined) return 'newest version';
  return typeof opset === 'number' || typeof opset === 'bigint' ? `opset ${opset}` : `opset ${describeValue(opset)}`;
}

function beforeInitError(opType, opset) {
  return new Error(`onnx-extrema: ${opText(opType)} (${versionText(opset)}) was called before init() resolved; await init() first`);
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

  // Caller code that ran while the request was written (a getter or Proxy among the dims or list
  // attributes) may have grown the wasm memory (allocated in the module): the words written since
  // went to a detached view and are lost, and the core would read an earlier request's. The header
  // is written again, for the Error's label only.
  if (writer.words.length === 0)
    failWith(s, writer.begin(heap(s).HEAPF64, opType, opset),
      "the wasm memory grew while the call read its dims or attributes (a getter or Proxy allocated in onnx-extrema's module); allocate outside the call");
  // A list the writer could not read as one (wire.js: unreadable) is named here, before the core
  // runs: a detached typed array (before the call, or by a getter since) would have meant a scalar
  // or "all axes", a length that is no count a malformed request, a dims entry no number NaN.
  if (writer.unreadable !== undefined) {
    const listProblem = unreadableProblem(tensors, attrs, writer.unreadable);
    if (listProblem) failWith(s, header, listProblem);
  }

  // The request holds each data's length as read before (tensor.js: readTensorLike); a getter
  // reached while writing (dims, a list attribute) may have resized or detached its buffer since
  // (an empty array detached reads as empty still, but copying from it throws; the axes input's
  // values, written inline, would have read as NaN).
  for (let k = 0; k < tensors.length; k += 1) {
    const t = tensors[k];
    if (t && (lengthOf(t.data) !== t.length || (t.length === 0 && isDetached(t.data))))
      failWith(s, header, `input ${k}'s data changed size while the call read its arguments (its buffer was resized or detached, or the wasm memory it views grew)`);
  }
  const input = tensors[0];
  // Small or resident inputs make the whole call one crossing into wasm (bindings' run()).
  const at = inputAddress(s, input);
  const status = s.run(writer.count, at, at ? input.length : 0, s.staging, STAGING_BYTES);
  if (at !== 0 && input.address !== 0) keepResidentView(s, input);
  if (status === 1) {
    const message = writer.exactText(M._lastError());
    M._finish();
    throw coreError(message);
  }
  if (status === 0) return withCallersOut(stagedOutput(s, header, input, response(s), out), out);
  try {
    return withCallersOut(compute(s, header, input, status === 3, out), out);
  } finally {
    M._finish();
  }
}

// An input read in place (already in wasm memory: a wasmTensor's) whose view the crossing's
// allocations detached by growing the memory: a view of the same bytes in the new buffer, so the
// rest of the call (streamed windows, an identity's copy) still reads it in place.
function keepResidentView(s, input) {
  const data = input.data;
  if (lengthOf(data) !== 0 || (input.length === 0 && !bufferIsDetached(data))) return;
  input.data = new input.cls(heap(s).HEAPU8.buffer, input.address, input.length);
}

// What the request could not carry (wire.js: unreadable), named by whose list it is: a tensor's
// dims or an attribute's value; else undefined (an opset given as a list, which the core names).
function unreadableProblem(tensors, attrs, { list, problem, at, value }) {
  for (let k = 0; k < tensors.length; k += 1) {
    if (tensors[k] === null || tensors[k].dims !== list) continue;
    if (problem === 'detached') return `input ${k} has dims ${detachedText(list)}`;
    if (problem === 'length') return `input ${k} has dims whose length is ${lengthText(value)}, not a count of entries`;
    return `input ${k} has dims[${at}] = ${describeValue(value)}, which is not a non-negative integer`;
  }
  for (let a = 0; a < attrs.length; a += 2) if (attrs[a + 1] === list) return `attribute '${attrs[a]}' is ${listFaultText(list, value, problem)}`;
  return undefined;
}

// The output written into the caller's `out` (through a view of its memory: claimOutput) has the
// caller's own array as its data.
function withCallersOut(tensor, out) {
  if (out !== undefined) tensor.data = out;
  return tensor;
}

const ObjectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;
const isPlainObject = (object) => getPrototypeOf(object) === ObjectPrototype;

// The operators' attribute names (`known`) that `attributes`, an object that is not a plain one,
// has besides the keys its own enumerable properties were read by (`seen`): a getter of its class,
// an inherited or a non-enumerable property. Each defined one's name and value onto `attrs`, each
// read once. A name only this realm's Object.prototype holds (polluted) is none, as it is none of
// a plain object's.
function readKnownAttributes(attributes, known, seen, attrs) {
  for (const name of known) {
    if (seen.includes(name) || !(name in attributes)) continue;
    if (Object.hasOwn(ObjectPrototype, name) && !heldBeforeObjectPrototype(attributes, name)) continue;
    const value = attributes[name];
    if (value !== undefined) attrs.push(name, value);
  }
}
function heldBeforeObjectPrototype(object, name) {
  for (let o = object; o !== null && o !== ObjectPrototype; o = getPrototypeOf(o)) if (Object.hasOwn(o, name)) return true;
  return false;
}

// The defined attributes (name, value, name, value, ...) of an attributes object
// (isAttributesObject): its own enumerable properties (an object literal's, JSON's), each read
// once in key order; an object that is not a plain one (a class's, with getters; Object.create of
// defaults; another realm's) also has the operators' attribute names (`known`) read as properties,
// as a tensor-like's are, rather than run with the defaults unsaid. (Only then: a plain object's
// 'in' tests cost about 10% of a [1,10] call.)
function attributeList(attributes, known) {
  const attrs = [];
  // (an object that is not a plain one: the own enumerable keys read, whatever their values)
  const seen = isPlainObject(attributes) ? null : [];
  for (const name in attributes) {
    if (!Object.hasOwn(attributes, name)) continue;
    const value = attributes[name]; // each read once, in key order
    if (seen !== null) seen.push(name);
    if (value !== undefined) attrs.push(name, value);
  }
  if (seen !== null) readKnownAttributes(attributes, known, seen, attrs);
  return attrs;
}

/** An attributes object (isAttributesObject) as a plain object of what a call reads from it
 * (attributeList), for reduceMax() to move axes from. */
export function plainAttributes(attributes) {
  const s = session();
  // (a plain one copied by spread: a loop over attributeList made reduceMax() [1,10] 7-10% slower)
  if (s === null || isPlainObject(attributes)) return { ...attributes }; // (before init() the call says so)
  const attrs = attributeList(attributes, s.attributeNames);
  const read = {};
  for (let k = 0; k < attrs.length; k += 2) {
    if (attrs[k] === '__proto__') Object.defineProperty(read, '__proto__', { value: attrs[k + 1], enumerable: true, writable: true, configurable: true }); // (a key, not the prototype: the call names it unknown)
    else read[attrs[k]] = attrs[k + 1];
  }
  return read;
}

/** Whether `attributes` is an object of attributes (not null, an Array, or a Map or Set of any realm: their entries are no properties). */
export const isAttributesObject = (attributes) =>
  attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) && !isMapOrSet(attributes);

// readArguments' answer for a problem (made only then: the call path allocates nothing for it).
const argumentsProblem = (problem) => ({ inputCount: 0, tensors: [], attrs: [], problem });

// The count of inputs, the checked tensor-likes among the first `carried` (the request carries
// no more: a sparse Array may be 2^32 - 1 long, and reading every entry took 7 s for 10^8), and
// the defined attributes (attributeList); or the first problem.
function readArguments(inputs, attributes, carried, known) {
  if (!Array.isArray(inputs)) return argumentsProblem(`inputs must be an array of tensors, got ${describeValue(inputs)}`);
  const inputCount = inputs.length; // (a Proxy's may be no count)
  if (!isCount(inputCount)) return argumentsProblem(`inputs is an array whose length is ${lengthText(inputCount)}, not a count of entries`);
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
  return { inputCount, tensors, attrs: attributeList(attributes, known) };
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
