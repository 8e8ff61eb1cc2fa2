// demo-report.html's script: waits for the demo in its frame to finish (<html data-status>), then
// POSTs its state (window.onnxExtremaDemo), what its page says, and the first canvas pixel whose
// colour is not its class's (-1: none).
import { CLASS_COLOURS } from '/examples/web/palette.mjs';

const TIMEOUT_MS = 60_000;
const key = new URLSearchParams(location.search).get('report');
const frame = document.getElementById('demo');
const report = (result) => {
  window.__result = result;
  return fetch(`/__report?${key}`, { method: 'POST', body: JSON.stringify(result) });
};

const start = Date.now();
let status;
for (;;) {
  status = frame.contentDocument?.documentElement?.dataset.status;
  if (status === 'done' || status === 'error' || Date.now() - start > TIMEOUT_MS) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
if (status !== 'done' && status !== 'error') {
  await report({ error: `the demo did not finish in ${TIMEOUT_MS / 1000} s (status '${status}')` });
} else {
  const doc = frame.contentDocument;
  const state = frame.contentWindow.onnxExtremaDemo;
  const mask = Array.from(state.mask ?? []);
  const canvas = doc.getElementById('mask');
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const wrongColour = mask.findIndex((c, p) => CLASS_COLOURS[c].some((v, k) => pixels[p * 4 + k] !== v) || pixels[p * 4 + 3] !== 255);
  await report({
    error: state.status === 'error' ? `the demo reported: ${state.error}` : undefined,
    maskDims: state.maskDims,
    mask,
    differences: state.differences,
    token: state.token,
    tokenAgrees: state.tokenAgrees,
    canvasPixels: pixels.length / 4,
    wrongColour,
    verdict: doc.getElementById('verdict').textContent,
    tokenText: doc.getElementById('token').textContent,
  });
}
