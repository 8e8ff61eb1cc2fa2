// `npm run bench -- --browser=firefox` and `--browser=webkit`: the runtimes in headless Firefox
// (Debian's firefox-esr, scripts/firefox.mjs) or WebKit (WebKitGTK's MiniBrowser on a virtual X
// server, scripts/webkit.mjs), one browser process per runtime, each with one page (runtime.html),
// as host.mjs opens one Chromium page per runtime. Nothing drives these browsers, so the pages
// talk over HTTP (runtime.mjs, ?channel=post): a page POSTs its answer to the static server, and
// the server's reply is the controller's next message, held until the controller sends one.
import { fileURLToPath } from 'node:url';
import { openInFirefox } from '../../scripts/firefox.mjs';
import { openInWebKit, webKitName } from '../../scripts/webkit.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { ISOLATION } from './host.mjs';

// performance.now() at full precision (Firefox coarsens it to 20 us or more otherwise, and
// jitters it); the pages are the bench's own, not a site that could fingerprint.
const BENCH_PREFS = {
  'privacy.reduceTimerPrecision': false,
  'privacy.reduceTimerPrecision.unconditional': false,
  'privacy.resistFingerprinting.reduceTimerPrecision.jitter': false,
};
// A page starts in a few seconds even under load; one that sent nothing in a minute has a browser
// that will not (supervised.mjs then tries a fresh one once, within the bench test's limit).
const READY_TIMEOUT_MS = 60_000;
// A content process that crashed leaves its browser running and the page's answer never coming.
// (run.mjs ends a runtime that takes longer than its own, shorter limit: lib/supervised.mjs.)
const ANSWER_TIMEOUT_MS = 600_000;

// One runtime's messages: strictly alternating, an answer from the page (its ready info first)
// and the controller's next message as the reply to that POST.
function channel() {
  let replyTo = null; // resolves the page's outstanding POST
  let nextAnswer = null;
  let answered = new Promise((resolve) => (nextAnswer = resolve));
  const first = answered; // the page's ready info
  return {
    fromPage(text) {
      const { value, error } = JSON.parse(text);
      nextAnswer(error === undefined ? { value } : { error });
      answered = new Promise((resolve) => (nextAnswer = resolve));
      return new Promise((resolve) => (replyTo = resolve));
    },
    first: () => first,
    async send(msg) {
      if (!replyTo) throw new Error('its page has not answered the message before');
      const answer = answered;
      replyTo(JSON.stringify(msg));
      replyTo = null;
      return answer;
    },
  };
}

/** The bench in Firefox (see openPostBench). */
export const openFirefoxBench = () => openPostBench((url) => openInFirefox(url, { prefs: BENCH_PREFS }));
/** The bench in WebKit (see openPostBench); its clock ticks in 20 us in cross-origin isolated pages. */
export const openWebKitBench = () => openPostBench(openInWebKit, webKitName());

/** Starts the server; `startRuntime(name)` starts a browser for it (`openPage(url)`: { until,
 * hasEnded, close }) and gives the same { name, ready, ask, end, gone } as run.mjs's Node
 * processes (end: closes that browser); `close()` ends all.
 * `browserName`: what the pages report as their browser, where the user agent does not say. */
async function openPostBench(openPage, browserName) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const channels = new Map(); // runtime name -> channel
  const server = await startStaticServer({
    root,
    headers: ISOLATION,
    onReport: (key, text) => channels.get(decodeURIComponent(key))?.fromPage(text),
  });
  const browsers = [];
  return {
    async startRuntime(name) {
      const ch = channel();
      channels.set(name, ch);
      const browser = await openPage(`${server.origin}/bench/browser/runtime.html?runtime=${encodeURIComponent(name)}&channel=post${browserName ? `&browser=${encodeURIComponent(browserName)}` : ''}`);
      browsers.push(browser);
      const unwrap = ({ value, error }) => {
        if (error !== undefined) throw new Error(`${name}: ${error}`);
        return value;
      };
      const ready = browser.until(ch.first(), READY_TIMEOUT_MS, `${name}: its page's start`).then(unwrap);
      let queue = ready; // one message at a time, after the page is ready
      const ask = (msg) => {
        const step = queue.then(async () => {
          // (once its browser has ended, every message fails naming that)
          const answer = (m) => browser.until(ch.send(m), ANSWER_TIMEOUT_MS, `${name}: ${m.cmd}`);
          if (msg.cmd !== 'exit') return unwrap(await answer(msg));
          await answer({ cmd: 'teardown' }).catch(() => {});
          ch.send({ cmd: 'exit' }).catch(() => {}); // (the page ends its loop: no answer comes; or it has ended)
          return undefined;
        });
        queue = step.catch(() => {});
        return step;
      };
      return { name, ready, ask, end: () => browser.close(), gone: () => browser.hasEnded() };
    },
    async close() {
      await Promise.allSettled(browsers.map((b) => b.close()));
      await server.close();
    },
  };
}
