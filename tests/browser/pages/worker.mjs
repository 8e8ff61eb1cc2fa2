// A module Worker: import maps do not reach workers, so the package's entry is imported by path.
import * as ox from '/node_modules/onnx-extrema/js/index.mjs';
import { runChecks } from '/checks/checks.mjs';

try {
  await ox.init();
  postMessage({ inWorker: typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope, ...runChecks(ox) });
} catch (error) {
  postMessage({ error: String(error?.stack ?? error) });
}
