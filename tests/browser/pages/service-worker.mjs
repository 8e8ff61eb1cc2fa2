// A module service worker (a Chrome extension's background runs as one): static imports only, no
// import() there. Answers the page's message with the operator checks.
import * as ox from '/node_modules/onnx-extrema/js/index.mjs';
import { runChecks } from '/checks/checks.mjs';

self.addEventListener('message', async (event) => {
  try {
    await ox.init();
    event.source.postMessage({ inServiceWorker: typeof ServiceWorkerGlobalScope === 'function' && self instanceof ServiceWorkerGlobalScope, ...runChecks(ox) });
  } catch (error) {
    event.source.postMessage({ error: String(error?.stack ?? error) });
  }
});
