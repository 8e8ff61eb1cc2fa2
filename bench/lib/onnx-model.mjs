// A one-node ONNX model, written as protobuf bytes here (no onnx package, no model files): just
// the fields onnxruntime needs to load a graph x -> op -> y. Field numbers are onnx.proto3's.

const ELEM_TYPE = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, bool: 9,
  float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16,
};
const ATTR_INT = 2;
const ATTR_INTS = 7;

// Protobuf wire encoding: varint (type 0) and length-delimited (type 2) fields.
class Writer {
  constructor() {
    this.bytes = [];
  }
  varint(v) {
    let n = BigInt.asUintN(64, BigInt(v)); // negative int64 values take ten bytes, as protobuf says
    do {
      const low = Number(n & 0x7fn);
      n >>= 7n;
      this.bytes.push(n ? low | 0x80 : low);
    } while (n);
    return this;
  }
  tag(field, wireType) {
    return this.varint((field << 3) | wireType);
  }
  int(field, v) {
    return this.tag(field, 0).varint(v);
  }
  raw(field, bytes) {
    this.tag(field, 2).varint(bytes.length);
    for (const b of bytes) this.bytes.push(b);
    return this;
  }
  string(field, s) {
    return this.raw(field, new TextEncoder().encode(s));
  }
  message(field, build) {
    const inner = new Writer();
    build(inner);
    return this.raw(field, inner.bytes);
  }
}

function attribute(w, name, value) {
  w.string(1, name);
  if (Array.isArray(value)) {
    for (const v of value) w.int(8, v); // ints (unpacked, which every parser accepts)
    w.int(20, ATTR_INTS);
  } else {
    w.int(3, value);
    w.int(20, ATTR_INT);
  }
}

function valueInfo(w, name, type, dims) {
  w.string(1, name);
  w.message(2, (t) =>
    t.message(1, (tensor) => {
      tensor.int(1, ELEM_TYPE[type]);
      tensor.message(2, (shape) => dims.forEach((d) => shape.message(1, (dim) => dim.int(1, d))));
    }),
  );
}

/**
 * Bytes of a model running one node: input `x` of (type, dims), output `y`.
 * @param {{ op: string, opset: number, type: string, dims: number[], outType: string,
 *           outDims: number[], attributes?: object, axesInput?: number[] }} spec
 *   axesInput: ReduceMax-18's axes, stored as a constant int64 initializer.
 */
export function oneNodeModel({ op, opset, type, dims, outType, outDims, attributes = {}, axesInput }) {
  const w = new Writer();
  w.int(1, 8); // ir_version 8 (opset 18 era)
  w.string(2, 'onnx-extrema-bench');
  w.message(7, (g) => {
    g.message(1, (node) => {
      node.string(1, 'x');
      if (axesInput) node.string(1, 'axes');
      node.string(2, 'y');
      node.string(3, 'n0');
      node.string(4, op);
      for (const [name, value] of Object.entries(attributes)) node.message(5, (a) => attribute(a, name, value));
    });
    g.string(2, 'g');
    if (axesInput)
      g.message(5, (t) => {
        t.int(1, axesInput.length);
        t.int(2, ELEM_TYPE.int64);
        for (const a of axesInput) t.int(7, a);
        t.string(8, 'axes');
      });
    g.message(11, (v) => valueInfo(v, 'x', type, dims));
    g.message(12, (v) => valueInfo(v, 'y', outType, outDims));
  });
  w.message(8, (o) => {
    o.string(1, '');
    o.int(2, opset);
  });
  return new Uint8Array(w.bytes);
}
