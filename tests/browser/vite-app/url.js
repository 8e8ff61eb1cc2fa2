// The wasm through the package's './ox.wasm' export and Vite's ?url import, given to init().
import * as ox from 'onnx-extrema';
import wasmUrl from 'onnx-extrema/ox.wasm?url';
import { runChecks } from './checks.mjs';

try {
  await ox.init({ wasmUrl });
  window.__result = { wasmUrl, ...runChecks(ox) };
} catch (error) {
  window.__result = { error: String(error?.stack ?? error) };
}
document.getElementById('out').textContent = JSON.stringify(window.__result);
