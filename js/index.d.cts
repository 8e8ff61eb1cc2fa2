// Type declarations for onnx-extrema, the one copy: the CommonJS entry's (index.cjs) here, and
// index.d.ts re-exports them for the ES module entry (an ES module may import CommonJS types; the
// other way round fails under "module": "node16"). tests/package/typings checks them against the
// runtime exports and compiles a file that uses each of them with --strict.

export type TensorType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool';

/** The typed array each tensor type uses; float16 also takes a Float16Array where the runtime has one. */
export interface TensorDataMap {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array | Float16ArrayLike;
  bfloat16: Uint16Array;
  int8: Int8Array;
  uint8: Uint8Array;
  int16: Int16Array;
  uint16: Uint16Array;
  int32: Int32Array;
  uint32: Uint32Array;
  int64: BigInt64Array;
  uint64: BigUint64Array;
  bool: Uint8Array;
}

/** A Float16Array (ES2025) where the runtime has one; typed structurally for older lib settings. */
export interface Float16ArrayLike extends ArrayBufferView {
  readonly length: number;
  readonly [Symbol.toStringTag]: 'Float16Array';
  [index: number]: number;
}

/**
 * A tensor `{ type, data, dims }`: the package's Tensor, onnxruntime's ort.Tensor, a plain object.
 * D is the data's class: outputs of the input's type keep it (a Float16Array stays one).
 */
export interface TensorLike<T extends TensorType = TensorType, D extends TensorDataMap[T] = TensorDataMap[T]> {
  readonly type: T;
  readonly data: D;
  readonly dims: readonly number[];
}

/**
 * A tensor-like whose type is known only at run time, such as an ort.Tensor from session.run()
 * (its `type` is a union). Operators check it when called and throw an Error if it is wrong.
 */
export interface AnyTensorLike {
  readonly type: string;
  readonly data: unknown;
  readonly dims: readonly number[];
}

/** The numbers a plain Array may hold when the Tensor constructor converts it. */
export interface TensorArrayElementMap {
  float32: number;
  float64: number;
  int8: number;
  uint8: number;
  int16: number;
  uint16: number;
  int32: number;
  uint32: number;
  int64: bigint;
  uint64: bigint;
  bool: boolean | number;
}

export declare class Tensor<T extends TensorType = TensorType, D extends TensorDataMap[T] = TensorDataMap[T]>
  implements TensorLike<T, D> {
  /** dims default to [data.length]. */
  constructor(type: T, data: D, dims?: readonly number[]);
  /** A plain Array is converted to the type's typed array (not for float16/bfloat16: their numbers would be ambiguous); an undefined entry or a hole is an Error. */
  constructor(
    type: T,
    data: T extends keyof TensorArrayElementMap ? readonly TensorArrayElementMap[T][] : never,
    dims?: readonly number[],
  );
  readonly type: T;
  readonly data: D;
  readonly dims: number[];
  /** Number of elements. */
  readonly size: number;
}

/** The data class of a wasmTensor of each type: float16's is its bits' Uint16Array. */
export type WasmTensorDataMap = { [T in TensorType]: T extends 'float16' ? Uint16Array : TensorDataMap[T] };

/**
 * A Tensor whose data lives in the module's wasm memory (wasmTensor()): operators read it in place,
 * without copying it in (but for ReduceMax's gathered windows: README). `data` is a view of that
 * memory; memory growth (any call may grow it) detaches earlier views, so read `data` again rather
 * than keep one across calls. Views of it must not be used after dispose().
 */
export interface WasmTensor<T extends TensorType = TensorType> extends Tensor<T, WasmTensorDataMap[T]> {
  /** Whether dispose() has freed the data's memory. */
  readonly disposed: boolean;
  /** Frees the data's memory; `data` throws after. A second call does nothing. */
  dispose(): void;
}

/** A zeroed tensor of `type` and `dims` allocated in the module's wasm memory (after init()). */
export declare function wasmTensor<T extends TensorType>(type: T, dims: readonly number[]): WasmTensor<T>;

export interface InitOptions {
  /** The .wasm bytes (bundlers, offline use). */
  wasmBinary?: ArrayBuffer | SharedArrayBuffer | ArrayBufferView;
  /**
   * Where the .wasm is fetched from (default: dist/ox.wasm next to the package's JS). A relative
   * URL is relative to the page (or worker script), or to the package's js/ folder in Node.
   */
  wasmUrl?: string | GlobalURL;
  /**
   * dist/ox.wasm compiled (WebAssembly.compile of its bytes, a module posted from another worker,
   * or what a bundler's .wasm import gives where runtimes compile no bytes themselves).
   */
  wasmModule?: GlobalWasmModule;
}

/** The URL class where the lib declares one (DOM or @types/node), so no such lib is needed. */
export type GlobalURL = typeof globalThis extends { URL: new (url: string) => infer U } ? U : never;
/**
 * WebAssembly.Module where the lib declares it (DOM or @types/node). Their Module is an empty
 * interface, which any value but null and undefined fits: an object with no length is closer.
 */
export type GlobalWasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } }
  ? M & object & { readonly length?: never; readonly byteLength?: never }
  : never;

/** Loads the wasm module; idempotent. Operators throw until it resolves. */
export declare function init(options?: InitOptions | null): Promise<void>;

/** 0/1 or false/true. */
export type Flag = 0 | 1 | boolean;

/** A list of integers: an Array of numbers or bigints, or an integer typed array. */
export type IntegerList =
  | readonly (number | bigint)[]
  | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;

/**
 * Options of the operator functions. Out: the output's data class (BigInt64Array for
 * ArgMax/ArgMin, the class of the input's type for ReduceMax/Hardmax: OutputData); without it,
 * options that give no `out`, which every operator function takes.
 */
export interface OperatorOptions<Out extends ArrayBufferView = never> {
  /** The model's opset: the version used is the highest since_version <= opset. Default: newest. */
  opset?: number;
  /**
   * An array to write the output into, returned as the output's data: of the output's class (a
   * float16 output also takes a Float16Array) and exactly the output's length, in memory of its
   * own (not an input's). Reusing one array across calls (a frame loop) saves a new array's
   * allocation and page faults each call. After an error its contents are unspecified.
   */
  out?: Out;
}

/** runNode's options: `out` as in OperatorOptions (the node's single output). */
export interface RunNodeOptions {
  out?: ArrayBufferView;
}

export interface ArgAttributes {
  axis?: number | bigint;
  keepdims?: Flag;
  /** ArgMax/ArgMin version 12 on. */
  select_last_index?: Flag;
}

export interface ReduceMaxAttributes {
  /** Axes to reduce (default all). Passed as the axes input from version 18 on. */
  axes?: IntegerList;
  keepdims?: Flag;
  /** ReduceMax version 18 on: with axes absent or empty, 1 returns the input unchanged. */
  noop_with_empty_axes?: Flag;
}

export interface HardmaxAttributes {
  axis?: number | bigint;
}

export type ArgTypes = Exclude<TensorType, 'bool'>;
export type ReduceMaxTypes = Exclude<TensorType, 'int16' | 'uint16'>;
export type HardmaxTypes = 'float16' | 'bfloat16' | 'float32' | 'float64';

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/**
 * X itself when the operator takes it: a tensor whose type is one known literal must be one of
 * Allowed with that type's data; one whose type is a union or string is checked at run time.
 * Otherwise TensorLike<Allowed>, so the compiler's error names what was expected.
 */
export type Accepted<X extends AnyTensorLike, Allowed extends TensorType> =
  string extends X['type'] ? X
  : true extends IsUnion<X['type']> ? X
  : X['type'] extends Allowed ? (X extends TensorLike<X['type']> ? X : TensorLike<X['type']>)
  : TensorLike<Allowed>;

/** The output of an operator whose output has the input's type and data class. */
export type SameAs<X extends AnyTensorLike> =
  X extends TensorLike<infer T extends TensorType, infer D> ? (D extends TensorDataMap[T] ? Tensor<T, D> : Tensor<T>) : Tensor;

/** The data classes an output of X's type may have (X's own class, or either float16 class). */
export type OutputData<X extends AnyTensorLike> = X['type'] extends TensorType ? TensorDataMap[X['type']] : ArrayBufferView;

/** Indices of the maxima along `axis` (int64). */
export declare function argMax<X extends AnyTensorLike>(
  x: Accepted<X, ArgTypes>, attributes?: ArgAttributes, options?: OperatorOptions<BigInt64Array> | null): Tensor<'int64', BigInt64Array>;
/** Indices of the minima along `axis` (int64). */
export declare function argMin<X extends AnyTensorLike>(
  x: Accepted<X, ArgTypes>, attributes?: ArgAttributes, options?: OperatorOptions<BigInt64Array> | null): Tensor<'int64', BigInt64Array>;
/** Maxima over `axes` (default all), in the input's type and data class. */
export declare function reduceMax<X extends AnyTensorLike>(
  x: Accepted<X, ReduceMaxTypes>, attributes?: ReduceMaxAttributes, options?: OperatorOptions<OutputData<X>> | null): SameAs<X>;
/** One-hot of the first maximum along `axis`, in the input's type and data class. */
export declare function hardmax<X extends AnyTensorLike>(
  x: Accepted<X, HardmaxTypes>, attributes?: HardmaxAttributes, options?: OperatorOptions<OutputData<X>> | null): SameAs<X>;

export type OpType = 'ArgMax' | 'ArgMin' | 'ReduceMax' | 'Hardmax';
export type AttributeValue = number | bigint | boolean | IntegerList;

/** Runs one ONNX node exactly as a model would call it; inputs may be null for absent optional ones. */
export declare function runNode(
  opType: OpType,
  inputs: readonly (AnyTensorLike | null | undefined)[],
  attributes?: Readonly<Record<string, AttributeValue | undefined>>,
  opset?: number,
  options?: RunNodeOptions | null,
): Tensor[];

/** float16 bits (0..65535) for a number, rounded to nearest even; NaN gives a NaN. */
export declare function toFloat16Bits(value: number): number;
/** The number that float16 bits stand for. */
export declare function fromFloat16Bits(bits: number): number;
/** bfloat16 bits (0..65535) for a number, rounded to nearest even; NaN gives a NaN. */
export declare function toBFloat16Bits(value: number): number;
/** The number that bfloat16 bits stand for. */
export declare function fromBFloat16Bits(bits: number): number;
/** Uint16Array of float16 bits from numbers (an Array, Float32Array, Float64Array, ...). */
export declare function toFloat16Array(values: ArrayLike<number>): Uint16Array;
/** Float32Array from float16 bits (a Uint16Array; a Float16Array is taken as its values); every float16 value is exact in float32. */
export declare function fromFloat16Array(bits: ArrayLike<number>): Float32Array;
/** Uint16Array of bfloat16 bits from numbers. */
export declare function toBFloat16Array(values: ArrayLike<number>): Uint16Array;
/** Float32Array from bfloat16 bits; every bfloat16 value is exact in float32. */
export declare function fromBFloat16Array(bits: ArrayLike<number>): Float32Array;
