// An esbuild ES-module bundle (format esm): esbuild leaves new URL('...', import.meta.url) alone,
// so the app imports the package's './ox.wasm' export through esbuild's file loader (which emits
// it beside the bundle) and gives init() its URL, resolved against the bundle (a relative wasmUrl
// is relative to the page).
import * as ox from 'onnx-extrema';
import wasmPath from 'onnx-extrema/ox.wasm';
import { runChecks } from './checks.mjs';

try {
  await ox.init({ wasmUrl: new URL(wasmPath, import.meta.url) });
  window.__result = runChecks(ox);
} catch (error) {
  window.__result = { error: String(error?.stack ?? error) };
}
