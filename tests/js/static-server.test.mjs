// scripts/static-server.mjs: MIME types browsers need, index.html for folders, and no file
// outside the root, however the path is spelled.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { startStaticServer } from '../../scripts/static-server.mjs';

// A raw GET that sends the path exactly as written (fetch would normalise '..' away first).
function get(port, rawPath) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('static server: types, folders, 404 and no way out of the root', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'onnx-extrema-static-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'root');
  await mkdir(path.join(root, 'web'), { recursive: true });
  await writeFile(path.join(dir, 'secret.txt'), 'SECRET');
  await writeFile(path.join(dir, 'root-sibling.txt'), 'SIBLING'); // shares the root's name prefix
  const files = { 'a.mjs': 'export {};', 'b.js': '1;', 'c.wasm': '\0asm', 'd.html': '<p>', 'e.css': 'p{}', 'f.json': '{}', 'g.png': 'png', 'h.bin': 'x' };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(root, name), text);
  await writeFile(path.join(root, 'web', 'index.html'), 'INDEX');

  const server = await startStaticServer({ root, headers: { 'x-extra': 'yes' } });
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

  const types = {
    'a.mjs': 'text/javascript; charset=utf-8',
    'b.js': 'text/javascript; charset=utf-8',
    'c.wasm': 'application/wasm',
    'd.html': 'text/html; charset=utf-8',
    'e.css': 'text/css; charset=utf-8',
    'f.json': 'application/json; charset=utf-8',
    'g.png': 'image/png',
    'h.bin': 'application/octet-stream',
  };
  for (const [name, type] of Object.entries(types)) {
    const res = await get(server.port, `/${name}`);
    assert.equal(res.status, 200, name);
    assert.equal(res.headers['content-type'], type, name);
    assert.equal(res.headers['x-extra'], 'yes');
    assert.equal(res.body, files[name]);
  }

  assert.deepEqual(await get(server.port, '/web/').then((r) => [r.status, r.body]), [200, 'INDEX']);
  const redirect = await get(server.port, '/web?x=1');
  assert.deepEqual([redirect.status, redirect.headers.location], [301, '/web/?x=1']);
  assert.equal((await get(server.port, '/missing.js')).status, 404);
  assert.equal((await get(server.port, '/')).status, 404); // no index.html at the root, no listing

  for (const attempt of [
    '/../secret.txt',
    '/web/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2e%2e%5csecret.txt',
    '/../root-sibling.txt',
    '/%00secret.txt',
    '/%zz',
  ]) {
    const res = await get(server.port, attempt);
    assert.ok([403, 404].includes(res.status), `${attempt} answered ${res.status}`);
    assert.ok(!/SECRET|SIBLING|root:/.test(res.body), `${attempt} leaked a file`);
  }
});

test('static server: a busy port is an error, port 0 picks a free one', async (t) => {
  const first = await startStaticServer({ root: tmpdir() });
  t.after(() => first.close());
  await assert.rejects(startStaticServer({ root: tmpdir(), port: first.port }), { code: 'EADDRINUSE' });
  const second = await startStaticServer({ root: tmpdir(), port: 0 });
  assert.notEqual(second.port, first.port);
  await second.close();
});

// A page's result POSTed back (scripts/firefox.mjs drives nothing, so pages report this way).
test('static server: POST /__report reaches onReport with its key, answered by what it returns; no other POST does, nor any without onReport', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'onnx-extrema-static-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const reports = [];
  const onReport = (key, text) => {
    reports.push([key, text]);
    return key === 'ask' ? new Promise((resolve) => setTimeout(() => resolve('{"cmd":"next"}'), 50)) : undefined;
  };
  const server = await startStaticServer({ root: dir, onReport });
  t.after(() => server.close());
  const post = async (on, where, body) => (await fetch(`${on.origin}${where}`, { method: 'POST', body })).status;
  const text = JSON.stringify({ checks: 31, failures: [], note: 'é'.repeat(70_000) }); // several chunks, multi-byte
  assert.equal(await post(server, '/__report?7', text), 204);
  assert.deepEqual(reports, [['7', text]]);
  const asked = await fetch(`${server.origin}/__report?ask`, { method: 'POST', body: '{}' });
  assert.deepEqual([asked.status, asked.headers.get('content-type'), await asked.text()], [200, 'application/json; charset=utf-8', '{"cmd":"next"}']);
  reports.pop();
  // The limit is on bytes: 8.5 Mi two-byte characters are 17 MiB (under 16 Mi characters).
  assert.equal(await post(server, '/__report?9', 'é'.repeat(17 << 19)), 413);
  assert.equal(reports.length, 1);
  assert.equal(await post(server, '/other', 'x'), 405);
  const plain = await startStaticServer({ root: dir });
  t.after(() => plain.close());
  assert.equal(await post(plain, '/__report?8', 'x'), 405);
  assert.equal(reports.length, 1);
});
