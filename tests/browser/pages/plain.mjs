// The browser scenarios, one per page load (init() loads once per page), chosen by ?mode=.
// Each sets window.__result for tests/js/browser.test.mjs to read.
import * as ox from 'onnx-extrema';
import { runChecks } from '/checks/checks.mjs';
import { crossCheck } from './float16-cross-check.mjs';

const WASM_ELSEWHERE = '/elsewhere/ox.wasm'; // the server serves the package's wasm here too

async function failedInit(options) {
  try {
    await ox.init(options);
  } catch (error) {
    return { isError: error instanceof Error, message: error.message };
  }
  return { isError: false, message: 'init() resolved' };
}

const answerOf = (worker) => new Promise((resolve, reject) => {
  worker.onmessage = (event) => resolve(event.data);
  worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
});

const scenarios = {
  async default() {
    await ox.init();
    return { ...runChecks(ox), float16: crossCheck(ox) };
  },
  async wasmUrl() {
    await ox.init({ wasmUrl: WASM_ELSEWHERE });
    return runChecks(ox);
  },
  async wasmUrlObject() {
    await ox.init({ wasmUrl: new URL(WASM_ELSEWHERE, location.href) });
    return runChecks(ox);
  },
  async wasmBinary() {
    const bytes = await (await fetch(WASM_ELSEWHERE)).arrayBuffer();
    await ox.init({ wasmBinary: bytes });
    return runChecks(ox);
  },
  // A failed load rejects with a message, and a later init() tries again.
  async missing() {
    const failure = await failedInit({ wasmUrl: '/missing/ox.wasm' });
    await ox.init();
    return { failure, ...runChecks(ox) };
  },
  async html() {
    return { failure: await failedInit({ wasmUrl: '/html/ox.wasm' }) };
  },
  // Served under a Content Security Policy that allows no WebAssembly.
  async blocked() {
    return { failure: await failedInit() };
  },
  async beforeInit() {
    try {
      ox.argMax(new ox.Tensor('float32', new Float32Array([1, 2]), [2]));
      return { message: 'no error' };
    } catch (error) {
      return { message: error.message };
    }
  },
  async worker() {
    return answerOf(new Worker('./worker.mjs', { type: 'module' }));
  },
  async serviceWorker() {
    const registration = await navigator.serviceWorker.register('./service-worker.mjs', { type: 'module' });
    const worker = registration.installing ?? registration.waiting ?? registration.active;
    await new Promise((resolve) => {
      if (worker.state === 'activated') resolve();
      else worker.addEventListener('statechange', () => worker.state === 'activated' && resolve());
    });
    const answer = new Promise((resolve) => navigator.serviceWorker.addEventListener('message', (event) => resolve(event.data), { once: true }));
    worker.postMessage('run');
    const result = await answer;
    await registration.unregister(); // (the pages visited after this one stay uncontrolled)
    return result;
  },
  // One compile, in the page; the page and a worker instantiate that module.
  async wasmModule() {
    const wasmModule = await WebAssembly.compileStreaming(fetch(WASM_ELSEWHERE));
    await ox.init({ wasmModule });
    const worker = new Worker('./worker.mjs?wasmModule', { type: 'module' });
    worker.postMessage(wasmModule);
    return { page: runChecks(ox), worker: await answerOf(worker) };
  },
};

const params = new URLSearchParams(location.search);
try {
  window.__result = await scenarios[params.get('mode') ?? 'default']();
} catch (error) {
  window.__result = { error: String(error?.stack ?? error) };
}
document.getElementById('out').textContent = JSON.stringify(window.__result, null, 1);
// ?report=KEY: a browser nothing drives (Firefox, WebKit: tests/browser/page-suite.mjs) gets the result back
// to the test as a POST.
if (params.has('report')) await fetch(`/__report?${params.get('report')}`, { method: 'POST', body: JSON.stringify(window.__result) });
