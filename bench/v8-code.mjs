// The x64 code V8 (TurboFan) makes of the kernels, loop by loop: how many instructions an
// iteration issues, of which kinds, and whether registers spill. On the AMD hosts here a kernel
// loop in cache is bound by how many operations it issues (about six a cycle, scalar ones and
// register moves included) and by spills, so this tells why a change to a hot loop measured as it
// did, before guessing.
//   node bench/v8-code.mjs CASE FUNCTION [--listing] [--tiered]
// CASE is a bench/kernels.mjs case (run once, in cache: --cached), FUNCTION a substring of the
// C++ names of the functions to show (e.g. 'ColumnScan<ox::FloatLanes<float>, ox::ArgRule<ox::
// Traits<(ox::DType)1>, (ox::Direction)0, false>, true>::sweep'); --listing prints each loop too.
// --tiered shows the code a timed run executes: Liftoff first, then TurboFan with Liftoff's
// feedback (the case run a few rounds; the last TurboFan compile of each function). Node 26's
// TurboFan inlines by that feedback, so its tiered code can differ much from the default's
// (--no-liftoff): MaxKernels<uint8>::rows, 6,551 instructions by default, 2,070 tiered.
// The module is the bench build (kernels.mjs's, with its timing hooks) linked once more keeping its
// function names, which the build's function reordering drops (scripts/order-functions.mjs), into
// bench/build/named/. Needs a Node whose V8 prints code (--print-wasm-code: Node 20 and 26 do; run
// this script with that Node). Functions compile lazily, each with TurboFan at its first call, so
// the listing holds the functions the case ran: with --no-wasm-lazy-compilation Node 26's module
// never finished loading.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const [caseName, wanted] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const LISTING = process.argv.includes('--listing');
const TIERED = process.argv.includes('--tiered');
if (!caseName || !wanted) throw new Error('usage: node bench/v8-code.mjs CASE FUNCTION [--listing] [--tiered]');

// The bench module's link line (ninja knows it), without the reordering step, into named/.
function linkNamed() {
  const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
  execFileSync(process.execPath, ['bench/kernels.mjs', 'none-such', '--rounds=1'], { cwd: root, env, stdio: 'ignore' }); // builds build/wasm's bench target
  const commands = execFileSync('ninja', ['-C', 'build/wasm', '-t', 'commands', 'ox_wasm_bench'], { cwd: root, encoding: 'utf8' });
  const link = commands.trim().split('\n').pop();
  const emxx = link.match(/(\S*em\+\+ .*?) && cd /)?.[1];
  if (!emxx) throw new Error(`v8-code.mjs: no em++ link line in: ${link.slice(0, 200)}`);
  const dir = `${root}bench/build/named/`;
  mkdirSync(dir, { recursive: true });
  const line = emxx.replace(/^: && /, '').replace(/-o \S+/, `-o ${dir}ox.mjs`);
  execFileSync('bash', ['-c', line], { cwd: `${root}build/wasm`, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

// Every compiled function: { name, lines } (an instruction line: address, offset, bytes, text).
function compiledFunctions(dir) {
  // The listing goes to a file: through a pipe, functions' listings came out cut short (Node 26:
  // tiered every time, the default on a loaded machine).
  const listingFile = `${dir}listing.txt`;
  const fd = openSync(listingFile, 'w');
  const run = spawnSync(
    process.execPath,
    ['--print-wasm-code', ...(TIERED ? [] : ['--no-liftoff']), 'bench/kernels.mjs', caseName, '--cached', `--rounds=${TIERED ? 5 : 1}`],
    { cwd: root, env: { ...process.env, OX_DIST: dir }, encoding: 'utf8', stdio: ['ignore', fd, 'pipe'] },
  );
  closeSync(fd);
  if (run.status !== 0) throw new Error(`v8-code.mjs: kernels.mjs failed: ${run.stderr.slice(-500)}`);
  const functions = new Map(); // by name: a later compile (tier-up) replaces an earlier one
  let current = null;
  for (const text of readFileSync(listingFile, 'utf8').split('\n')) {
    if (text.startsWith('name: ')) current = { name: text.slice(6), lines: [] };
    else if (text.startsWith('compiler: ') && current) {
      if (text.slice(10) === 'TurboFan') functions.set(current.name, current);
      else current = null; // Liftoff's baseline code
    } else if (text.startsWith('--- End code')) current = null;
    else if (current && /^0x[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\S/.test(text)) {
      const [, offset, , ...rest] = text.trim().split(/\s+/);
      current.lines.push({ offset: parseInt(offset, 16), text: rest.join(' ') });
    }
  }
  return [...functions.values()];
}

// What an instruction costs the loop: a vector op, a load or store of a vector (a spill when it
// is to or from the frame, rbp-relative), a register-to-register vector move, or scalar work.
function kind(text) {
  const op = text.split(' ')[0];
  const frame = /\[rbp[-+]/.test(text);
  if (/^v?mov(ups|aps|apd|dqu|dqa|ss|sd|d|q)$/.test(op) && /xmm/.test(text)) {
    if (frame) return 'spill';
    if (/\[/.test(text)) return text.indexOf('[') < text.indexOf('xmm') ? 'vector store' : 'vector load';
    return 'vector move';
  }
  if (/xmm/.test(text)) return 'vector op';
  if (op === 'nop') return 'nop';
  return frame ? 'scalar spill' : 'scalar';
}

// Loops: a jump back to an earlier offset, innermost ones only (no other loop inside). A "loop"
// with a call in it is an out-of-line path (the stack check's) jumping back into the code.
function loops(lines) {
  const found = [];
  for (const { offset, text } of lines) {
    const back = text.match(/^j\w+ 0x[0-9a-f]+ +<\+0x([0-9a-f]+)>/);
    if (!back || parseInt(back[1], 16) >= offset) continue;
    const loop = { from: parseInt(back[1], 16), to: offset };
    if (!lines.some((x) => x.offset >= loop.from && x.offset <= loop.to && x.text.startsWith('call'))) found.push(loop);
  }
  const inner = (l) => !found.some((o) => o !== l && o.from >= l.from && o.to <= l.to);
  return found.filter(inner).sort((a, b) => a.from - b.from);
}

const dir = linkNamed();
const shown = compiledFunctions(dir).filter((f) => f.name.includes(wanted));
if (shown.length === 0) throw new Error(`v8-code.mjs: no compiled function's name holds '${wanted}' (case ${caseName})`);
for (const f of shown) {
  console.log(`\n${f.name}\n  ${f.lines.length} instructions`);
  for (const l of loops(f.lines)) {
    const body = f.lines.filter((x) => x.offset >= l.from && x.offset <= l.to && kind(x.text) !== 'nop');
    const counts = {};
    for (const x of body) counts[kind(x.text)] = (counts[kind(x.text)] ?? 0) + 1;
    const summary = Object.entries(counts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    console.log(`  loop +0x${l.from.toString(16)}..+0x${l.to.toString(16)}: ${body.length} instructions: ${summary}`);
    if (LISTING) for (const x of body) console.log(`    ${x.offset.toString(16).padStart(5)}  ${x.text}`);
  }
}
