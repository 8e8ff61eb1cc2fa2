// Type declarations for onnx-extrema (ESM and CommonJS entries export the same API).

export type TensorType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool';

/** The typed array each tensor type uses; float16 also accepts a Float16Array where the runtime has one. */
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

/** Anything shaped like onnxruntime-web's ort.Tensor. */
export interface TensorLike<T extends TensorType = TensorType> {
  readonly type: T;
  readonly data: TensorDataMap[T];
  readonly dims: readonly number[];
}

export declare class Tensor<T extends TensorType = TensorType> implements TensorLike<T> {
  /** A plain Array is converted for number, bigint and bool types (not for float16/bfloat16). */
  constructor(type: T, data: TensorDataMap[T] | readonly (number | bigint | boolean)[], dims?: readonly number[]);
  readonly type: T;
  readonly data: TensorDataMap[T];
  readonly dims: number[];
  /** Number of elements. */
  readonly size: number;
}

export interface InitOptions {
  /** The .wasm bytes (bundlers, offline use). */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /** Where the browser fetches the .wasm from (default: next to the package's JS). */
  wasmUrl?: string | URL;
}

/** Loads the wasm module; idempotent. Operators throw until it resolves. */
export declare function init(options?: InitOptions): Promise<void>;

/** 0/1 or false/true. */
export type Flag = 0 | 1 | boolean;

export interface OperatorOptions {
  /** The model's opset: the version used is the highest since_version <= opset. Default: newest. */
  opset?: number;
}

export interface ArgAttributes {
  axis?: number;
  keepdims?: Flag;
  /** ArgMax/ArgMin version 12 on. */
  select_last_index?: Flag;
}

export interface ReduceMaxAttributes {
  /** Axes to reduce (default all). Passed as the axes input from version 18 on. */
  axes?: readonly (number | bigint)[] | BigInt64Array | Int32Array;
  keepdims?: Flag;
  /** ReduceMax version 18 on: with axes absent or empty, 1 returns the input unchanged. */
  noop_with_empty_axes?: Flag;
}

export interface HardmaxAttributes {
  axis?: number;
}

export type ArgTypes = Exclude<TensorType, 'bool'>;
export type ReduceMaxTypes = Exclude<TensorType, 'int16' | 'uint16'>;
export type HardmaxTypes = 'float16' | 'bfloat16' | 'float32' | 'float64';

export declare function argMax(x: TensorLike<ArgTypes>, attributes?: ArgAttributes, options?: OperatorOptions): Tensor<'int64'>;
export declare function argMin(x: TensorLike<ArgTypes>, attributes?: ArgAttributes, options?: OperatorOptions): Tensor<'int64'>;
export declare function reduceMax<T extends ReduceMaxTypes>(x: TensorLike<T>, attributes?: ReduceMaxAttributes, options?: OperatorOptions): Tensor<T>;
export declare function hardmax<T extends HardmaxTypes>(x: TensorLike<T>, attributes?: HardmaxAttributes, options?: OperatorOptions): Tensor<T>;

export type OpType = 'ArgMax' | 'ArgMin' | 'ReduceMax' | 'Hardmax';
export type AttributeValue = number | bigint | boolean | readonly (number | bigint)[];

/** Runs one ONNX node exactly as a model would call it; inputs may be null for absent optional ones. */
export declare function runNode(
  opType: OpType,
  inputs: readonly (TensorLike | null | undefined)[],
  attributes?: Record<string, AttributeValue | undefined>,
  opset?: number,
): Tensor[];

/** float16 bits (0..65535) for a number, rounded to nearest even. */
export declare function toFloat16Bits(value: number): number;
/** The number that float16 bits stand for. */
export declare function fromFloat16Bits(bits: number): number;
/** bfloat16 bits (0..65535) for a number, rounded to nearest even. */
export declare function toBFloat16Bits(value: number): number;
/** The number that bfloat16 bits stand for. */
export declare function fromBFloat16Bits(bits: number): number;
/** Uint16Array of float16 bits from numbers. */
export declare function toFloat16Array(values: ArrayLike<number>): Uint16Array;
/** Float32Array from float16 bits. */
export declare function fromFloat16Array(bits: ArrayLike<number>): Float32Array;
/** Uint16Array of bfloat16 bits from numbers. */
export declare function toBFloat16Array(values: ArrayLike<number>): Uint16Array;
/** Float32Array from bfloat16 bits. */
export declare function fromBFloat16Array(bits: ArrayLike<number>): Float32Array;
