// `npm run bench -- --browser`: the runtimes in headless Chromium instead of Node processes.
// A static server (scripts/static-server.mjs) serves the repository with the headers of cross-origin
// isolation (onnxruntime-web's threads need SharedArrayBuffer, and timers are finer there: 5 us
// against 100); Debian's chromium (scripts/chromium.mjs) opens one page per runtime
// (runtime.html), so each has its own realm, as each Node runtime has its own process. The pages
// share the renderer's allocator (PartitionAlloc), not glibc's malloc as Node does.
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../scripts/chromium.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';

// Pages in the background run at full speed; gc() for serve.mjs between batches, as in Node.
const BENCH_ARGS = ['--disable-renderer-backgrounding', '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows', '--js-flags=--expose-gc'];
const CRASHED = 'the page crashed';
export const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

/** Starts the server and the browser; `startRuntime(name)` gives the same { name, ready, ask,
 * end, gone } as run.mjs's Node processes (ready: the runtime's info, with the page's browser and
 * isolation; end: closes that page); `close()` ends both. */
export async function openBrowser() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const server = await startStaticServer({ root, headers: ISOLATION });
  let chromium;
  try {
    chromium = await launchChromium({ args: BENCH_ARGS });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    async startRuntime(name) {
      const page = await chromium.context.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('crash', () => problems.push(CRASHED));
      const failed = (error) => new Error(`${name}: ${String(error?.message ?? error).split('\n')[0]}${problems.length ? ` (page: ${problems.join('; ')})` : ''}`);
      const ready = (async () => {
        await page.goto(`${server.origin}/bench/browser/runtime.html?runtime=${encodeURIComponent(name)}`);
        await page.waitForFunction(() => window.__runtime !== undefined, null, { timeout: 60_000 });
        return page.evaluate(() => window.__runtime);
      })().catch((error) => {
        throw failed(error);
      });
      const ask = async (msg) => {
        if (msg.cmd === 'exit') {
          await page.evaluate((m) => window.__ask(m), { cmd: 'teardown' }).catch(() => {});
          return page.close();
        }
        try {
          return await page.evaluate((m) => window.__ask(m), msg);
        } catch (error) {
          throw failed(error);
        }
      };
      const end = () => page.close().catch(() => {});
      return { name, ready, ask, end, gone: () => page.isClosed() || problems.includes(CRASHED) };
    },
    async close() {
      await chromium.close();
      await server.close();
    },
  };
}
