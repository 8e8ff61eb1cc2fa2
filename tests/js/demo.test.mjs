// The in-browser demo (examples/web/, `npm run demo`) in headless Debian Chromium: it loads the
// package through its import map, computes the mask and the next token without errors, and its
// results equal a plain loop run here in Node over the same generated data.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLASS_COLOURS, CLASS_NAMES } from '../../examples/web/palette.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { launchChromium, watchForProblems } from '../../scripts/chromium.mjs';
import { CLASSES, HEIGHT, WIDTH, expectedMask, expectedToken, firstDifference } from '../browser/demo-expected.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const artifacts = new URL('../artifacts/', import.meta.url);

// Waits for the page to report done or error. A page whose module never runs (a 404, a syntax
// error) never reports, so the wait stops soon after the first problem and names it.
async function waitUntilFinished(page, problems, timeoutMs = 60_000) {
  const start = Date.now();
  let firstProblemAt = null;
  for (;;) {
    const status = await page.evaluate(() => document.documentElement.dataset.status);
    if (status === 'done' || status === 'error') return;
    if (problems.length > 0) firstProblemAt ??= Date.now();
    if (firstProblemAt !== null && Date.now() - firstProblemAt > 3000)
      throw new Error(`the demo stopped at status '${status}' after: ${problems.join('; ')}`);
    if (Date.now() - start > timeoutMs) throw new Error(`the demo did not finish in ${timeoutMs} ms (status '${status}')`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('the web demo computes the right mask and next token in Chromium, without errors', { timeout: 120_000 }, async (t) => {
  assert.ok(existsSync(new URL('dist/ox.wasm', `file://${repoRoot}`)), 'dist/ox.wasm is missing: run `bash scripts/build.sh wasm` first');

  const server = await startStaticServer({ root: repoRoot });
  t.after(() => server.close());
  const browser = await launchChromium();
  t.after(() => browser.close());

  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const problems = watchForProblems(page, server.url);
  const served = new Map(); // path -> content-type, to check how the package was loaded
  page.on('response', (response) => served.set(new URL(response.url()).pathname, response.headers()['content-type']));

  await page.goto(`${server.url}examples/web/`);
  await waitUntilFinished(page, problems);
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL('demo.png', artifacts)), fullPage: true });

  const state = await page.evaluate(() => ({ ...window.onnxExtremaDemo, mask: Array.from(window.onnxExtremaDemo.mask ?? []) }));
  assert.equal(state.status, 'done', `the page reported an error: ${state.error}`);
  assert.deepEqual(problems, [], 'the page logged errors or made failing/outside requests');

  // Loaded as a browser user would: the bare specifier through the import map, the wasm beside it.
  assert.match(served.get('/js/index.mjs') ?? 'not requested', /^text\/javascript/);
  assert.equal(served.get('/dist/ox.wasm'), 'application/wasm');

  // The mask: the whole [1, 256, 256] argmax equals the plain loop's, pixel for pixel.
  const expected = expectedMask();
  assert.deepEqual(state.maskDims, [1, HEIGHT, WIDTH]);
  assert.equal(state.mask.length, expected.length);
  assert.equal(firstDifference(state.mask, expected), null);
  assert.ok(new Set(expected).size >= 15, 'the generated data should show most classes'); // guards the data itself
  assert.deepEqual(state.differences, { byPixel: 0, byClass: 0 });

  // What is drawn: every canvas pixel has its expected class's colour.
  const drawn = await page.evaluate(() => {
    const canvas = document.getElementById('mask');
    return Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data);
  });
  assert.equal(drawn.length, expected.length * 4);
  const wrongColour = expected.findIndex((c, p) => CLASS_COLOURS[c].some((v, k) => drawn[p * 4 + k] !== v) || drawn[p * 4 + 3] !== 255);
  assert.equal(wrongColour, -1, `canvas pixel ${wrongColour} does not have the colour of class ${expected[wrongColour]}`);

  // Pointing at the mask names the pixel's class (the canvas is drawn at 2 CSS pixels per mask pixel).
  const box = await page.locator('#mask').boundingBox();
  const scale = box.width / WIDTH;
  for (const [x, y] of [[128, 128], [20, 230]]) {
    await page.mouse.move(box.x + (x + 0.5) * scale, box.y + (y + 0.5) * scale);
    const c = expected[y * WIDTH + x];
    assert.match(await page.textContent('#pixel-info'), new RegExp(`^pixel \\(${x}, ${y}\\): class ${c} ${CLASS_NAMES[c]}, score `));
  }

  // The legend lists every class with its share of pixels.
  const legend = await page.$$eval('#legend li', (items) => items.map((li) => li.textContent));
  assert.equal(legend.length, CLASSES);
  for (let c = 0; c < CLASSES; c += 1) {
    const share = ((100 * expected.filter((e) => e === c).length) / expected.length).toFixed(1);
    assert.equal(legend[c], `${c} ${CLASS_NAMES[c]}${share}%`);
  }

  // The timing panels show a median for every method and say the results agree.
  const timingCells = await page.$$eval('#timings td.time, #greedy-timings td.time', (cells) => cells.map((td) => td.textContent));
  assert.equal(timingCells.length, 5);
  for (const cell of timingCells) assert.match(cell, /^\d+(\.\d+)? (ms|µs)$/);
  for (const millis of [...Object.values(state.segmentationMillis), ...Object.values(state.greedyMillis)])
    assert.ok(Number.isFinite(millis) && millis > 0, `timing ${millis}`);
  const ms = (o) => Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(3)} ms`).join(', ');
  t.diagnostic(`mask: ${ms(state.segmentationMillis)}; next token: ${ms(state.greedyMillis)} (timings are shown, never asserted)`);
  assert.match(await page.textContent('#verdict'), /All three masks are identical on all 65,536 pixels/);

  // Greedy decoding: the next token equals the plain loop's.
  assert.equal(state.token, expectedToken());
  assert.equal(state.tokenAgrees, true);
  assert.equal(await page.textContent('#token'), String(expectedToken()));
});
