// The benchmark cases: one ONNX node each, run the same way by every runtime. `opset` is the
// model's (ArgMax/ArgMin/Hardmax 13, ReduceMax 18 with axes as an input; null axes = all).
// Base cases are float32 unless they name a type. `listed`: a case the speed issue (#5) names and
// sets its targets on (lib/targets.mjs); the others are this project's own additions.

const BASE = [
  { name: 'argmax_vocab_32k', listed: true, op: 'ArgMax', dims: [1, 32000], attrs: { axis: -1 } },
  { name: 'argmax_vocab_8x128k', listed: true, op: 'ArgMax', dims: [8, 128256], attrs: { axis: -1 } },
  { name: 'argmax_cls', listed: true, op: 'ArgMax', dims: [64, 1000], attrs: { axis: 1 } },
  { name: 'argmax_seg', listed: true, op: 'ArgMax', dims: [1, 21, 512, 512], attrs: { axis: 1, keepdims: 0 } },
  // The same maps in NHWC layout (channels last, as exported from TensorFlow): many short rows.
  { name: 'argmax_seg_nhwc', op: 'ArgMax', dims: [1, 512, 512, 21], attrs: { axis: -1, keepdims: 0 } },
  { name: 'argmax_mask_nhwc', op: 'ArgMax', dims: [1, 512, 512, 2], attrs: { axis: -1, keepdims: 0 } },
  // A three-class head in NHWC layout, and an image's per-pixel max over its RGB bytes (the V of
  // HSV): rows of three.
  { name: 'argmax_seg3_nhwc', op: 'ArgMax', dims: [1, 512, 512, 3], attrs: { axis: -1, keepdims: 0 } },
  { name: 'reducemax_rgb', type: 'uint8', op: 'ReduceMax', dims: [1, 512, 512, 3], axes: [-1] },
  // The same over a canvas's RGBA bytes (ImageData), and a four-class head: rows of four.
  { name: 'reducemax_rgba', type: 'uint8', op: 'ReduceMax', dims: [1, 512, 512, 4], axes: [-1] },
  { name: 'argmax_seg4_nhwc', op: 'ArgMax', dims: [1, 512, 512, 4], attrs: { axis: -1, keepdims: 0 } },
  // A binary head in NCHW layout: two rows of columns.
  { name: 'argmax_mask', op: 'ArgMax', dims: [1, 2, 512, 512], attrs: { axis: 1, keepdims: 0 } },
  // Many classes: an ADE20K head at a quarter of the input's resolution (SegFormer), 150 rows of
  // columns, whose tiles' rows do not all fit the staging buffer (they go in parts).
  { name: 'argmax_seg150', op: 'ArgMax', dims: [1, 150, 128, 128], attrs: { axis: 1, keepdims: 0 } },
  // Columns narrower than a SIMD tile: per-coordinate extremes of a point cloud (x, y, z).
  { name: 'argmax_points', op: 'ArgMax', dims: [1048576, 3], attrs: { axis: 0 } },
  { name: 'reducemax_points', op: 'ReduceMax', dims: [1048576, 3], axes: [0] },
  { name: 'argmin_rows', listed: true, op: 'ArgMin', dims: [4096, 1024], attrs: { axis: -1 } },
  { name: 'reducemax_rows', listed: true, op: 'ReduceMax', dims: [4096, 1024], axes: [-1] },
  { name: 'reducemax_spatial', listed: true, op: 'ReduceMax', dims: [8, 256, 56, 56], axes: [2, 3] },
  { name: 'reducemax_all', listed: true, op: 'ReduceMax', dims: [4096, 4096], axes: null },
  { name: 'hardmax_last', listed: true, op: 'Hardmax', dims: [4096, 1024], attrs: { axis: -1 } },
  { name: 'tiny', listed: true, op: 'ArgMax', dims: [1, 10], attrs: { axis: -1 } },
];
const TYPED_BASES = ['argmax_vocab_32k', 'reducemax_rows'];
const EXTRA_TYPES = ['int32', 'uint8', 'float16', 'bfloat16', 'float64'];

export const BYTES = { float32: 4, float64: 8, int32: 4, uint8: 1, int8: 1, float16: 2, bfloat16: 2, int64: 8 };

function complete(c, type) {
  const opset = c.op === 'ReduceMax' ? 18 : 13;
  const attrs = c.attrs ?? {};
  const out = { ...c, type, opset, attrs: { ...attrs } };
  if (c.op === 'ReduceMax') out.attrs.keepdims ??= 1;
  out.count = c.dims.reduce((a, b) => a * b, 1);
  out.bytes = out.count * BYTES[type];
  out.outType = c.op === 'ArgMax' || c.op === 'ArgMin' ? 'int64' : type;
  out.outDims = outputDims(out);
  out.outBytes = out.outDims.reduce((a, b) => a * b, 1) * BYTES[out.outType];
  return Object.freeze(out);
}

// Output dims by ONNX rules (keepdims default 1).
function outputDims(c) {
  const rank = c.dims.length;
  const norm = (a) => (a < 0 ? a + rank : a);
  if (c.op === 'Hardmax') return c.dims.slice();
  const reduced = new Set(c.op === 'ReduceMax' ? (c.axes ?? c.dims.map((_, d) => d)).map(norm) : [norm(c.attrs.axis ?? 0)]);
  const keep = (c.attrs.keepdims ?? 1) !== 0;
  const dims = [];
  c.dims.forEach((d, k) => {
    if (!reduced.has(k)) dims.push(d);
    else if (keep) dims.push(1);
  });
  return dims;
}

export const CASES = [
  ...BASE.map((c) => complete(c, c.type ?? 'float32')),
  ...TYPED_BASES.flatMap((name) => EXTRA_TYPES.map((type) => complete({ ...BASE.find((c) => c.name === name), name: `${name}.${type}` }, type))),
];

// The sweep (`npm run bench -- --set=sweep`): the kernel families a user can reach, beyond the
// issue's cases, each at a small (~4K elements, the per-call cost) and a large (~1M) size, in
// every type onnxruntime-web also runs these operators in (int8 and int64 too; not
// bfloat16, which its JS API has no tensor type for), to find any layout where the margin over
// the peers is thin. `dims(n)`: the shape for about n elements.
const SWEEP_LAYOUTS = [
  { name: 'argmax_rows', op: 'ArgMax', dims: (n) => [n / 1024, 1024], attrs: { axis: -1 } },
  { name: 'argmin_rows_last', op: 'ArgMin', dims: (n) => [n / 1024, 1024], attrs: { axis: -1, select_last_index: 1 } },
  { name: 'argmax_rows7', op: 'ArgMax', dims: (n) => [n / 8, 7], attrs: { axis: -1 } },
  // Class scores of a detector's boxes ([8400, 80] in YOLO): rows of a few dozen elements.
  { name: 'argmax_rows80', op: 'ArgMax', dims: (n) => [n / 80, 80], attrs: { axis: -1 } },
  { name: 'argmax_mid3', op: 'ArgMax', dims: (n) => [n / 768, 256, 3], attrs: { axis: 1 } },
  // A middle axis over 5 columns: widths the short-row transposition gathers lane by lane.
  { name: 'argmax_mid5', op: 'ArgMax', dims: (n) => [n / 1280, 256, 5], attrs: { axis: 1 } },
  { name: 'argmax_mid64', op: 'ArgMax', dims: (n) => [n / 4096, 64, 64], attrs: { axis: 1 } },
  { name: 'argmax_cols7', op: 'ArgMax', dims: (n) => [n / 8, 7], attrs: { axis: 0 } },
  { name: 'argmax_axis0', op: 'ArgMax', dims: (n) => [n / 1024, 1024], attrs: { axis: 0 } },
  { name: 'reducemax_rows', op: 'ReduceMax', dims: (n) => [n / 1024, 1024], axes: [-1] },
  { name: 'reducemax_rows7', op: 'ReduceMax', dims: (n) => [n / 8, 7], axes: [-1] },
  { name: 'reducemax_mid3', op: 'ReduceMax', dims: (n) => [n / 768, 256, 3], axes: [1] },
  { name: 'reducemax_mid5', op: 'ReduceMax', dims: (n) => [n / 1280, 256, 5], axes: [1] },
  { name: 'reducemax_axis0', op: 'ReduceMax', dims: (n) => [n / 1024, 1024], axes: [0] },
  { name: 'reducemax_outer_inner', op: 'ReduceMax', dims: (n) => [16, n / 1024, 64], axes: [0, 2] },
  { name: 'reducemax_all', op: 'ReduceMax', dims: (n) => [n / 1024, 1024], axes: null },
  { name: 'hardmax_axis0', op: 'Hardmax', dims: (n) => [n / 1024, 1024], attrs: { axis: 0 } },
  { name: 'hardmax_rows7', op: 'Hardmax', dims: (n) => [n / 8, 7], attrs: { axis: -1 } },
  { name: 'hardmax_mid3', op: 'Hardmax', dims: (n) => [n / 768, 256, 3], attrs: { axis: 1 } },
];
const SWEEP_SIZES = { small: 4096, large: 1 << 20 };
const SWEEP_TYPES = ['float32', 'float16', 'int32', 'uint8', 'float64', 'int8', 'int64'];

const HARDMAX_TYPES = new Set(['float32', 'float16', 'bfloat16', 'float64']); // Hardmax-13's type list

export const SWEEP_CASES = SWEEP_LAYOUTS.flatMap(({ dims, ...layout }) =>
  Object.entries(SWEEP_SIZES).flatMap(([size, n]) =>
    SWEEP_TYPES.filter((type) => layout.op !== 'Hardmax' || HARDMAX_TYPES.has(type)).map((type) =>
      complete({ ...layout, name: `${layout.name}.${size}.${type}`, dims: dims(n).map(Math.ceil) }, type),
    ),
  ),
);

/** The cases of a set ('main' or 'sweep'), or the named ones from any set. */
export function findCases(names, set = 'main') {
  const sets = { main: CASES, sweep: SWEEP_CASES };
  if (!sets[set]) throw new Error(`unknown set '${set}'; sets: ${Object.keys(sets).join(', ')}`);
  if (!names) return sets[set];
  const all = [...CASES, ...SWEEP_CASES];
  return names.map((n) => {
    const c = all.find((k) => k.name === n);
    if (!c) throw new Error(`unknown case '${n}'; cases: ${CASES.map((k) => k.name).join(', ')} (and --set=sweep's)`);
    return c;
  });
}

export function describeShape(c) {
  const b = c.bytes;
  const size = b >= 1 << 20 ? `${+(b / (1 << 20)).toFixed(1)} MiB` : b >= 1024 ? `${+(b / 1024).toFixed(1)} KiB` : `${b} B`;
  return `${c.type} [${c.dims.join(',')}] ${size}`;
}
