// One bench case's onnx-extrema call in a loop in a page of headless Chromium, Firefox or WebKit
// (bench/browser/call-loop.html): the µs a call, and in each half second of the loop, which shows
// how far the call's time moves inside one page while its code is unchanged (a tier reached, code
// thrown away), and so how far a bench run's one reading can be trusted.
//   node bench/call-loop.mjs [--browser=chromium|firefox|webkit] [--case=tiny] [--seconds=4]
//                            [--resident] [--out] [--afterAll] [--pages=1] [--root=DIR]
// --pages=N opens N pages one after another (a fresh JIT state each); --root serves another
// checkout (a git worktree of an older commit, with its own dist/ and node_modules) for an
// old-against-new comparison: a checkout older than the page needs this one's
// bench/browser/call-loop.{html,mjs} copied in.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ISOLATION } from './browser/host.mjs';
import { callLoopQuery, callLoopSummary } from './lib/call-loop.mjs';
import { optionNumber, optionText } from './lib/options.mjs';
import { launchChromium } from '../scripts/chromium.mjs';
import { openInFirefox } from '../scripts/firefox.mjs';
import { visitInFreshBrowser } from '../scripts/fresh-browser-visit.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { openInWebKit } from '../scripts/webkit.mjs';

const browser = optionText('browser', 'chromium');
const seconds = optionNumber('seconds', 4);
const pages = optionNumber('pages', 1);
const root = path.resolve(optionText('root', fileURLToPath(new URL('..', import.meta.url))));
const query = callLoopQuery(process.argv, { caseName: optionText('case', 'tiny'), seconds });
const OPENERS = { chromium: openInChromium, firefox: openInFirefox, webkit: openInWebKit };
if (!OPENERS[browser]) throw new Error(`--browser must be one of ${Object.keys(OPENERS).join(', ')}, got '${browser}'`);

let reported;
const onReport = (key, text) => {
  if (key === 'call-loop') reported?.(JSON.parse(text));
  return '{}';
};
const server = await startStaticServer({ root, headers: ISOLATION, onReport });
try {
  for (let p = 0; p < pages; p += 1) {
    const attempt = () => ({
      url: `${server.origin}/bench/browser/call-loop.html?${query}`,
      report: new Promise((resolve) => (reported = resolve)),
      release: () => (reported = undefined),
    });
    // (a browser that asks for nothing is replaced once: fresh-browser-visit.mjs)
    const { text: result } = await visitInFreshBrowser(OPENERS[browser], server, attempt, { what: 'the call loop', reportMs: (seconds + 120) * 1000 });
    if (result.error) throw new Error(`the page: ${result.error}`);
    console.log(callLoopSummary(query, result));
  }
} finally {
  await server.close();
}

// Chromium through playwright-core, in the shape of openInFirefox's and openInWebKit's page.
async function openInChromium(url) {
  const chromium = await launchChromium();
  const tab = await chromium.context.newPage();
  let crashed;
  const gone = new Promise((_, reject) => (crashed = reject));
  gone.catch(() => {}); // (read by until(); a crash after it is no one's concern)
  tab.on('crash', () => crashed(new Error('the page crashed')));
  await tab.goto(url);
  return {
    until: (promise, ms, what) => {
      let timer;
      const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms / 1000} s`)), ms)));
      return Promise.race([promise, gone, late]).finally(() => clearTimeout(timer));
    },
    close: () => chromium.close(),
  };
}
