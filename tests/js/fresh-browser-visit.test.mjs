// The page visit of the browser tests and bench/call-loop.mjs (scripts/fresh-browser-visit.mjs),
// with made-up browsers: one that never asks the server for its page is replaced once by a fresh
// one; two such fail, naming it; a page that was fetched and then never reported fails without a
// second browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { visitInFreshBrowser } from '../../scripts/fresh-browser-visit.mjs';

const FETCH_MS = 60;
const REPORT_MS = 400;

// Made-up browsers for a made-up server `on`: the n-th opened (from 0) does what behaviours[n]
// says: 'hang' asks for nothing, 'silent' asks for its page and never reports, 'report' asks for
// its page and reports 'ok <url>'. Each one's until() bounds the wait as pageProcess's does.
function browsers(behaviours) {
  const on = { requests: [] };
  const opened = [];
  const open = async (url) => {
    const behaviour = behaviours[opened.length];
    const browser = {
      url,
      closed: false,
      until(promise, ms, what) {
        let timer;
        const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms / 1000} s`)), ms)));
        return Promise.race([promise, late]).finally(() => clearTimeout(timer));
      },
      async close() {
        browser.closed = true;
      },
    };
    opened.push(browser);
    if (behaviour !== 'hang') setTimeout(() => on.requests.push(new URL(url).pathname), 5);
    return browser;
  };
  let tries = 0;
  const released = [];
  const attempt = () => {
    const n = tries++;
    const url = `http://127.0.0.1/page.html?report=${n}`;
    const report = behaviours[n] === 'report' ? new Promise((resolve) => setTimeout(() => resolve(`ok ${url}`), 20)) : new Promise(() => {});
    return { url, report, release: () => released.push(n) };
  };
  return { on, open, opened, attempt, released };
}

const options = { what: "/page.html's report", reportMs: REPORT_MS, fetchMs: FETCH_MS };

test('fresh-browser visit: a page fetched and reported at once is one browser, closed after', async () => {
  const b = browsers(['report']);
  const { text, first } = await visitInFreshBrowser(b.open, b.on, b.attempt, options);
  assert.equal(text, 'ok http://127.0.0.1/page.html?report=0');
  assert.equal(first, 0);
  assert.equal(b.opened.length, 1);
  assert.equal(b.opened[0].closed, true);
  assert.deepEqual(b.released, [0]);
});

test('fresh-browser visit: a browser that asks for nothing is closed and a fresh one opened, once', async () => {
  const b = browsers(['hang', 'report']);
  const t0 = Date.now();
  const { text, first } = await visitInFreshBrowser(b.open, b.on, b.attempt, options);
  assert.ok(Date.now() - t0 >= FETCH_MS - 5);
  assert.equal(text, 'ok http://127.0.0.1/page.html?report=1');
  assert.equal(first, 0); // (the first browser asked for nothing)
  assert.deepEqual(b.opened.map((o) => o.closed), [true, true]);
  assert.deepEqual(b.released, [0, 1]);
});

test('fresh-browser visit: two browsers that ask for nothing fail, naming it', async () => {
  const b = browsers(['hang', 'hang', 'report']);
  await assert.rejects(
    visitInFreshBrowser(b.open, b.on, b.attempt, options),
    /^Error: \/page\.html's report: the browser asked for nothing in 0\.06 s, in each of two fresh browsers$/,
  );
  assert.equal(b.opened.length, 2);
  assert.deepEqual(b.opened.map((o) => o.closed), [true, true]);
});

test('fresh-browser visit: a page fetched that never reports fails at the report limit, in one browser', async () => {
  const b = browsers(['silent', 'report']);
  const t0 = Date.now();
  await assert.rejects(visitInFreshBrowser(b.open, b.on, b.attempt, options), /^Error: \/page\.html's report: nothing in 0\.4 s$/);
  assert.ok(Date.now() - t0 >= REPORT_MS - 5);
  assert.equal(b.opened.length, 1);
  assert.equal(b.opened[0].closed, true);
});
