// One page visit in a new browser (openInFirefox, openInWebKit, or Chromium in that shape: the
// browser tests' page suite, bench/call-loop.mjs), made again once in a fresh browser when the
// first never asked the server for anything: once so far in these hosts' CI runs a WebKitGTK page
// sent nothing for 120 s under load, where a page is fetched within a second or two. A page that
// was fetched and then did not report still fails: that is the package's fault or the page's,
// not the browser's start.

export const FETCH_TIMEOUT_MS = 30_000;
const UNFETCHED = Symbol('unfetched');

/**
 * `attempt()` gives one try's `{ url, report, release }`: the page's URL, a promise of what the
 * page will report (its text, or the value parsed from it), and a function that stops waiting for
 * it. The page is opened with `open(url)` (`{ until, close }`), whose `until` bounds the wait by
 * `reportMs`; `on` is the static server (its `requests`, every path asked for). Resolves
 * `{ text, first }`: what `report` resolved to, and the index in `on.requests` of the first
 * request of the try that reported. `what` names the wait in errors.
 */
export async function visitInFreshBrowser(open, on, attempt, { what, reportMs, fetchMs = FETCH_TIMEOUT_MS, tries = 2 }) {
  const { url, report, release } = attempt();
  const first = on.requests.length;
  let browser;
  let timer;
  let text;
  try {
    browser = await open(url);
    const unfetched = new Promise((resolve) => (timer = setTimeout(() => on.requests.length === first && resolve(UNFETCHED), fetchMs)));
    text = await browser.until(Promise.race([report, unfetched]), reportMs, what);
  } finally {
    clearTimeout(timer);
    release();
    await browser?.close();
  }
  if (text !== UNFETCHED) return { text, first };
  if (tries > 1) return visitInFreshBrowser(open, on, attempt, { what, reportMs, fetchMs, tries: tries - 1 });
  throw new Error(`${what}: the browser asked for nothing in ${fetchMs / 1000} s, in each of two fresh browsers`);
}
