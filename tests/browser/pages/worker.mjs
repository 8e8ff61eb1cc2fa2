// A module Worker: import maps do not reach workers, so the package's entry is imported by path.
import * as ox from '/node_modules/onnx-extrema/js/index.mjs';
import { runChecks } from '/checks/checks.mjs';

// ?wasmModule: the page posts the module it compiled (a worker pool compiles ox.wasm once).
const posted = () => new Promise((resolve) => {
  self.onmessage = (event) => resolve({ wasmModule: event.data });
});

try {
  await ox.init(new URL(import.meta.url).searchParams.has('wasmModule') ? await posted() : undefined);
  postMessage({ inWorker: typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope, ...runChecks(ox) });
} catch (error) {
  postMessage({ error: String(error?.stack ?? error) });
}
