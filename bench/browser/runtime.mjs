// The page side of one bench runtime: serve.mjs answers the controller. In Chromium the
// controller reaches it through window.__ask (host.mjs, with Playwright's page.evaluate); in
// Firefox and WebKit, which nothing drives (post-host.mjs), ?channel=post: the page POSTs each
// answer to the server and the reply is its next message.
import { serveRuntime } from '../runtimes/serve.mjs';

const params = new URLSearchParams(location.search);
const name = params.get('runtime');
const browserName = () => {
  if (params.has('browser')) return params.get('browser'); // (WebKitGTK's user agent names no version)
  const firefox = /Firefox\/([\d.]+)/.exec(navigator.userAgent);
  return firefox ? `Firefox ${firefox[1]}` : `Chromium ${/Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? '?'}`;
};
window.__runtime = serveRuntime(name).then((runtime) => {
  window.__ask = (msg) => runtime.handle(msg);
  return { ...runtime.info, browser: browserName(), crossOriginIsolated: globalThis.crossOriginIsolated === true };
});

if (params.get('channel') === 'post') {
  const answer = (promise) => promise.then((value) => ({ value }), (error) => ({ error: String(error?.message ?? error) }));
  let reply = await answer(window.__runtime);
  for (;;) {
    const response = await fetch(`/__report?${encodeURIComponent(name)}`, { method: 'POST', body: JSON.stringify(reply) });
    const msg = await response.json();
    if (msg.cmd === 'exit') break;
    reply = await answer(window.__ask(msg));
  }
}
