// The package as a bundled app uses it: the bare import, and init() finds the wasm that Vite
// emitted from the package's new URL('../dist/ox.wasm', import.meta.url).
import * as ox from 'onnx-extrema';
import { runChecks } from './checks.mjs';

try {
  await ox.init();
  window.__result = runChecks(ox);
} catch (error) {
  window.__result = { error: String(error?.stack ?? error) };
}
document.getElementById('out').textContent = JSON.stringify(window.__result);
