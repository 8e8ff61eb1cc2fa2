// Writes a node call into the module's request scratch as the flat list of doubles that
// src/wire/wire.h describes. Capacities come from the module itself, so the two sides agree.
import { describeValue, isList, listFault, listLength } from './dtypes.js';
import { moduleInteger } from './module.js';

const KIND = { absent: 0, number: 1, boolean: 2, list: 3, other: 4 };
const OTHER = { none: 0, string: 1, object: 2, null: 3, function: 4, symbol: 5, listWithNonNumber: 6 };

const isNumeric = (v) => typeof v === 'number' || typeof v === 'bigint';

export class RequestWriter {
  constructor(M) {
    this.version = moduleInteger(M, 'WIRE_VERSION');
    this.base = (M._requestAddress() / 8) | 0; // (an int32 index, as the constants are: module.js)
    this.limits = {
      name: moduleInteger(M, 'MAX_NAME_LENGTH'),
      rank: moduleInteger(M, 'MAX_RANK'),
      listed: moduleInteger(M, 'MAX_LISTED'),
      inputs: moduleInteger(M, 'MAX_INPUTS_LISTED'),
      attrs: moduleInteger(M, 'MAX_ATTRS_LISTED'),
    };
    this.words = null;
    this.at = 0;
    // What this request could not carry as given, which the caller names in an Error
    // (runArguments): a list (a tensor's dims, an attribute's value) that is a detached typed
    // array (it reads as empty: a scalar, or every axis) or whose length is no count (a Proxy's;
    // written as empty), or a dims entry that is no number (written as NaN, which is all the core
    // could say of it). { list, problem: a listFault or 'entry', at, value }, else undefined.
    this.unreadable = undefined;
    // The BigInts this request carries as doubles that differ from them (past 2^53): the core
    // names the double, and exactText says beside it what the caller gave. Else undefined.
    this.inexact = undefined;
  }

  /** Starts a request in `words`, the module's current HEAPF64 (memory growth replaces it). */
  begin(words, opType, opset) {
    this.words = words;
    this.at = this.base;
    this.unreadable = undefined;
    this.inexact = undefined;
    this.put(this.version);
    this.name(opType);
    this.value(opset);
    return this.at;
  }

  /** Words written since begin(). */
  get count() {
    return this.at - this.base;
  }

  rewind(to) {
    this.at = to;
  }

  put(v) {
    this.words[this.at++] = v;
  }

  /** A BigInt as the double the request carries; one the double rounds is noted (inexact). */
  fromBigInt(big) {
    const n = Number(big);
    if (!Number.isSafeInteger(n) && !(Number.isFinite(n) && BigInt(n) === big)) (this.inexact ??= []).push(big);
    return n;
  }

  /**
   * The core's `message` with a word on each rounded BigInt (inexact) it names: the core sees and
   * prints the double (2n ** 53n + 1n as 9007199254740992, as String(x) prints it). Said beside
   * the core's text, not in place of it: a number of the same text could be another value's (the
   * number 2 ** 53, or a product of dims), which the message alone does not tell apart.
   */
  exactText(message) {
    if (this.inexact === undefined) return message;
    const notes = new Set(); // (a BigInt given twice is said once)
    for (const big of this.inexact) {
      const rounded = String(Number(big));
      if (wholeNumberAt(message, rounded) !== -1) notes.add(`${bigIntText(big)} was read as ${rounded}`);
    }
    return notes.size ? `${message} (${[...notes].join('; ')}: a double holds integers exactly only up to 2^53)` : message;
  }

  name(text) {
    const s = typeof text === 'string' ? text : `<${describeValue(text)}>`; // the core names it unknown
    const n = Math.min(s.length, this.limits.name);
    const words = this.words;
    let at = this.at;
    words[at++] = s.length;
    for (let i = 0; i < n; i += 1) words[at++] = s.charCodeAt(i);
    this.at = at;
  }

  value(v) {
    switch (typeof v) {
      case 'undefined':
        return this.put3(KIND.absent, OTHER.none, 0);
      case 'number':
        this.put3(KIND.number, OTHER.none, 1);
        return this.put(v);
      case 'bigint':
        this.put3(KIND.number, OTHER.none, 1);
        return this.put(this.fromBigInt(v));
      case 'boolean':
        this.put3(KIND.boolean, OTHER.none, 1);
        return this.put(v ? 1 : 0);
      case 'string':
        return this.put3(KIND.other, OTHER.string, 0);
      case 'function':
        return this.put3(KIND.other, OTHER.function, 0);
      case 'symbol':
        return this.put3(KIND.other, OTHER.symbol, 0);
      default:
        if (v === null) return this.put3(KIND.other, OTHER.null, 0);
        if (!isList(v)) return this.put3(KIND.other, OTHER.object, 0);
        return this.list(v);
    }
  }

  list(v) {
    // Only the carried entries matter: a longer list is rejected for its length alone. The length
    // and each entry are read once: a Proxy or getter may answer differently each time, and a
    // count read again could claim entries that were never written.
    const length = this.countOf(v);
    const n = Math.min(length, this.limits.listed);
    const start = this.at;
    for (let i = 0; i < n; i += 1) {
      const entry = v[i];
      if (!isNumeric(entry)) return this.put3(KIND.other, OTHER.listWithNonNumber, 0);
      this.words[start + 3 + i] = typeof entry === 'bigint' ? this.fromBigInt(entry) : entry; // after the three header words
    }
    this.put3(KIND.list, OTHER.none, length);
    this.at = start + 3 + n;
  }

  note(list, problem, at, value) {
    this.unreadable ??= { list, problem, at, value };
  }

  // A list's entry count, its length read once; 0, noted, where it cannot be read (listFault).
  countOf(list) {
    const length = listLength(list);
    const fault = listFault(list, length);
    if (fault === undefined) return length;
    this.note(list, fault, 0, length);
    return 0;
  }

  put3(a, b, c) {
    this.put(a);
    this.put(b);
    this.put(c);
  }

  /** A checked tensor-like (see readTensorLike); `inlineValues` carries its data (small inputs). */
  tensor(t, inlineValues) {
    if (t === null) return this.put(0);
    const { dims, data, length } = t; // length: the data's, as read once (tensor.js)
    const rank = this.countOf(dims);
    const words = this.words;
    let at = this.at;
    words[at++] = 1;
    words[at++] = t.info.code;
    words[at++] = length;
    words[at++] = rank;
    for (let i = 0, n = Math.min(rank, this.limits.rank); i < n; i += 1) {
      const d = dims[i]; // numbers, or BigInts as ONNX protobuf readers give int64 dims
      if (typeof d === 'number') words[at++] = d;
      else if (typeof d === 'bigint') words[at++] = this.fromBigInt(d);
      else {
        words[at++] = NaN;
        this.note(dims, 'entry', i, d);
      }
    }
    if (!inlineValues) {
      words[at++] = 0;
    } else {
      words[at++] = length;
      for (let i = 0, n = Math.min(length, this.limits.listed); i < n; i += 1) {
        const v = data[i];
        words[at++] = typeof v === 'bigint' ? this.fromBigInt(v) : v;
      }
    }
    this.at = at;
  }
}

// A BigInt as source text (9007199254740993n), its digits counted past 40 of them.
function bigIntText(big) {
  const digits = String(big < 0n ? -big : big);
  return digits.length <= 40 ? `${big}n` : `a BigInt of ${digits.length} digits`;
}

// Where `number` (a String(x) text) stands as a whole number in `text`; else -1.
function wholeNumberAt(text, number) {
  for (let at = text.indexOf(number); at !== -1; at = text.indexOf(number, at + 1))
    if (!partOfNumber(text[at - 1]) && !partOfNumber(text[at + number.length])) return at;
  return -1;
}

const partOfNumber = (c) => c !== undefined && '0123456789.e+-'.includes(c);
