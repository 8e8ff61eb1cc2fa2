// The demo page: load onnx-extrema, compute the mask and the next token, show them and the timings.
// The page's state is also on window.onnxExtremaDemo and <html data-status> for the browser test.
import { init } from 'onnx-extrema';
import { greedyNextToken } from './greedy.mjs';
import { HEIGHT, WIDTH, segment } from './segmentation.mjs';
import { nextFrame } from './timing.mjs';
import { describePixel, drawMask, fillLegend, fillTimings } from './view.mjs';

const $ = (id) => document.getElementById(id);
const state = (window.onnxExtremaDemo = { status: 'loading' });

function setStatus(status, text) {
  state.status = status;
  document.documentElement.dataset.status = status;
  $('status').textContent = text;
  $('status').className = `status ${status}`;
}

async function run() {
  $('rerun').disabled = true;
  setStatus('running', 'Computing the mask and timing it…');
  await nextFrame();

  const seg = segment();
  drawMask($('mask'), seg.mask, WIDTH, HEIGHT);
  fillLegend($('legend'), seg.mask);
  $('mask-dims').textContent = `[${seg.dims.join(', ')}]`;
  $('mask').onpointermove = (event) => ($('pixel-info').textContent = describePixel(event, $('mask'), seg, WIDTH, HEIGHT));
  const differ = (n) => (n === 0 ? '' : `${n} pixels differ`);
  fillTimings($('timings'), [
    { name: '<strong>onnx-extrema</strong> <code>argMax</code>', millis: seg.timings.ours, ours: true },
    { name: 'JS loop, pixel by pixel', millis: seg.timings.byPixel, agree: seg.differences.byPixel === 0, agreeText: differ(seg.differences.byPixel) },
    { name: 'JS loop, class by class', millis: seg.timings.byClass, agree: seg.differences.byClass === 0, agreeText: differ(seg.differences.byClass) },
  ]);
  const masksAgree = seg.differences.byPixel === 0 && seg.differences.byClass === 0;
  $('verdict').textContent = masksAgree
    ? `✓ All three masks are identical on all ${seg.mask.length.toLocaleString('en')} pixels.`
    : '✗ The masks differ: see the table.';
  $('verdict').className = `verdict ${masksAgree ? 'agree' : 'differ'}`;
  await nextFrame();

  const greedy = greedyNextToken();
  $('token').textContent = String(greedy.token);
  $('token-logit').textContent = `(logit ${greedy.logit.toFixed(3)})`;
  fillTimings($('greedy-timings'), [
    { name: '<strong>onnx-extrema</strong> <code>argMax</code>', millis: greedy.timings.ours, ours: true },
    { name: 'JS loop', millis: greedy.timings.loop, agree: greedy.agree },
  ]);

  Object.assign(state, {
    mask: seg.mask, // Uint8Array of class ids, row-major [256, 256]
    maskDims: seg.dims,
    differences: seg.differences,
    segmentationMillis: seg.timings,
    token: greedy.token,
    tokenAgrees: greedy.agree,
    greedyMillis: greedy.timings,
  });
  const allAgree = masksAgree && greedy.agree;
  setStatus('done', allAgree ? 'Done: onnx-extrema and the plain JS loops agree.' : 'Done, but the results DIFFER: see below.');
  $('rerun').disabled = false;
}

function fail(error) {
  state.error = String(error?.stack ?? error);
  setStatus('error', `Error: ${error?.message ?? error}`);
  console.error(error);
}

$('rerun').addEventListener('click', () => run().catch(fail));
try {
  await init(); // fetches ox.wasm next to the package's JS (new URL('../dist/ox.wasm', import.meta.url))
  await run();
} catch (error) {
  fail(error);
}
