// `npm run bench -- --browser=firefox`: the runtimes in headless Firefox (Debian's firefox-esr,
// scripts/firefox.mjs), one Firefox process per runtime, each with one page (runtime.html), as
// host.mjs opens one Chromium page per runtime. Nothing drives Debian's Firefox, so the pages
// talk over HTTP (runtime.mjs, ?channel=post): a page POSTs its answer to the static server, and
// the server's reply is the controller's next message, held until the controller sends one.
import { fileURLToPath } from 'node:url';
import { openInFirefox } from '../../scripts/firefox.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { ISOLATION } from './host.mjs';

// performance.now() at full precision (Firefox coarsens it to 20 us or more otherwise, and
// jitters it); the pages are the bench's own, not a site that could fingerprint.
const BENCH_PREFS = {
  'privacy.reduceTimerPrecision': false,
  'privacy.reduceTimerPrecision.unconditional': false,
  'privacy.resistFingerprinting.reduceTimerPrecision.jitter': false,
};
const READY_TIMEOUT_MS = 120_000;
// A content process that crashed leaves its Firefox running and the page's answer never coming.
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

/** Starts the server; `startRuntime(name)` starts a Firefox for it and gives the same
 * { name, ready, ask } as run.mjs's Node processes; `close()` ends all. */
export async function openFirefoxBench() {
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
      const firefox = await openInFirefox(`${server.origin}/bench/browser/runtime.html?runtime=${encodeURIComponent(name)}&channel=post`, { prefs: BENCH_PREFS });
      browsers.push(firefox);
      const unwrap = ({ value, error }) => {
        if (error !== undefined) throw new Error(`${name}: ${error}`);
        return value;
      };
      const ready = firefox.until(ch.first(), READY_TIMEOUT_MS, `${name}: its page's start`).then(unwrap);
      let queue = ready; // one message at a time, after the page is ready
      const ask = (msg) => {
        const step = queue.then(async () => {
          // (once its Firefox has ended, every message fails naming that)
          const answer = (m) => firefox.until(ch.send(m), ANSWER_TIMEOUT_MS, `${name}: ${m.cmd}`);
          if (msg.cmd !== 'exit') return unwrap(await answer(msg));
          await answer({ cmd: 'teardown' }).catch(() => {});
          ch.send({ cmd: 'exit' }).catch(() => {}); // (the page ends its loop: no answer comes; or it has ended)
          return undefined;
        });
        queue = step.catch(() => {});
        return step;
      };
      return { name, ready, ask };
    },
    async close() {
      await Promise.allSettled(browsers.map((b) => b.close()));
      await server.close();
    },
  };
}
