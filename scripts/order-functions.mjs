// Reorders a linked wasm module's functions so that gzip compresses it better, and drops its
// name section. Run by the wasm build after each link (CMakeLists.txt):
//   node scripts/order-functions.mjs <wasm-dis> <wasm-as> <module.wasm>
//
// Why: the kernels are template instances, many near-copies of one another (a kernel per dtype,
// direction and tie rule), and gzip only finds a repeat within its 32 KiB window. wasm-opt orders
// functions by how often they are called, so copies of one kernel land far apart. Put side by side
// (functions grouped by their name with template arguments removed), the module gzips 5.7 KB
// smaller (102,184 -> 96,521 bytes when it came) with the same code. The link keeps names
// (--profiling-funcs) only so that this step can read them. Other keys measured: by class then
// method about as small; by size alone, or the kinds left where wasm-opt put them, 2 KB larger.
// Within a kind, the functions go greedily: next, the one whose body deflates smallest after the
// 32 KiB of bodies before it (zlib's preset dictionary, as gzip's window sees them). That is 441
// bytes smaller than by size (102,213 -> 101,772 when it came); ordering all functions greedily,
// kinds mixed, was 1.2 KB larger, and starting each kind with its largest function 0.3 KB. Then
// passes of local search move each function 1 to 6 or 8 places later where the stretch it leaves
// and the 8 KiB after deflate smaller (after the 32 KiB before it): two passes of 1, 2, 3, 5 or 8
// places were 564 bytes smaller again (101,994 -> 101,430), in about 5 s; four passes of 1-6 or 8
// places 160 bytes less than those (102,107 -> 101,947), in about 10 s (steps to 13 were larger).
// The whole module's gzip as the measure took a minute for 743 bytes.
// The kinds themselves, which went in name order, go greedily too since the ninety-sixth session
// (orderKinds below): 102,330 -> 100,191 bytes at d9052f3, the same code, about 4 s more.
//
// The step goes through Binaryen's own text format (wasm-dis, then wasm-as without names), which
// round-trips its binaries byte for byte; only the order of the function bodies (and so the
// function indices in calls) changes. The bodies the greedy step weighs come from a first
// assembly in the grouped order (their calls' indices differ a little from the final ones).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, unlinkSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';

const [wasmDis, wasmAs, wasmPath] = process.argv.slice(2);
if (!wasmPath) throw new Error('usage: order-functions.mjs <wasm-dis> <wasm-as> <module.wasm>');
const watPath = `${wasmPath}.order.wat`;

execFileSync(wasmDis, [wasmPath, '-o', watPath], { stdio: 'inherit' });
const lines = readFileSync(watPath, 'utf8').split('\n');

// wasm-dis prints the module as: header items, then every function as a block whose first line
// starts with " (func ", then comments and the module's closing ")".
const first = lines.findIndex((line) => line.startsWith(' (func '));
const end = lines.lastIndexOf(' )') + 1;
const trailer = lines.slice(end);
if (first < 0 || end <= first || !trailer.every((line) => /^( ;;.*|\)|)$/.test(line))) {
  throw new Error(`order-functions: ${watPath} is not laid out as expected`);
}
const functions = [];
for (const line of lines.slice(first, end)) {
  if (line.startsWith(' (func ')) functions.push({ name: line.split(' ')[2], lines: [] });
  functions[functions.length - 1].lines.push(line);
}

// "$ox::ColumnScan<ox::FloatLanes<double>, ...>::sweep(double const*, ...)" -> "$ox::ColumnScan::sweep(...)"
function kindOf(escapedName) {
  let name = escapedName.replace(/\\([0-9a-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  for (let before = ''; before !== name; ) {
    before = name;
    name = name.replace(/<[^<>]*>/g, '');
  }
  return name;
}
const sizeOf = (fn) => fn.lines.reduce((sum, line) => sum + line.length, 0);
for (const fn of functions) Object.assign(fn, { kind: kindOf(fn.name), size: sizeOf(fn) });
functions.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.size - b.size || (a.name < b.name ? -1 : 1)));

// -all: accept every feature the module uses (simd, bulk memory, sign extension, ...); without -g
// wasm-as writes no name section.
function assemble(order) {
  writeFileSync(watPath, [...lines.slice(0, first), ...order.flatMap((fn) => fn.lines), ...trailer].join('\n'));
  execFileSync(wasmAs, ['-all', watPath, '-o', wasmPath], { stdio: 'inherit' });
  return readFileSync(wasmPath);
}

// The function bodies of a module, in order: the code section's entries.
function codeBodies(bytes) {
  let at = 8; // past the magic number and version
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const next = at + size;
    if (id === 10) {
      const bodies = [];
      for (let n = leb(); n > 0; n -= 1) {
        const length = leb();
        bodies.push(bytes.subarray(at, at + length));
        at += length;
      }
      return bodies;
    }
    at = next;
  }
  throw new Error(`order-functions: ${wasmPath} has no code section`);
}

const WINDOW = 32 * 1024;
const bodies = codeBodies(assemble(functions));
if (bodies.length !== functions.length) throw new Error('order-functions: the code section does not match the functions');
functions.forEach((fn, i) => (fn.body = bodies[i]));

// The last 32 KiB of the bodies before position `at` of `order`: what gzip's window holds there.
function windowBefore(order, at) {
  const parts = [];
  for (let i = at - 1, held = 0; i >= 0 && held < WINDOW; i -= 1) parts.unshift(order[i].body), (held += order[i].body.length);
  const joined = Buffer.concat(parts);
  return joined.subarray(Math.max(0, joined.length - WINDOW));
}

// Greedy within each kind (runs of one kind in `kinds`, in their order): next, the function whose
// body deflates smallest after the window before it.
function greedyWithinKinds(kinds) {
  const order = [];
  for (const kind of kinds) {
    const left = kind.slice();
    while (left.length > 0) {
      const window = windowBefore(order, order.length);
      let pick = 0, least = Infinity;
      left.forEach((fn, i) => {
        const bytes = deflateRawSync(fn.body, { level: 9, dictionary: window }).length;
        if (bytes < least) (least = bytes), (pick = i);
      });
      order.push(...left.splice(pick, 1));
    }
  }
  return order;
}

// The runs of one kind in `order`, in order.
function kindRuns(order) {
  const runs = [];
  for (const fn of order) {
    if (runs.length === 0 || runs[runs.length - 1][0].kind !== fn.kind) runs.push([]);
    runs[runs.length - 1].push(fn);
  }
  return runs;
}

// The kinds themselves greedily: next, the kind whose first `head` bytes (in its greedy order)
// gain most by the window before them, as a share of their size deflated alone. In name order
// the kinds sat by their names' spelling, not by their code; the head, not the whole kind, is
// what the window before it reaches.
function orderKinds(runs, head) {
  const heads = runs.map((run) => {
    const joined = Buffer.concat(run.map((fn) => fn.body));
    const bytes = joined.subarray(0, Math.min(joined.length, head));
    return { run, bytes, alone: deflateRawSync(bytes, { level: 9 }).length };
  });
  const order = [];
  while (heads.length > 0) {
    const window = windowBefore(order, order.length);
    let pick = 0, best = -Infinity;
    heads.forEach(({ bytes, alone }, i) => {
      const share = (alone - deflateRawSync(bytes, { level: 9, dictionary: window }).length) / alone;
      if (share > best) (best = share), (pick = i);
    });
    order.push(...heads.splice(pick, 1)[0].run);
  }
  return kindRuns(order);
}

const deflatedBytes = (order) => deflateRawSync(Buffer.concat(order.map((fn) => fn.body)), { level: 9 }).length;

// Kinds by name, each greedy; then the kinds reordered by each head length below, each kind greedy
// again after its new window; the order whose bodies deflate smallest goes on to the local search.
// The greedy choice is sensitive to the head (at d9052f3: heads of 2, 4, 8, 16 and 32 KiB gave
// 100,191, 100,697, 100,547, 100,581 and 100,773 bytes after the local search, by name 102,330),
// so a few are tried, about 4 s.
const KIND_HEADS = [2048, 8192, 32768];
const byName = greedyWithinKinds(kindRuns(functions));
const byNameRuns = kindRuns(byName);
let ordered = byName, orderedBytes = deflatedBytes(byName);
for (const head of KIND_HEADS) {
  const candidate = greedyWithinKinds(orderKinds(byNameRuns, head));
  const bytes = deflatedBytes(candidate);
  if (bytes < orderedBytes) (ordered = candidate), (orderedBytes = bytes);
}

// Local search: the deflated size of positions [from, to] and the 8 KiB after them, after the
// window before `from`, is what moving a function within that stretch changes.
const AFTER = 8 * 1024;
function stretchBytes(order, from, to) {
  const parts = [];
  for (let i = from, after = 0; i < order.length && (i <= to || after < AFTER); i += 1) {
    parts.push(order[i].body);
    if (i > to) after += order[i].body.length;
  }
  return deflateRawSync(Buffer.concat(parts), { level: 9, dictionary: windowBefore(order, from) }).length;
}
let order = ordered;
for (let pass = 0; pass < 4; pass += 1) {
  for (let i = 0; i < order.length; i += 1) {
    for (const step of [1, 2, 3, 4, 5, 6, 8]) {
      const j = i + step;
      if (j >= order.length) break;
      const moved = order.slice();
      moved.splice(j, 0, ...moved.splice(i, 1));
      if (stretchBytes(moved, i, j) < stretchBytes(order, i, j)) order = moved;
    }
  }
}
assemble(order);
unlinkSync(watPath);
