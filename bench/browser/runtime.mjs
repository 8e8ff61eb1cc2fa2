// The page side of one bench runtime: serve.mjs answers the controller, which reaches it through
// window.__ask (host.mjs, with Playwright's page.evaluate).
import { serveRuntime } from '../runtimes/serve.mjs';

const name = new URLSearchParams(location.search).get('runtime');
window.__runtime = serveRuntime(name).then((runtime) => {
  window.__ask = (msg) => runtime.handle(msg);
  const browser = `Chromium ${/Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? '?'}`;
  return { ...runtime.info, browser, crossOriginIsolated: globalThis.crossOriginIsolated === true };
});
