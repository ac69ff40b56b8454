import { MessageEvent, ToolCallEvent, ToolOutputEvent } from './traceObjects';
import { BUILTINS } from './builtins';
import { NotEvaluated } from './failure';
import { analyzePython } from './pythonCode';
import { compile, pyFindIter } from './regex';
import { textsOf } from './text';
import { PyDict, PyError, PyFunction, PyObject, isStr, str, typeName, type CallContext, type Value } from './values';

/**
 * The deterministic detectors the analyzer's standard library offers (`secrets`, `copyright`, `unicode`,
 * `python_code`, `html_code`, `links`, `fuzzy_contains` without `use_semantic`, `should_allow_rbac`), and the
 * model-based ones, which are never run here: calling one stops the rule that needs it with a notice.
 */

/** A detector the analyzer marks `@cached`. */
function fn(name: string, call: (args: Value[], kwargs: Map<string, Value>, ctx: CallContext) => Value): PyFunction {
  return new PyFunction(name, call, undefined, true);
}

function notEvaluated(name: string, why: string): PyFunction {
  return new PyFunction(name, () => {
    throw new NotEvaluated(name, why);
  }, why);
}

const SECRET_PATTERNS: [string, string, boolean][] = [
  ['GITHUB_TOKEN', '(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36}', false],
  ['AWS_ACCESS_KEY', '(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}', false],
  ['AWS_ACCESS_KEY', 'aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?[\'"]([0-9a-zA-Z/+]{40})[\'"]', true],
  ['AZURE_STORAGE_KEY', 'AccountKey=[a-zA-Z0-9+\\/=]{88}', false],
  ['SLACK_TOKEN', 'xox(?:a|b|p|o|s|r)-(?:\\d+-)+[a-z0-9]+', true],
  ['SLACK_TOKEN', 'https://hooks\\.slack\\.com/services/T[a-zA-Z0-9_]+/B[a-zA-Z0-9_]+/[a-zA-Z0-9_]+', true],
];

function secrets(args: Value[]): Value {
  const found: Value[] = [];
  for (const t of textsOf([args[0]])) {
    const s = str(t)!;
    for (const [name, pattern, ignoreCase] of SECRET_PATTERNS) {
      for (const _ of pyFindIter(pattern, s, { ignoreCase })) found.push(name);
    }
  }
  return found;
}

/** The licence headers the analyzer's copyright detector looks for (name, title lines). */
const LICENSES: [string, string][] = [
  ['GNU_AGPL_V3', 'GNU AFFERO GENERAL PUBLIC LICENSE\n                       Version 3, 19 November 2007'],
  ['GNU_GPL_V2', 'GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007'],
  ['GNU_LGPL_V3', 'GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007'],
  ['MOZILLA_PUBLIC_LICENSE_2.0', 'Mozilla Public License Version 2.0'],
  ['APACHE_LICENSE_2.0', 'Apache License\n                           Version 2.0, January 2004'],
  ['MIT_LICENSE', 'MIT License'],
  ['BOOST_SOFTWARE_LICENSE', 'Boost Software License - Version 1.0 - August 17th, 2003'],
];

/** A licence whose header starts the text, else every licence with at least half of its header's words in the text. */
function licensesIn(text: string): string[] {
  const trimmed = text.trim();
  for (const [name, header] of LICENSES) if (trimmed.startsWith(header)) return [name];
  const words = new Set(trimmed.split(' '));
  const found: string[] = [];
  for (const [name, header] of LICENSES) {
    const tokens = header.split(' ').filter((t) => t.length > 0);
    if (tokens.filter((t) => words.has(t)).length / tokens.length >= 0.5) found.push(name);
  }
  return found;
}

function copyright(args: Value[]): Value {
  const found: Value[] = [];
  for (const t of textsOf([args[0]])) {
    const s = str(t)!;
    found.push(...licensesIn(s));
    for (const pattern of ['Copyright (C)', 'Copyright ©']) if (s.includes(pattern)) found.push('COPYRIGHT');
  }
  return found;
}

const CATEGORIES = ['Cc', 'Cf', 'Cs', 'Co', 'Cn', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'Mc', 'Me', 'Mn', 'Nd', 'Nl', 'No', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'Sc', 'Sk', 'Sm', 'So', 'Zl', 'Zp', 'Zs'];
const CATEGORY_TESTS = CATEGORIES.map((c) => [c, new RegExp(`^\\p{${c === 'Cn' ? 'Cn' : c}}$`, 'u')] as const);
const categoryCache = new Map<number, string>();

function category(ch: string): string {
  const cp = ch.codePointAt(0)!;
  let c = categoryCache.get(cp);
  if (c === undefined) {
    c = CATEGORY_TESTS.find(([, re]) => re.test(ch))?.[0] ?? 'Cn';
    categoryCache.set(cp, c);
  }
  return c;
}

function unicodeOf(text: Value, categories: Value, ctx: CallContext): string[] {
  const s = str(text);
  if (s === undefined) throw new PyError('TypeError', `unicode() needs text, not ${typeName(text)}`);
  const wanted = categories === null || categories === undefined ? null : (categories as Value[]).map((c) => str(c));
  const found: string[] = [];
  // Each reported character is a range; consecutive ones are marked as one run.
  let runStart = -1;
  let offset = 0;
  for (const ch of s) {
    const cat = category(ch);
    if (wanted === null || wanted.includes(cat)) {
      if (runStart < 0) runStart = offset;
      if (!found.includes(cat)) found.push(cat);
    } else if (runStart >= 0) {
      ctx.mark(text as object, runStart, offset, true);
      runStart = -1;
    }
    offset += ch.length;
  }
  if (runStart >= 0) ctx.mark(text as object, runStart, offset, true);
  return found;
}

function unicode(args: Value[], kwargs: Map<string, Value>, ctx: CallContext): Value {
  const data = args[0];
  const categories = args[1] ?? kwargs.get('categories') ?? null;
  if (data === null || data === undefined) throw new PyError('AssertionError', 'cannot call unicode(...) on None');
  if (isStr(data)) return unicodeOf(data, categories, ctx);
  const all: Value[] = [];
  for (const message of Array.isArray(data) ? data : [data]) {
    const txt = contentOf(message);
    if (txt === null) continue;
    all.push(...unicodeOf(txt, categories, ctx));
  }
  return all;
}

/** `message.content` as the detectors read it (a plain attribute, so a dict has none). */
function contentOf(message: Value): Value {
  if (message instanceof MessageEvent || message instanceof ToolOutputEvent) return message.content;
  throw new PyError('AttributeError', `'${typeName(message)}' object has no attribute 'content'`);
}

class PythonDetectorResult extends PyObject {
  readonly typeName = 'PythonDetectorResult';
  constructor(readonly imports: Value[], readonly builtins: Value[], readonly syntaxError: boolean, readonly exception: Value, readonly calls: Value[]) {
    super();
  }
  attribute(name: string): Value {
    switch (name) {
      case 'imports': return this.imports;
      case 'builtins': return this.builtins;
      case 'syntax_error': return this.syntaxError;
      case 'syntax_error_exception': return this.exception;
      case 'function_calls': return this.calls;
    }
    throw new PyError('InvariantAttributeError', `Invariant Attribute Error: Attribute ${name} not found in PythonDetectorResult. Available attributes are: imports, builtins, function_calls`);
  }
}

function pythonResult(code: Value): PythonDetectorResult {
  const s = str(code);
  if (s === undefined) return new PythonDetectorResult([], [], true, `ast.parse() needs a string, not ${typeName(code)}`, []);
  const r = analyzePython(s);
  return new PythonDetectorResult(r.imports, r.builtins, r.syntaxError, r.syntaxError ? r.exception : null, r.functionCalls);
}

function pythonCode(args: Value[]): Value {
  const data = args[0];
  if (isStr(data)) return pythonResult(data);
  const merged = new PythonDetectorResult([], [], false, null, []);
  for (const message of Array.isArray(data) ? data : [data]) {
    const content = contentOf(message);
    if (content === null) continue;
    const r = pythonResult(content);
    for (const x of r.imports) merged.imports.push(x);
    for (const x of r.builtins) merged.builtins.push(x);
    for (const c of r.calls) if (!merged.calls.includes(c)) merged.calls.push(c);
    if (r.syntaxError) (merged as { syntaxError: boolean }).syntaxError = true;
  }
  return merged;
}

class HiddenHTMLData extends PyObject {
  readonly typeName = 'HiddenHTMLData';
  constructor(readonly altTexts: Value[], readonly links: Value[]) {
    super();
  }
  attribute(name: string): Value {
    if (name === 'alt_texts') return this.altTexts;
    if (name === 'links') return this.links;
    throw new PyError('InvariantAttributeError', `Invariant Attribute Error: Attribute ${name} not found in HiddenHTMLData. Available attributes are: alt_texts, links`);
  }
}

const LINK_PATTERN = 'https?://(?:[-\\w.]|(?:%[\\da-fA-F]{2}))+(?:/[^ \\n\\"]+)*';

function linksIn(s: string): string[] {
  const out: string[] = [];
  for (const m of pyFindIter(LINK_PATTERN, s)) if (!out.includes(m.text)) out.push(m.text);
  return out;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower] ?? m;
  });
}

/*
 * A start tag in sticky parts: `<` and the name, the attributes, and the closing `>`. Each attribute (with what
 * follows it up to the next one) is taken the first way it matches, as Python's own start-tag pattern is matched
 * (`re.match`, no search for another split): an atomic group, written `(?=(…))\1`. With plain groups the engine
 * tried every other split of `b=x/x/x…` into values and names when no `>` followed, exponential in the text (85
 * characters ran for minutes).
 */
const TAG_OPENING = /<[a-zA-Z]/g;
const TAG_NAME = /<[a-zA-Z][^\t\n\r\f />\x00]*/y;
const ATTRIBUTE_RUN_SOURCE = `[\\s/]*(?:(?<=['"\\s/])[^\\s/>][^\\s/=>]*)(?:\\s*=+\\s*(?:'[^']*'|"[^"]*"|(?!['"])[^>\\s]*))?(?:\\s|\\/(?!>))*`;
const ATTRIBUTE_RUN = new RegExp(ATTRIBUTE_RUN_SOURCE, 'y');
const ATTRIBUTE_RUNS = new RegExp(`(?:(?=(${ATTRIBUTE_RUN_SOURCE}))\\1)*`, 'y');
const TAG_CLOSE = /\s*\/?\s*>/y;
const ATTRIBUTE = /((?<=['"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?/g;

function stickyMatch(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/**
 * Start tags with their attributes, as Python's html.parser reports them (names lower-cased, entities decoded), in
 * time linear in the text. How a tag goes on from a place depends only on that place: a `<` inside the name just
 * read starts a name that ends at the same character, and a place where an attribute began in a tag that never
 * closed leads nowhere from any other `<` either. Without both, `<a<a<a…` and `<a <a <a …` read the rest of the text
 * again from every `<`.
 */
function startTags(html: string): { tag: string; attrs: [string, string | null][] }[] {
  const tags: { tag: string; attrs: [string, string | null][] }[] = [];
  /** Set from the first tag that does not close: 1 where an attribute began in such a tag. */
  let deadEnds: Uint8Array | undefined;
  let nameEnd = -1;
  TAG_OPENING.lastIndex = 0;
  for (let opening = TAG_OPENING.exec(html); opening; opening = TAG_OPENING.exec(html)) {
    const start = opening.index;
    if (start >= nameEnd) nameEnd = stickyMatch(TAG_NAME, html, start);
    const end = deadEnds ? attributesEnd(html, nameEnd, deadEnds) : stickyMatch(ATTRIBUTE_RUNS, html, nameEnd);
    const closed = end < 0 ? -1 : stickyMatch(TAG_CLOSE, html, end);
    if (closed < 0) {
      attributesEnd(html, nameEnd, (deadEnds ??= new Uint8Array(html.length + 1)), true);
      TAG_OPENING.lastIndex = start + 1;
      continue;
    }
    TAG_OPENING.lastIndex = closed;
    const attrs: [string, string | null][] = [];
    for (const a of html.slice(nameEnd, end).matchAll(ATTRIBUTE)) {
      let value: string | null = a[3] ?? null;
      if (value !== null && ((value.startsWith("'") && value.endsWith("'")) || (value.startsWith('"') && value.endsWith('"'))) && value.length >= 2) value = value.slice(1, -1);
      attrs.push([a[1].toLowerCase(), value === null ? null : decodeEntities(value)]);
    }
    tags.push({ tag: html.slice(start + 1, nameEnd).toLowerCase(), attrs });
  }
  return tags;
}

/**
 * Where the attributes read from `at` end, attribute by attribute; -1 when they reach a place known to lead nowhere.
 * `markDead`: the tag does not close, every place an attribute began is marked so.
 */
function attributesEnd(html: string, at: number, deadEnds: Uint8Array, markDead = false): number {
  let end = at;
  for (; ;) {
    if (deadEnds[end] === 1) return -1;
    if (markDead) deadEnds[end] = 1;
    const next = stickyMatch(ATTRIBUTE_RUN, html, end);
    if (next < 0) return end;
    end = next;
  }
}

function htmlCode(args: Value[]): Value {
  const data = args[0];
  const chat = Array.isArray(data) ? data : [data];
  const result = new HiddenHTMLData([], []);
  for (const message of chat) {
    if (message === null) continue;
    if (isStr(data)) throw new PyError('AttributeError', "'dict' object has no attribute 'content'");
    let content: Value;
    if (message instanceof ToolCallEvent) content = message.repr();
    else {
      content = contentOf(message);
      if (content === null) continue;
    }
    const html = str(content);
    if (html === undefined) throw new PyError('TypeError', `can only concatenate str (not "${typeName(content)}") to str`);
    const links: string[] = [];
    for (const { tag, attrs } of startTags(html)) {
      for (const [name, value] of attrs) {
        if (tag === 'img' && name === 'alt') result.altTexts.push(value);
        if (tag === 'a' && name === 'href' && value !== null && !links.includes(value)) links.push(value);
      }
    }
    for (const l of linksIn(html)) if (!links.includes(l)) links.push(l);
    for (const l of links) result.links.push(l);
  }
  return result;
}

function links(args: Value[]): Value {
  const data = args[0];
  const out: Value[] = [];
  for (const message of Array.isArray(data) ? data : [data]) {
    if (message === null) continue;
    if (isStr(data)) throw new PyError('AttributeError', "'dict' object has no attribute 'content'");
    const content = contentOf(message);
    if (content === null) continue;
    const s = str(content);
    if (s === undefined) throw new PyError('TypeError', `expected string or bytes-like object, got '${typeName(content)}'`);
    for (const l of linksIn(s)) out.push(l);
  }
  return out;
}

/**
 * The `regex` module's fuzzy search `(?:query){e<=k}` for a literal query: the leftmost start where the query
 * matches with at most k insertions, deletions and substitutions (exact steps tried first), and its span.
 */
function fuzzySearch(text: string[], query: string[], k: number): [number, number] | null {
  // The best end from state (i, j, errors left) does not depend on the start, so one memo serves every start.
  const m = query.length + 1;
  const e = k + 1;
  const size = (text.length + 1) * m * e;
  const memo: Int32Array | Map<number, number> = size <= 4_000_000 ? new Int32Array(size).fill(-2) : new Map<number, number>();
  const get = (key: number): number => (memo instanceof Int32Array ? memo[key] : memo.get(key) ?? -2);
  const set = (key: number, v: number): void => {
    if (memo instanceof Int32Array) memo[key] = v;
    else memo.set(key, v);
  };
  const from = (i: number, j: number, errors: number): number => {
    if (j === query.length) return i;
    const key = (i * m + j) * e + errors;
    const known = get(key);
    if (known !== -2) return known;
    let r = -1;
    if (i < text.length && text[i] === query[j]) r = from(i + 1, j + 1, errors);
    if (r < 0 && errors > 0) {
      if (i < text.length) {
        r = from(i + 1, j + 1, errors - 1);
        if (r < 0) r = from(i + 1, j, errors - 1);
      }
      if (r < 0) r = from(i, j + 1, errors - 1);
    }
    set(key, r);
    return r;
  };
  for (let start = 0; start <= text.length; start++) {
    const end = from(start, 0, k);
    if (end >= 0) return [start, end];
  }
  return null;
}

function fuzzyContains(args: Value[], kwargs: Map<string, Value>, ctx: CallContext): Value {
  const searchText = args[0] ?? kwargs.get('search_text') ?? null;
  const query = args[1] ?? kwargs.get('query') ?? null;
  const threshold = args[2] ?? kwargs.get('query_similarity_threshold') ?? 0.8;
  const useSemantic = args[3] ?? kwargs.get('use_semantic') ?? true;
  const q = str(query);
  if (q === undefined) throw new PyError('TypeError', `object of type '${typeName(query)}' has no len()`);
  if (typeof threshold !== 'number' || threshold < 0 || threshold > 1) throw new PyError('AssertionError', 'query_similarity_threshold must be between 0 and 1');
  const s = str(searchText);
  if (s === undefined) throw new PyError('TypeError', `a bytes-like object is required, not '${typeName(searchText)}'`);
  const qs = [...q];
  const tolerance = Math.min(10, Math.floor(qs.length * (1 - threshold) + 1e-9));
  if (/[\\^$.|?*+()[\]{}]/.test(q)) compile(q);
  const chars = [...s];
  const found = fuzzySearch(chars, qs, tolerance);
  if (found) {
    const startUnits = chars.slice(0, found[0]).join('').length;
    const endUnits = chars.slice(0, found[1]).join('').length;
    ctx.mark(searchText as object, startUnits, endUnits);
    return true;
  }
  if (useSemantic !== false) throw new NotEvaluated('fuzzy_contains', 'fuzzy_contains found no close match and would ask an LLM (use_semantic=True); pass use_semantic=False to evaluate it here');
  return false;
}

function shouldAllowRbac(args: Value[], kwargs: Map<string, Value>): Value {
  const names = ['data', 'scope', 'user', 'user_roles', 'role_grants'];
  const a = names.map((n, i) => args[i] ?? kwargs.get(n) ?? null);
  const [, scope, user, userRoles, roleGrants] = a;
  const get = (d: Value, key: Value, fallback: Value): Value => {
    if (!(d instanceof PyDict)) throw new PyError('AttributeError', `'${typeName(d)}' object has no attribute 'get'`);
    const k = str(key);
    return k !== undefined && d.map.has(k) ? d.map.get(k)! : fallback;
  };
  const roles = get(userRoles, user, []);
  for (const role of Array.isArray(roles) ? roles : []) {
    const grants = get(roleGrants, role, new PyDict());
    const v = get(grants, scope, false);
    if (v !== false && v !== null && v !== 0) return true;
  }
  return false;
}

const MODEL = (what: string): string => `needs ${what}, which the local evaluator does not run`;

/** Library functions by module, as imports make them visible. */
export const LIBRARY: Record<string, Record<string, Value>> = {
  'invariant.detectors': {
    secrets: fn('secrets', secrets),
    copyright: fn('copyright', copyright),
    unicode: fn('unicode', unicode),
    python_code: fn('python_code', pythonCode),
    ipython_code: fn('ipython_code', pythonCode),
    fuzzy_contains: fn('fuzzy_contains', fuzzyContains),
    pii: notEvaluated('pii', MODEL('the Presidio PII model')),
    moderated: notEvaluated('moderated', MODEL('a moderation model')),
    prompt_injection: notEvaluated('prompt_injection', MODEL('a prompt-injection classifier')),
    semgrep: notEvaluated('semgrep', MODEL('the semgrep program')),
    is_similar: notEvaluated('is_similar', MODEL('a sentence-embedding model')),
    embedding_similarity: notEvaluated('embedding_similarity', MODEL('a sentence-embedding model')),
  },
  'invariant.detectors.code': {
    python_code: fn('python_code', pythonCode),
    ipython_code: fn('ipython_code', pythonCode),
    semgrep: notEvaluated('semgrep', MODEL('the semgrep program')),
  },
  'invariant.parsers.html': { html_code: fn('html_code', htmlCode), links: new PyFunction('links', links) },
  'invariant.parsers.ocr': { ocr: notEvaluated('ocr', MODEL('an OCR model')) },
  'invariant.access_control': { should_allow_rbac: new PyFunction('should_allow_rbac', shouldAllowRbac) },
  'invariant.files': Object.fromEntries(['get_files', 'get_tree_files', 'get_file_content', 'get_file_contents', 'is_sensitive', 'is_sensitive_dir', 'File']
    .map((n) => [n, notEvaluated(n, "needs the agent's workspace files, which the trace does not carry")])),
  invariant: {
    llm: notEvaluated('llm', MODEL('an LLM')),
    llm_confirm: notEvaluated('llm_confirm', MODEL('an LLM')),
    ...BUILTINS,
  },
};

