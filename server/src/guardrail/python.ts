/**
 * What a rule file needs to know about the Python modules it imports: whether a module belongs to Python's own
 * standard library, and which names a module file defines at its top level, with the signature and docstring of
 * its functions and classes. A small bounded scanner over the file's logical lines, not a Python parser: it reads
 * strings, comments and brackets only to know where statements start.
 */
import { lookup } from '../common/lookup';
import type { Span } from '../common/types';

/** Top-level modules of Python's standard library (3.11's `sys.stdlib_module_names`, without private ones). */
const PYTHON_STDLIB = new Set((
  '__future__ abc aifc argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect builtins '
  + 'bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall concurrent '
  + 'configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib '
  + 'dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions '
  + 'ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http '
  + 'idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale logging '
  + 'lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt '
  + 'ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil '
  + 'platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat '
  + 'queue quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex '
  + 'shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl '
  + 'stat statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile '
  + 'telnetlib tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback '
  + 'tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref '
  + 'webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo'
).split(' '));

/** A module the rules import that is neither the Guardrails standard library nor Python's own. */
export function isThirdPartyModule(module: string): boolean {
  if (module === 'invariant' || module.startsWith('invariant.')) return false;
  return !PYTHON_STDLIB.has(module.split('.')[0]);
}

/**
 * Python's own modules that rules may use and the local evaluator runs (evaluate/stdlib): each with the public names
 * it has in Python 3.11 (dir() without private names), of which the evaluator provides most.
 */
export const EVALUATED_MODULES: Record<string, readonly string[]> = lookup({
  json: words('JSONDecodeError JSONDecoder JSONEncoder codecs decoder detect_encoding dump dumps encoder load loads scanner'),
  re: words('A ASCII DEBUG DOTALL I IGNORECASE L LOCALE M MULTILINE Match NOFLAG Pattern RegexFlag S Scanner T TEMPLATE U UNICODE '
    + 'VERBOSE X compile copyreg enum error escape findall finditer fullmatch functools match purge search split sub subn template'),
  math: words('acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees dist e erf erfc exp exp2 expm1 fabs '
    + 'factorial floor fmod frexp fsum gamma gcd hypot inf isclose isfinite isinf isnan isqrt lcm ldexp lgamma log log10 '
    + 'log1p log2 modf nan nextafter perm pi pow prod radians remainder sin sinh sqrt tan tanh tau trunc ulp'),
  string: words('Formatter Template ascii_letters ascii_lowercase ascii_uppercase capwords digits hexdigits octdigits printable '
    + 'punctuation whitespace'),
});

function words(text: string): string[] {
  return text.split(' ');
}

/**
 * Modules that can act on the machine or the network: run programs, read, write or delete files, open connections,
 * load code, read the environment. Imported in a rule, they are never run here.
 */
const MACHINE_MODULES = new Set((
  'os posix nt posixpath ntpath subprocess socket socketserver ssl select selectors shutil pathlib glob fnmatch tempfile io '
  + 'sys builtins importlib imp pkgutil runpy code codeop ctypes multiprocessing threading _thread concurrent asyncio signal '
  + 'pty tty termios fcntl resource mmap pwd grp spwd crypt platform sysconfig site webbrowser http urllib ftplib poplib '
  + 'imaplib nntplib smtplib smtpd telnetlib xmlrpc wsgiref pickle marshal shelve dbm sqlite3 zipfile tarfile gzip bz2 '
  + 'lzma zipimport fileinput filecmp linecache tracemalloc faulthandler gc inspect logging msvcrt winreg winsound '
  + 'ensurepip venv distutils pdb bdb trace cProfile profile timeit requests urllib3 httpx aiohttp paramiko boto3 '
  + 'docker pexpect sh plumbum fabric'
).split(' '));

/** A module (or a submodule of one) that can act on the machine or the network: never run here. */
export function isMachineModule(module: string): boolean {
  return MACHINE_MODULES.has(module.split('.')[0]);
}

/**
 * Python's built-in functions that run code, touch files or reach the interpreter's internals. They are not names of
 * the rule language (the official analyzer cannot resolve them either), so a rule can never call them; the error on
 * such a name says why, since a user may expect Python's.
 */
const UNSAFE_BUILTINS = lookup({
  eval: 'runs any Python code',
  exec: 'runs any Python code',
  compile: 'makes Python code to run',
  __import__: 'loads any module',
  open: 'reads and writes files',
  breakpoint: 'stops the process in a debugger',
  exit: 'ends the process',
  quit: 'ends the process',
  help: 'reads files and starts a pager',
  getattr: "reaches Python's interpreter internals",
  setattr: "reaches Python's interpreter internals",
  delattr: "reaches Python's interpreter internals",
  globals: "reaches Python's interpreter internals",
  locals: "reaches Python's interpreter internals",
  vars: "reaches Python's interpreter internals",
});

/** Why Python's built-in `name` is not part of the rule language, when it is one of those that act on the machine. */
export function unsafeBuiltinReason(name: string): string | undefined {
  const what = UNSAFE_BUILTINS[name];
  return what === undefined ? undefined : `Python's ${name} is not part of the rule language: it ${what}, which rules never do`;
}

export interface PythonName {
  name: string;
  kind: 'function' | 'class' | 'variable' | 'import';
  /** The name where it is bound. */
  nameSpan: Span;
  /** The statement's header (for a def: `def` up to its closing `:`). */
  statementSpan: Span;
  /** `def name(params) -> result` / `class Name(bases)`, whitespace collapsed, capped. */
  signature?: string;
  docstring?: string;
}

export interface PythonModuleInfo {
  names: Map<string, PythonName>;
  /** A top-level `from x import *`: any name may exist. */
  wildcard: boolean;
}

const MAX_SIGNATURE = 400;
const MAX_DOCSTRING = 2000;

interface LogicalLine {
  indent: number;
  start: number;
  end: number;
}

/** Logical lines (brackets, strings and backslashes joined), skipping blank and comment-only lines. */
function logicalLines(text: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let p = i;
    while (p < n && (text[p] === ' ' || text[p] === '\t')) p++;
    const indent = p - i;
    if (p >= n) break;
    if (text[p] === '\n' || text[p] === '\r' || text[p] === '#') {
      const eol = text.indexOf('\n', p);
      i = eol === -1 ? n : eol + 1;
      continue;
    }
    const start = p;
    let depth = 0;
    for (;;) {
      if (p >= n) break;
      const c = text[p];
      if (c === '#') {
        const eol = text.indexOf('\n', p);
        p = eol === -1 ? n : eol;
        continue;
      }
      if (c === '"' || c === "'") {
        p = skipString(text, p);
        continue;
      }
      if (c === '\\' && text[p + 1] === '\n') {
        p += 2;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
      else if (c === '\n' && depth === 0) break;
      p++;
    }
    lines.push({ indent, start, end: p });
    i = p + 1;
  }
  return lines;
}

/** The offset after the string literal starting at `p` (unterminated single-quoted strings end at the line). */
function skipString(text: string, p: number): number {
  const q = text[p];
  const triple = text[p + 1] === q && text[p + 2] === q;
  let i = p + (triple ? 3 : 1);
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (triple) {
      if (c === q && text[i + 1] === q && text[i + 2] === q) return i + 3;
    } else if (c === q) return i + 1;
    else if (c === '\n') return i;
    i++;
  }
  return text.length;
}

const DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/;
const CLASS = /^class\s+([A-Za-z_]\w*)/;
const ASSIGN = /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=\n]*)?=(?!=)/;
const IMPORT = /^import\s+/;
const FROM_IMPORT = /^from\s+[\w.]+\s+import\s+/;
const COMPOUND = /^(?:if|elif|else|try|except|finally|with|for|while)\b/;

/** The names a Python module file binds at its top level (also inside top-level if/try/with blocks). */
export function scanPythonModule(text: string): PythonModuleInfo {
  const info: PythonModuleInfo = { names: new Map(), wildcard: false };
  const lines = logicalLines(text);
  let blockIndent = -1;
  let inCompound = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (line.indent === 0) {
      inCompound = COMPOUND.test(text.slice(line.start, line.start + 8));
      blockIndent = -1;
    } else if (inCompound) {
      if (blockIndent === -1) blockIndent = line.indent;
      if (line.indent !== blockIndent) continue;
    } else continue;
    readStatement(text, lines, k, info);
  }
  return info;
}

function add(info: PythonModuleInfo, entry: PythonName): void {
  if (!info.names.has(entry.name)) info.names.set(entry.name, entry);
}

function readStatement(text: string, lines: LogicalLine[], k: number, info: PythonModuleInfo): void {
  const line = lines[k];
  const source = text.slice(line.start, line.end);
  let m = DEF.exec(source) ?? CLASS.exec(source);
  if (m) {
    const nameStart = line.start + m[0].length - m[1].length;
    const header = headerText(source);
    add(info, {
      name: m[1],
      kind: source.startsWith('class') ? 'class' : 'function',
      nameSpan: { start: nameStart, end: nameStart + m[1].length },
      statementSpan: { start: line.start, end: line.start + header.length },
      signature: cap(header.replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/,?\s*\)/g, ')').replace(/:$/, ''), MAX_SIGNATURE),
      docstring: docstringAfter(text, lines, k),
    });
    return;
  }
  if (FROM_IMPORT.test(source)) {
    const list = source.slice(FROM_IMPORT.exec(source)![0].length).replace(/[()]/g, ' ').replace(/#[^\n]*/g, '');
    for (const part of list.split(',')) {
      const words = part.trim().split(/\s+/);
      if (words[0] === '*') info.wildcard = true;
      const bound = words[1] === 'as' ? words[2] : words[0];
      if (bound && /^[A-Za-z_]\w*$/.test(bound)) add(info, boundName(text, line, bound, 'import'));
    }
    return;
  }
  if (IMPORT.test(source)) {
    for (const part of source.slice(IMPORT.exec(source)![0].length).split(',')) {
      const words = part.trim().split(/\s+/);
      const bound = words[1] === 'as' ? words[2] : words[0]?.split('.')[0];
      if (bound && /^[A-Za-z_]\w*$/.test(bound)) add(info, boundName(text, line, bound, 'import'));
    }
    return;
  }
  m = ASSIGN.exec(source);
  if (m) {
    for (const name of m[1].split(',')) add(info, boundName(text, line, name.trim(), 'variable'));
    return;
  }
}

function boundName(text: string, line: LogicalLine, name: string, kind: PythonName['kind']): PythonName {
  const at = text.slice(line.start, line.end).search(new RegExp(`\\b${name}\\b`));
  const start = line.start + Math.max(0, at);
  return { name, kind, nameSpan: { start, end: start + name.length }, statementSpan: { start: line.start, end: line.end } };
}

/** `def f(a, b) -> int:` up to and including the colon that ends the header (brackets and strings skipped). */
function headerText(source: string): string {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'") {
      i = skipString(source, i) - 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ':' && depth === 0) return source.slice(0, i + 1);
  }
  return source;
}

/** The docstring of the def or class on logical line k: its body's first statement, when that is a string. */
function docstringAfter(text: string, lines: LogicalLine[], k: number): string | undefined {
  const body = lines[k + 1];
  if (!body || body.indent <= lines[k].indent) return undefined;
  const m = /^[rRuU]?("""|'''|"|')/.exec(text.slice(body.start, body.start + 4));
  if (!m) return undefined;
  const open = body.start + m[0].length;
  const close = text.indexOf(m[1], open);
  if (close === -1 || close > body.end) return undefined;
  return cap(cleanDocstring(text.slice(open, close)), MAX_DOCSTRING);
}

/** Like Python's inspect.cleandoc: the first line trimmed, the common indentation of the rest removed. */
function cleanDocstring(raw: string): string {
  const lines = raw.replace(/\r/g, '').split('\n');
  let common = Infinity;
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    common = Math.min(common, line.length - line.trimStart().length);
  }
  const rest = lines.slice(1).map((line) => (common === Infinity ? line.trim() : line.slice(common).trimEnd()));
  return [lines[0].trim(), ...rest].join('\n').trim();
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const scanned = new Map<string, { text: string; info: PythonModuleInfo }>();
const MAX_CACHED = 32;

/** scanPythonModule, cached per file while its text stays the same. */
export function pythonModuleInfo(uri: string, text: string): PythonModuleInfo {
  const cached = scanned.get(uri);
  if (cached && cached.text === text) return cached.info;
  const info = scanPythonModule(text);
  scanned.delete(uri);
  scanned.set(uri, { text, info });
  if (scanned.size > MAX_CACHED) scanned.delete(scanned.keys().next().value!);
  return info;
}
