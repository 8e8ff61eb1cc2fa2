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

// One runtime's messages: strictly alternating, an answer from the page (its ready info first)
// and the controller's next message as the reply to that POST.
function channel() {
  let replyTo = null; // resolves the page's outstanding POST
  let nextAnswer = null;
  let answered = new Promise((resolve) => (nextAnswer = resolve));
  return {
    fromPage(text) {
      const { value, error } = JSON.parse(text);
      nextAnswer(error === undefined ? { value } : { error });
      answered = new Promise((resolve) => (nextAnswer = resolve));
      return new Promise((resolve) => (replyTo = resolve));
    },
    first: () => answered,
    async send(msg) {
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
      const ended = firefox.exited.then(({ code, signal, output }) => {
        throw new Error(`${name}: Firefox ended (code ${code}, signal ${signal}): ${output.slice(-400)}`);
      });
      ended.catch(() => {}); // (read where a message waits on it)
      const unwrap = ({ value, error }) => {
        if (error !== undefined) throw new Error(`${name}: ${error}`);
        return value;
      };
      let timer;
      const ready = Promise.race([
        ch.first(),
        ended,
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${name}: the page did not start in ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS))),
      ]).then(unwrap).finally(() => clearTimeout(timer));
      let queue = ready; // one message at a time, after the page is ready
      const ask = (msg) => {
        const step = queue.then(async () => {
          if (msg.cmd !== 'exit') return unwrap(await Promise.race([ch.send(msg), ended]));
          await Promise.race([ch.send({ cmd: 'teardown' }), ended]).catch(() => {});
          ch.send({ cmd: 'exit' }); // (the page ends its loop: no answer comes)
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
