import { PyDict, PyError, PyFunction, PyObject, PyTuple, codePointOffset, isStr, pyFloatRepr, str, typeName, type CallContext, type Value } from '../values';

/**
 * Python's `json` module for rules: `loads` with Python's decoder (its JSONDecodeError messages and positions, NaN
 * and Infinity, the parse hooks, `strict`) and `dumps` with Python's encoder (`indent`, `separators`, `sort_keys`,
 * `ensure_ascii`, `allow_nan`, `skipkeys`, `default`; ", " and ": " by default, and float repr).
 */

const MAX_DEPTH = 900;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** `json.JSONDecodeError`, a ValueError: "msg: line L column C (char N)", positions in code points. */
export class JSONDecodeError extends PyError {
  constructor(msg: string, doc: string, pos: number) {
    const at = codePointOffset(doc, pos);
    const before = doc.slice(0, pos);
    const line = before.split('\n').length;
    const column = at - codePointOffset(doc, before.lastIndexOf('\n') + 1) + 1;
    super('JSONDecodeError', `${msg}: line ${line} column ${column} (char ${at})`);
  }
}

interface DecodeHooks {
  strict: boolean;
  call(hook: Value | undefined, arg: Value): Value | undefined;
  parseFloat?: Value;
  parseInt?: Value;
  parseConstant?: Value;
  objectHook?: Value;
  objectPairsHook?: Value;
}

/** Python's scanner raises StopIteration(idx) where no value starts; the decoder turns it into "Expecting value". */
class NoValue {
  constructor(readonly pos: number) {}
}

class Decoder {
  constructor(private readonly s: string, private readonly hooks: DecodeHooks) {}

  private skip(i: number): number {
    while (i < this.s.length && WHITESPACE.has(this.s.charCodeAt(i))) i++;
    return i;
  }

  decode(): Value {
    const s = this.s;
    if (s.charCodeAt(0) === 0xfeff) throw new JSONDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', s, 0);
    let value: Value;
    let end: number;
    try {
      [value, end] = this.value(this.skip(0), 0);
    } catch (e) {
      if (e instanceof NoValue) throw new JSONDecodeError('Expecting value', s, e.pos);
      throw e;
    }
    end = this.skip(end);
    if (end !== s.length) throw new JSONDecodeError('Extra data', s, end);
    return value;
  }

  private value(i: number, depth: number): [Value, number] {
    const s = this.s;
    if (i >= s.length) throw new NoValue(i);
    const c = s[i];
    if (c === '"') return this.string(i + 1);
    if (c === '{') return this.nested(() => this.object(i + 1, depth + 1), depth, 'object');
    if (c === '[') return this.nested(() => this.array(i + 1, depth + 1), depth, 'array');
    if (s.startsWith('null', i)) return [null, i + 4];
    if (s.startsWith('true', i)) return [true, i + 4];
    if (s.startsWith('false', i)) return [false, i + 5];
    for (const [text, v] of [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]] as const) {
      if (s.startsWith(text, i)) return [this.hooks.call(this.hooks.parseConstant, text) ?? v, i + text.length];
    }
    return this.number(i);
  }

  private nested(parse: () => [Value, number], depth: number, what: string): [Value, number] {
    if (depth >= MAX_DEPTH) throw new PyError('RecursionError', `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`);
    return parse();
  }

  private number(start: number): [Value, number] {
    const s = this.s;
    const digit = (k: number) => k < s.length && s.charCodeAt(k) >= 0x30 && s.charCodeAt(k) <= 0x39;
    let i = start;
    if (s[i] === '-') {
      i++;
      if (i >= s.length) throw new NoValue(start);
    }
    if (s[i] >= '1' && s[i] <= '9') {
      i++;
      while (digit(i)) i++;
    } else if (s[i] === '0') {
      i++;
    } else {
      throw new NoValue(start);
    }
    let isFloat = false;
    if (s[i] === '.' && digit(i + 1)) {
      isFloat = true;
      i += 2;
      while (digit(i)) i++;
    }
    if (i < s.length - 1 && (s[i] === 'e' || s[i] === 'E')) {
      const eStart = i;
      i++;
      if (i < s.length - 1 && (s[i] === '-' || s[i] === '+')) i++;
      while (digit(i)) i++;
      if (digit(i - 1)) isFloat = true;
      else i = eStart;
    }
    const text = s.slice(start, i);
    const hook = isFloat ? this.hooks.parseFloat : this.hooks.parseInt;
    return [this.hooks.call(hook, text) ?? Number(text), i];
  }

  private string(begin: number): [string, number] {
    const s = this.s;
    let out = '';
    let i = begin;
    for (;;) {
      let j = i;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (c === 0x22 || c === 0x5c || (c < 0x20 && this.hooks.strict)) break;
        j++;
      }
      if (j >= s.length) throw new JSONDecodeError('Unterminated string starting at', s, begin - 1);
      out += s.slice(i, j);
      const c = s[j];
      if (c === '"') return [out, j + 1];
      if (c !== '\\') throw new JSONDecodeError('Invalid control character at', s, j);
      if (j + 1 >= s.length) throw new JSONDecodeError('Unterminated string starting at', s, begin - 1);
      const e = s[j + 1];
      if (e !== 'u') {
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (!(e in simple)) throw new JSONDecodeError('Invalid \\escape', s, j);
        out += simple[e];
        i = j + 2;
        continue;
      }
      let code = this.hex4(j + 2, j + 1);
      i = j + 6;
      if (code >= 0xd800 && code <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u') {
        const low = this.hex4(i + 2, i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  }

  private hex4(at: number, errorAt: number): number {
    const digits = this.s.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new JSONDecodeError('Invalid \\uXXXX escape', this.s, errorAt);
    return parseInt(digits, 16);
  }

  private object(start: number, depth: number): [Value, number] {
    const s = this.s;
    const pairs: [string, Value][] = [];
    let i = this.skip(start);
    if (s[i] !== '}') {
      for (;;) {
        if (s[i] !== '"') throw new JSONDecodeError('Expecting property name enclosed in double quotes', s, i);
        const [key, afterKey] = this.string(i + 1);
        i = this.skip(afterKey);
        if (s[i] !== ':') throw new JSONDecodeError("Expecting ':' delimiter", s, i);
        const [value, afterValue] = this.value(this.skip(i + 1), depth);
        pairs.push([key, value]);
        i = this.skip(afterValue);
        if (s[i] === '}') break;
        if (s[i] !== ',') throw new JSONDecodeError("Expecting ',' delimiter", s, i);
        i = this.skip(i + 1);
      }
    }
    const pairsHook = this.hooks.call(this.hooks.objectPairsHook, pairs.map(([k, v]) => new PyTuple([k, v])));
    if (pairsHook !== undefined) return [pairsHook, i + 1];
    const d = new PyDict(pairs);
    d.derived = true;
    return [this.hooks.call(this.hooks.objectHook, d) ?? d, i + 1];
  }

  private array(start: number, depth: number): [Value, number] {
    const s = this.s;
    const items: Value[] = [];
    let i = this.skip(start);
    if (s[i] === ']') return [items, i + 1];
    for (;;) {
      const [value, after] = this.value(i, depth);
      items.push(value);
      i = this.skip(after);
      if (s[i] === ']') return [items, i + 1];
      if (s[i] !== ',') throw new JSONDecodeError("Expecting ',' delimiter", s, i);
      i = this.skip(i + 1);
    }
  }
}

const LOADS_KEYWORDS = ['cls', 'object_hook', 'parse_float', 'parse_int', 'parse_constant', 'object_pairs_hook', 'strict'];

function loads(s: Value, kwargs: Map<string, Value>, ctx: CallContext): Value {
  if (!isStr(s)) throw new PyError('TypeError', `the JSON object must be str, bytes or bytearray, not ${typeName(s)}`);
  for (const key of kwargs.keys()) {
    if (!LOADS_KEYWORDS.includes(key)) throw new PyError('TypeError', `JSONDecoder.__init__() got an unexpected keyword argument '${key}'`);
  }
  const cls = kwargs.get('cls');
  if (cls !== undefined && cls !== null) throw new PyError('TypeError', `'${typeName(cls)}' object is not callable`);
  const hooks: DecodeHooks = {
    strict: kwargs.has('strict') ? kwargs.get('strict') !== false && kwargs.get('strict') !== 0 : true,
    parseFloat: kwargs.get('parse_float') ?? undefined,
    parseInt: kwargs.get('parse_int') ?? undefined,
    parseConstant: kwargs.get('parse_constant') ?? undefined,
    objectHook: kwargs.get('object_hook') ?? undefined,
    objectPairsHook: kwargs.get('object_pairs_hook') ?? undefined,
    call(hook, arg) {
      if (hook === undefined || hook === null) return undefined;
      if (!(hook instanceof PyFunction)) throw new PyError('TypeError', `'${typeName(hook)}' object is not callable`);
      return hook.call([arg], new Map(), ctx);
    },
  };
  return new Decoder(str(s)!, hooks).decode();
}

interface EncodeOptions {
  ensureAscii: boolean;
  allowNan: boolean;
  sortKeys: boolean;
  skipKeys: boolean;
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  default_: Value;
  ctx: CallContext;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** encode_basestring_ascii / encode_basestring. */
function encodeString(s: string, ascii: boolean): string {
  const special = ascii ? /["\\\u0000-\u001f\u007f-\uffff]/g : /["\\\u0000-\u001f]/g;
  return `"${s.replace(special, (ch) => ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function floatText(n: number, o: EncodeOptions): string {
  if (Number.isFinite(n)) return pyFloatRepr(n);
  if (!o.allowNan) throw new PyError('ValueError', 'Out of range float values are not JSON compliant');
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

function numberText(n: number, o: EncodeOptions): string {
  return Number.isSafeInteger(n) ? String(n) : floatText(n, o);
}

/** Keys as json converts them: str kept, numbers, bools and None written out; other keys are refused or skipped. */
function keyText(k: Value, o: EncodeOptions): string | null {
  if (isStr(k)) return str(k)!;
  if (typeof k === 'number') return numberText(k, o);
  if (k === true) return 'true';
  if (k === false) return 'false';
  if (k === null) return 'null';
  if (o.skipKeys) return null;
  throw new PyError('TypeError', `keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

function encode(v: Value, o: EncodeOptions, level: number): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number') return numberText(v, o);
  if (isStr(v)) return encodeString(str(v)!, o.ensureAscii);
  const inner = o.indent === null ? '' : '\n' + o.indent.repeat(level + 1);
  const outer = o.indent === null ? '' : '\n' + o.indent.repeat(level);
  if (Array.isArray(v) || v instanceof PyTuple) {
    const items = Array.isArray(v) ? v : v.items;
    if (items.length === 0) return '[]';
    return `[${inner}${items.map((x) => encode(x, o, level + 1)).join(o.itemSeparator + inner)}${outer}]`;
  }
  if (v instanceof PyDict) {
    if (v.map.size === 0) return '{}';
    let entries = [...v.map];
    if (o.sortKeys) entries = entries.sort((a, b) => compareCodePoints(a[0], b[0]));
    const parts: string[] = [];
    for (const [k, x] of entries) {
      const key = keyText(k, o);
      if (key === null) continue;
      parts.push(`${encodeString(key, o.ensureAscii)}${o.keySeparator}${encode(x, o, level + 1)}`);
    }
    if (parts.length === 0) return '{}';
    return `{${inner}${parts.join(o.itemSeparator + inner)}${outer}}`;
  }
  if (o.default_ instanceof PyFunction) return encode(o.default_.call([v], new Map(), o.ctx), o, level);
  const name = v instanceof PyObject ? v.typeName.replace(/^re\./, '') : typeName(v);
  throw new PyError('TypeError', `Object of type ${name} is not JSON serializable`);
}

/** Python's str order: by code point (JavaScript's sort compares UTF-16 units). */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < x.length && i < y.length; i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0)! - y[i].codePointAt(0)!;
  }
  return x.length - y.length;
}

function truthyFlag(v: Value | undefined, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  return !(v === false || v === null || v === 0 || (isStr(v) && str(v) === ''));
}

function dumps(obj: Value, kwargs: Map<string, Value>, ctx: CallContext): Value {
  const known = ['skipkeys', 'ensure_ascii', 'check_circular', 'allow_nan', 'cls', 'indent', 'separators', 'default', 'sort_keys'];
  for (const key of kwargs.keys()) {
    if (!known.includes(key)) throw new PyError('TypeError', `JSONEncoder.__init__() got an unexpected keyword argument '${key}'`);
  }
  const indentValue = kwargs.get('indent') ?? null;
  let indent: string | null = null;
  if (typeof indentValue === 'number' && Number.isInteger(indentValue)) indent = ' '.repeat(Math.max(0, indentValue));
  else if (isStr(indentValue)) indent = str(indentValue)!;
  else if (indentValue !== null) throw new PyError('TypeError', `can't multiply sequence by non-int of type '${typeName(indentValue)}'`);
  let itemSeparator = indent === null ? ', ' : ',';
  let keySeparator = ': ';
  const separators = kwargs.get('separators') ?? null;
  if (separators !== null) {
    const pair = Array.isArray(separators) ? separators : separators instanceof PyTuple ? separators.items : null;
    if (!pair || pair.length !== 2) throw new PyError('ValueError', `not enough values to unpack (expected 2, got ${pair ? pair.length : 0})`);
    if (!isStr(pair[0]) || !isStr(pair[1])) throw new PyError('TypeError', 'make_encoder() argument 5 must be str, not ' + typeName(isStr(pair[0]) ? pair[1] : pair[0]));
    itemSeparator = str(pair[0])!;
    keySeparator = str(pair[1])!;
  }
  return encode(obj, {
    ensureAscii: truthyFlag(kwargs.get('ensure_ascii'), true),
    allowNan: truthyFlag(kwargs.get('allow_nan'), true),
    sortKeys: truthyFlag(kwargs.get('sort_keys'), false),
    skipKeys: truthyFlag(kwargs.get('skipkeys'), false),
    indent, itemSeparator, keySeparator, default_: kwargs.get('default') ?? null, ctx,
  }, 0);
}

/**
 * loads(s, **kw) / dumps(obj, **kw): one positional-or-keyword parameter, the other keyword arguments checked by the
 * decoder or encoder itself (as JSONDecoder and JSONEncoder take them).
 */
function withKeywords(name: string, param: string, body: (value: Value, keywords: Map<string, Value>, ctx: CallContext) => Value): PyFunction {
  return new PyFunction(name, (args, kwargs, ctx) => {
    const keywords = new Map(kwargs);
    const value = args.length > 0 ? args[0] : keywords.get(param);
    keywords.delete(param);
    if (args.length > 1) throw new PyError('TypeError', `${name}() takes 1 positional argument but ${args.length} were given`);
    if (value === undefined) throw new PyError('TypeError', `${name}() missing 1 required positional argument: '${param}'`);
    return body(value, keywords, ctx);
  });
}

/** The module's functions, by name. */
export function jsonFunctions(): Record<string, PyFunction> {
  return { loads: withKeywords('loads', 's', loads), dumps: withKeywords('dumps', 'obj', dumps) };
}
