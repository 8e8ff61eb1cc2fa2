// An esbuild classic-script bundle (its default format, iife), where import.meta is empty: the wasm
// bytes come inlined by esbuild's binary loader and go to init({ wasmBinary }).
import * as ox from 'onnx-extrema';
import wasmBinary from 'onnx-extrema/ox.wasm';
import { runChecks } from './checks.mjs';

ox.init({ wasmBinary }).then(
  () => (window.__result = runChecks(ox)),
  (error) => (window.__result = { error: String(error?.stack ?? error) }),
);
