// The friendly operator functions: argMax(x, attributes, { opset, out }) and friends, each one
// runNode call (runNodeOutput: the output without an array around it; the options passed on:
// it reads `out`). reduceMax takes `axes` in every opset and passes it the way the version wants.
import { describeValue } from './dtypes.js';
import { isAttributesObject, nodeError, optionsOpset, reduceAxesIsInput, runNodeOutput } from './engine.js';
import { Tensor } from './tensor.js';

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
  const read = { ...attributes }; // each attribute read once (getters), in the caller's order
  if (read.axes === undefined || !reduceAxesIsInput(opset)) return runNodeOutput('ReduceMax', [x], read, opset, options);
  const { axes, ...rest } = read;
  return runNodeOutput('ReduceMax', [x, axesTensor(axes, opset)], rest, opset, options);
}

// A 1-D int64 tensor of the axes.
function axesTensor(axes, opset) {
  const isList = Array.isArray(axes) || (ArrayBuffer.isView(axes) && !(axes instanceof DataView));
  if (!isList) throw nodeError('ReduceMax', opset, `attribute 'axes' must be a list of integers, got ${describeValue(axes)}`);
  // Entry by entry, the array made after: a sparse Array's length says nothing of its entries
  // (new Array(2 ** 32 - 1) had the 32 GB array allocated first, a RangeError).
  const values = [];
  for (let i = 0; i < axes.length; i += 1) {
    const v = axes[i];
    if (typeof v === 'bigint' && BigInt.asIntN(64, v) === v) values.push(v);
    else if (Number.isSafeInteger(v)) values.push(BigInt(v));
    else if (typeof v === 'bigint') throw nodeError('ReduceMax', opset, `attribute 'axes' must hold int64 integers, but entry ${i} is ${v}n`);
    else throw nodeError('ReduceMax', opset, `attribute 'axes' must hold integers, but entry ${i} is ${typeof v === 'number' ? v : describeValue(v)}`);
  }
  return new Tensor('int64', BigInt64Array.from(values), [values.length]);
}
