// Uses every export of onnx-extrema, by package name, under tsc --strict. typings.test.mjs
// type-checks it and then runs the emitted JS, so each type stated here (the annotations) is also
// checked against what the runtime really returns (the check() calls). The lines that expect a
// TypeScript error are misuses that the typings must reject (tsc fails if one compiles).
import {
  init,
  runNode,
  argMax,
  argMin,
  reduceMax,
  hardmax,
  Tensor,
  wasmTensor,
  toFloat16Bits,
  fromFloat16Bits,
  toBFloat16Bits,
  fromBFloat16Bits,
  toFloat16Array,
  fromFloat16Array,
  toBFloat16Array,
  fromBFloat16Array,
} from 'onnx-extrema';
import type {
  AnyTensorLike,
  ArgAttributes,
  HardmaxAttributes,
  InitOptions,
  OperatorOptions,
  ReduceMaxAttributes,
  TensorLike,
  TensorType,
  WasmTensor,
} from 'onnx-extrema';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`usage.mts: ${what}`);
}
const same = (a: ArrayLike<number | bigint>, b: readonly (number | bigint)[]): boolean =>
  a.length === b.length && b.every((v, i) => Object.is(a[i], v));

const initOptions: InitOptions = {};
const ready: Promise<void> = init(initOptions);
await ready;
await init(); // idempotent
await init(null); // null reads as no options, as the runtime takes it

// Tensor: typed-array data, and a plain Array converted for number, bigint and bool types.
const logits = new Tensor('float32', new Float32Array([0.5, 2, -1, 3, 3, 0]), [2, 3]);
const logitsType: 'float32' = logits.type;
const logitsData: Float32Array = logits.data;
const logitsDims: number[] = logits.dims;
const logitsSize: number = logits.size;
check(logitsType === 'float32' && logitsData instanceof Float32Array && same(logitsDims, [2, 3]) && logitsSize === 6, 'Tensor');
const fromNumbers: Tensor<'int32'> = new Tensor('int32', [3, 1, 2]);
check(fromNumbers.data instanceof Int32Array && same(fromNumbers.dims, [3]), 'Tensor from numbers');
const fromBigints = new Tensor('int64', [5n, -7n], [2]);
const bigintData: BigInt64Array = fromBigints.data;
check(bigintData instanceof BigInt64Array && bigintData[1] === -7n, 'Tensor from bigints');
const flags = new Tensor('bool', [true, false, 1, 0], [2, 2]);
check(flags.data instanceof Uint8Array && same(flags.data, [1, 0, 1, 0]), 'Tensor from booleans');
const plain: TensorLike<'float64'> = { type: 'float64', data: new Float64Array([1, 9, 4]), dims: [3] };

// Operators.
const argAttributes: ArgAttributes = { axis: 1, keepdims: 0 };
const maxIndex: Tensor<'int64', BigInt64Array> = argMax(logits, argAttributes);
check(maxIndex.type === 'int64' && same(maxIndex.data, [1n, 0n]) && same(maxIndex.dims, [2]), 'argMax');
const lastMin = argMin(plain, { axis: -1, select_last_index: true, keepdims: 1 }, { opset: 13 });
const lastMinData: BigInt64Array = lastMin.data;
check(same(lastMinData, [0n]) && same(lastMin.dims, [1]), 'argMin');
const opset11: OperatorOptions = { opset: 11 };
const columns = argMax(logits, { axis: 0n }, opset11);
check(same(columns.data, [1n, 1n, 1n]) && same(columns.dims, [1, 3]), 'argMax opset 11, bigint axis');

const reduceAttributes: ReduceMaxAttributes = { axes: [1], keepdims: 0 };
const rowMax: Tensor<'float32', Float32Array> = reduceMax(logits, reduceAttributes);
check(rowMax.data instanceof Float32Array && same(rowMax.data, [2, 3]), 'reduceMax');
check(same(reduceMax(logits, { axes: new Int32Array([0]) }, { opset: 13 }).data, [3, 3, 0]), 'reduceMax opset 13');
const allMax: Tensor<'float64', Float64Array> = reduceMax(plain, { noop_with_empty_axes: 0 });
check(same(allMax.data, [9]) && allMax.dims.length === 1, 'reduceMax default axes keepdims');
const anyTrue: Tensor<'bool', Uint8Array> = reduceMax(flags, { axes: [0n], keepdims: false });
check(same(anyTrue.data, [1, 0]), 'reduceMax bool');

const hardmaxAttributes: HardmaxAttributes = { axis: -1 };
const oneHot: Tensor<'float32', Float32Array> = hardmax(logits, hardmaxAttributes);
check(same(oneHot.data, [0, 1, 0, 1, 0, 0]), 'hardmax');

// out: the caller's array receives the output and is returned as its data (a frame loop reuses it).
const maskOut = new BigInt64Array(2);
const intoMask: Tensor<'int64', BigInt64Array> = argMax(logits, argAttributes, { out: maskOut });
check(intoMask.data === maskOut && same(maskOut, [1n, 0n]), 'argMax into out');
const rowOut: OperatorOptions<Float32Array> = { opset: 13, out: new Float32Array(2) };
check(reduceMax(logits, { axes: [1], keepdims: 0 }, rowOut).data === rowOut.out, 'reduceMax into out');
const nodeOut = new Float32Array(6);
check(runNode('Hardmax', [logits], {}, 13, { out: nodeOut })[0]?.data === nodeOut && same(nodeOut, [0, 1, 0, 1, 0, 0]), 'runNode into out');
// null options read as none (a fresh output), for the operator functions and runNode alike.
check(same(argMax(logits, argAttributes, null).data, [1n, 0n]), 'argMax with null options');
check(same(runNode('Hardmax', [logits], {}, 13, null)[0]?.data ?? [], [0, 1, 0, 1, 0, 0]), 'runNode with null options');

// float16 and bfloat16 bits, through the helpers.
const halfBits: Uint16Array = toFloat16Array([1, 5, -2]);
const half = new Tensor('float16', halfBits, [3]);
const halfMax: Tensor<'float16', Uint16Array> = reduceMax(half);
check(halfMax.data instanceof Uint16Array && fromFloat16Bits(halfMax.data[0] ?? NaN) === 5, 'reduceMax float16');
const halfBack: Float32Array = fromFloat16Array(half.data);
check(same(halfBack, [1, 5, -2]), 'fromFloat16Array');
const oneBit: number = toFloat16Bits(1);
check(oneBit === 0x3c00 && toFloat16Bits(65520) === 0x7c00, 'toFloat16Bits');
const brain = new Tensor('bfloat16', toBFloat16Array(new Float32Array([0.25, -3, 7])), [1, 3]);
const brainHot: Tensor<'bfloat16', Uint16Array> = hardmax(brain, { axis: 1 }, { opset: 13 });
check(same(fromBFloat16Array(brainHot.data), [0, 0, 1]), 'hardmax bfloat16');
check(toBFloat16Bits(1) === 0x3f80 && fromBFloat16Bits(0xc040) === -3, 'bfloat16 bits');

// wasmTensor: data allocated in the module's wasm memory, read in place; freed by dispose().
const resident: WasmTensor<'float32'> = wasmTensor('float32', [2, 3]);
const residentData: Float32Array = resident.data;
residentData.set([0.5, 2, -1, 3, 3, 0]);
const residentMax: Tensor<'float32', Float32Array> = reduceMax(resident, { axes: [1], keepdims: 0 });
check(same(residentMax.data, [2, 3]) && same(argMax(resident, argAttributes).data, [1n, 0n]), 'wasmTensor');
const residentHalf = wasmTensor('float16', [4]);
const residentBits: Uint16Array = residentHalf.data;
check(residentBits.length === 4 && !resident.disposed, 'wasmTensor float16 bits');
resident.dispose();
residentHalf.dispose();
check(resident.disposed, 'wasmTensor dispose');

// runNode: the ONNX-node form; its outputs are tensors of any type.
const axes = new Tensor('int64', [1n]);
const outputs: Tensor[] = runNode('ReduceMax', [logits, axes], { keepdims: 0, noop_with_empty_axes: 0 }, 18);
const first: Tensor | undefined = outputs[0];
const firstType: TensorType | undefined = first?.type;
check(outputs.length === 1 && firstType === 'float32' && same(first?.data as Float32Array, [2, 3]), 'runNode');
const absentAxes = runNode('ReduceMax', [logits, null], { keepdims: true }, 18)[0];
check(absentAxes?.type === 'float32' && same(absentAxes.data as Float32Array, [3]), 'runNode with an absent input');

// A tensor whose type is known only at run time is taken, and checked when called.
const dynamic: AnyTensorLike = logits;
check(argMax(dynamic).type === 'int64', 'argMax of a dynamic tensor');
const anyTensor: Tensor = outputs[0] ?? logits;
const anyMax: Tensor = reduceMax(anyTensor);
check(anyMax.type === 'float32', 'reduceMax of Tensor');

// Misuses the typings reject (never called: each would also throw at run time).
export function misuses(): void {
  // @ts-expect-error ArgMax takes no bool
  argMax(flags);
  // @ts-expect-error Hardmax takes floats only
  hardmax(fromNumbers);
  // @ts-expect-error ReduceMax takes no int16
  reduceMax(new Tensor('int16', [1, 2]));
  // @ts-expect-error data must be the type's typed array
  new Tensor('float32', new Int32Array(2));
  // @ts-expect-error float16 data from an Array would be ambiguous
  new Tensor('float16', [1, 2]);
  // @ts-expect-error int64 data from an Array takes bigints
  new Tensor('int64', [1, 2]);
  // @ts-expect-error not a tensor type
  new Tensor('string', ['a']);
  // @ts-expect-error not a tensor type
  wasmTensor('string', [1]);
  // @ts-expect-error axis is an integer, not a string
  argMax(logits, { axis: '1' });
  // @ts-expect-error ArgMax has no axes attribute
  argMax(logits, { axes: [1] });
  // @ts-expect-error not an operator of this package
  runNode('Softmax', [logits]);
  // @ts-expect-error wasmUrl is a string or URL
  void init({ wasmUrl: 5 });
  // @ts-expect-error wasmModule is a compiled WebAssembly.Module, not bytes
  void init({ wasmModule: new Uint8Array(8) });
  // @ts-expect-error the helpers take numbers
  toFloat16Bits('1');
  // @ts-expect-error ArgMax's output is int64: out is a BigInt64Array
  argMax(logits, {}, { out: new Int32Array(2) });
  // @ts-expect-error ReduceMax's output has the input's class
  reduceMax(logits, {}, { out: new Float64Array(1) });
  // @ts-expect-error a float32 tensor with int32 data is no TensorLike<'float32'>
  reduceMax({ type: 'float32', data: new Int32Array(1), dims: [1] } as const);
}
