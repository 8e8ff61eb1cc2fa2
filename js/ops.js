// The friendly operator functions: argMax(x, attributes, { opset, out }) and friends, each one
// runNode call (runNodeOutput: the output without an array around it; the options passed on:
// it reads `out`). reduceMax takes `axes` in every opset and passes it the way the version wants.
import { describeValue, isList, listFault, listLength } from './dtypes.js';
import { isAttributesObject, nodeError, optionsOpset, plainAttributes, reduceAxesIsInput, runNodeOutput } from './engine.js';
import { MAX_TENSOR_RANK, Tensor, listFaultText } from './tensor.js';

const single = (opType) => (x, attributes, options) => runNodeOutput(opType, [x], attributes, optionsOpset(opType, options), options);

/** Indices of the maxima along `axis` (int64). Attributes: axis, keepdims, select_last_index. */
export const argMax = single('ArgMax');
/** Indices of the minima along `axis` (int64). Attributes: axis, keepdims, select_last_index. */
export const argMin = single('ArgMin');
/** One-hot of the first maximum along `axis`, in the input's type. Attribute: axis. */
export const hardmax = single('Hardmax');

/** Maxima over `axes` (default all). Attributes: axes, keepdims, noop_with_empty_axes (18+). */
export function reduceMax(x, attributes, options) {
  const opset = optionsOpset('ReduceMax', options);
  if (!isAttributesObject(attributes)) return runNodeOutput('ReduceMax', [x], attributes, opset, options); // (it names the problem)
  const read = plainAttributes(attributes); // each attribute read once, as runNode reads them
  if (!reduceAxesIsInput(opset)) return runNodeOutput('ReduceMax', [x], read, opset, options);
  if (read.axes === undefined) return runNodeOutput('ReduceMax', [x], read, opset, options, withAxesListed);
  const axes = read.axes;
  read.axes = undefined; // (no attribute: the call skips undefined values; a rest copy cost another object)
  return runNodeOutput('ReduceMax', [x, axesTensor(axes, opset)], read, opset, options, withAxesListed);
}

// From version 18 on the core lists the ONNX node's attributes, which no longer hold axes (an
// input there); reduceMax() takes axes among its attributes at every opset, so where the core's
// error lists what the call takes ({ axis: 0 } for { axes: [0] }), it names axes too. (The list
// ends the message; an attribute's name before it may hold any text.)
const ATTRIBUTE_LIST = 'this version takes ';
function withAxesListed(error) {
  const at = error.message.lastIndexOf(ATTRIBUTE_LIST);
  if (at < 0) return error;
  return new Error(`${error.message.slice(0, at)}reduceMax() takes axes, ${error.message.slice(at + ATTRIBUTE_LIST.length)}`);
}

// A 1-D int64 tensor of the axes. The last one made is kept with the entries it was made from
// and given again while a call's entries are the same values (===): a model calls the same node
// over and over, and making it (the entries checked and made BigInts, the array, the tensor)
// took a small call from 0.43 to 0.97 us ([1,10]; 0.54-0.60 reused). It never reaches the caller.
let lastAxes = null; // { entries, tensor }
function axesTensor(axes, opset) {
  if (!isList(axes)) throw nodeError('ReduceMax', opset, `attribute 'axes' must be a list of integers, got ${describeValue(axes)}`);
  // A length past any rank is refused before an entry is read; below it, entry by entry, each
  // checked as it is read (once: a getter, a Proxy), the array made after: a sparse Array's
  // length says nothing of its entries (new Array(2 ** 32 - 1) once had the 32 GB array
  // allocated first, a RangeError, and a draft that copied the entries first crashed the process).
  const n = listLength(axes);
  const fault = listFault(axes, n);
  if (fault) throw nodeError('ReduceMax', opset, `attribute 'axes' is ${listFaultText(axes, n, fault)}`);
  if (n > MAX_TENSOR_RANK) throw nodeError('ReduceMax', opset, `attribute 'axes' has ${n} entries, more than any tensor has axes (at most ${MAX_TENSOR_RANK})`);
  const entries = [];
  for (let i = 0; i < n; i += 1) {
    const v = axes[i];
    if (typeof v === 'bigint' ? BigInt.asIntN(64, v) !== v : !Number.isSafeInteger(v)) {
      if (typeof v === 'bigint') throw nodeError('ReduceMax', opset, `attribute 'axes' must hold int64 integers, but entry ${i} is ${v}n`);
      throw nodeError('ReduceMax', opset, `attribute 'axes' must hold integers, but entry ${i} is ${typeof v === 'number' ? v : describeValue(v)}`);
    }
    entries.push(v);
  }
  if (lastAxes !== null && sameEntries(entries, lastAxes.entries)) return lastAxes.tensor;
  const tensor = new Tensor('int64', BigInt64Array.from(entries, (v) => BigInt(v)), [entries.length]);
  lastAxes = { entries, tensor };
  return tensor;
}

// (A made tensor's entries were all valid; -0 === 0 makes the same axis.)
function sameEntries(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
