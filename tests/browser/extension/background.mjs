// The extension's background: a module service worker under the extension's policy (no
// 'unsafe-eval'). The test calls self.runChecks through the worker (the package is copied in
// beside this file as onnx-extrema/).
import * as ox from './onnx-extrema/js/index.mjs';
import { runChecks } from './checks.mjs';

self.runChecks = async () => {
  await ox.init();
  return { inServiceWorker: self instanceof ServiceWorkerGlobalScope, ...runChecks(ox) };
};
