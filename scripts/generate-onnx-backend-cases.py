#!/usr/bin/env python3
"""Writes tests/cases/onnx-backend-node.json: ONNX's own backend node tests for ArgMax, ArgMin,
Hardmax and ReduceMax (each case's node, attributes, opset_import and input/output tensors), so
the wasm build is checked against the cases ONNX ships, on machines without Python.

Needs the onnx Python package (1.12 was used) and numpy; run from anywhere:
    python3 scripts/generate-onnx-backend-cases.py
Values are written exactly: floats as their shortest round-trip decimal (or "NaN"/"Infinity"
strings), 64-bit integers as decimal strings.
"""
import importlib
import json
import math
import os
import sys

import numpy as np

np.float = float  # an alias numpy 1.24 removed; some of onnx 1.12's generators still use it
np.random.seed(0)  # the "random" cases draw their data when the modules are imported

import onnx  # noqa: E402
from onnx import helper  # noqa: E402
import onnx.backend.test.case.node as node_cases  # noqa: E402

MODULES = ["argmax", "argmin", "hardmax", "reducemax"]
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cases", "onnx-backend-node.json")

NUMPY_TYPES = {
    "float32": "float32", "float64": "float64", "float16": "float16",
    "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
    "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64", "bool": "bool",
}


def value_text(v, type_name):
    if type_name == "float16":
        return int(np.asarray(v, dtype=np.float16).view(np.uint16))  # bits, as the package takes them
    if type_name.startswith("float"):
        f = float(v)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f  # json writes repr(): the shortest decimal that reads back as the same double
    if type_name in ("int64", "uint64"):
        return str(int(v))
    if type_name == "bool":
        return 1 if v else 0
    return int(v)


def tensor_json(array):
    array = np.asarray(array)
    type_name = NUMPY_TYPES[str(array.dtype)]
    return {
        "type": type_name,
        "dims": [int(d) for d in array.shape],
        "data": [value_text(v, type_name) for v in array.reshape(-1)],
    }


def case_json(case):
    model = case.model
    node = model.graph.node[0]
    data_sets = []
    for inputs, outputs in case.data_sets:
        data_sets.append({"inputs": [tensor_json(x) for x in inputs], "outputs": [tensor_json(y) for y in outputs]})
    return {
        "name": case.name,
        "op_type": node.op_type,
        "inputs": list(node.input),
        "attributes": {a.name: json_attribute(helper.get_attribute_value(a)) for a in node.attribute},
        "opset_import": [{"domain": o.domain, "version": int(o.version)} for o in model.opset_import],
        "data_sets": data_sets,
    }


def json_attribute(value):
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value]
    return int(value)


def main():
    for name in MODULES:
        importlib.import_module("onnx.backend.test.case.node." + name)
    cases = [case_json(c) for c in node_cases._NodeTestCases]
    if len(cases) == 0:
        sys.exit("no cases collected")
    document = {
        "source": "onnx %s, onnx.backend.test.case.node.{%s}, numpy seed 0" % (onnx.__version__, ",".join(MODULES)),
        "generator": "scripts/generate-onnx-backend-cases.py",
        "cases": cases,
    }
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    # One case per line: readable diffs without one number per line.
    head = json.dumps({k: v for k, v in document.items() if k != "cases"}, allow_nan=False)[:-1]
    body = ",\n".join(json.dumps(c, allow_nan=False) for c in cases)
    with open(OUTPUT, "w") as f:
        f.write(head + ', "cases": [\n' + body + "\n]}\n")
    print("wrote %d cases to %s" % (len(cases), os.path.normpath(OUTPUT)))


if __name__ == "__main__":
    main()
