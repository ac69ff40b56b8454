import { PyError } from './values';

/**
 * Python `re` patterns run on JavaScript's engine. The analyzer's patterns are Python regexes; the differences that
 * matter are translated: `$` also matches before a final newline, `\Z` and `\A`, named groups `(?P<n>…)` and
 * back-references `(?P=n)`, Unicode `\w`, `\d` and `\b`, leading inline flags `(?i)`, `(?s)`, `(?m)`, `(?x)` and scoped
 * ones `(?i:…)`, `(?s:…)`, `(?-s:…)`, a dot that stops only at `\n` (JavaScript's also stops at `\r`), and the
 * escapes and braces Python reads literally where JavaScript's Unicode mode would reject them. Offsets that
 * leave this module are UTF-16 offsets into the JavaScript string; callers convert to code points.
 */

export interface PyRegexFlags {
  ignoreCase?: boolean;
  dotAll?: boolean;
  multiline?: boolean;
  verbose?: boolean;
}

const cache = new Map<string, RegExp>();
const SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);
const WORD = '[\\p{L}\\p{N}_]';
const WORD_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const QUANTIFIER_BRACE = /^\{(\d+(,\d*)?|,\d+)\}/;

export class PyRegexError extends PyError {
  constructor(pattern: string, reason: string) {
    super('re.error', `${reason} in the regular expression ${JSON.stringify(pattern)}`);
  }
}

/** A compiled JavaScript RegExp (flags `gu` plus translated ones) equivalent to the Python pattern. */
export function compile(pattern: string, flags: PyRegexFlags = {}, sticky = false): RegExp {
  const key = `${sticky ? 'y' : ''}${flags.ignoreCase ? 'i' : ''}${flags.dotAll ? 's' : ''}${flags.multiline ? 'm' : ''}${flags.verbose ? 'x' : ''}\u0000${pattern}`;
  let re = cache.get(key);
  if (!re) {
    re = translate(pattern, { ...flags }, sticky);
    if (cache.size > 2000) cache.clear();
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

function translate(pattern: string, flags: PyRegexFlags, sticky: boolean): RegExp {
  let p = pattern;
  // Leading global inline flags, e.g. (?i) or (?is).
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(p); m; m = /^\(\?([aiLmsux]+)\)/.exec(p)) {
    for (const f of m[1]) {
      if (f === 'i') flags.ignoreCase = true;
      else if (f === 's') flags.dotAll = true;
      else if (f === 'm') flags.multiline = true;
      else if (f === 'x') flags.verbose = true;
    }
    p = p.slice(m[0].length);
  }
  let out = '';
  let inClass = false;
  let classStart = false;
  // Flags scoped to groups, e.g. (?i:…) or (?-s:…): one entry per open group. Scoped ignore-case is spelled out
  // letter by letter ([aA]); the dot is always spelled out, since JavaScript's also stops at \r, \u2028 and \u2029.
  const scopes: { dotAll: boolean; ignoreCase: boolean }[] = [{ dotAll: !!flags.dotAll, ignoreCase: false }];
  const scope = () => scopes[scopes.length - 1];
  const cased = (ch: string): string => {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    return lower !== upper && lower.length === 1 && upper.length === 1 ? lower + upper : ch;
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (flags.verbose && !inClass) {
      if (/\s/.test(c)) continue;
      if (c === '#') {
        while (i < p.length && p[i] !== '\n') i++;
        continue;
      }
    }
    if (c === '\\') {
      const d = p[i + 1];
      if (d === undefined) throw new PyRegexError(pattern, 'bad escape (end of pattern)');
      i++;
      if (d === 'Z' && !inClass) out += '(?![\\s\\S])';
      else if (d === 'A' && !inClass) out += '(?<![\\s\\S])';
      else if (d === 'w') out += inClass ? '\\p{L}\\p{N}_' : '[\\p{L}\\p{N}_]';
      else if (d === 'W') out += inClass ? '\\P{L}' : '[^\\p{L}\\p{N}_]';
      else if (d === 'd') out += inClass ? '\\p{Nd}' : '\\p{Nd}';
      else if (d === 'D') out += '\\P{Nd}';
      else if (/[0-9]/.test(d) && !inClass && d !== '0') {
        let digits = d;
        while (/[0-9]/.test(p[i + 1] ?? '') && digits.length < 2) digits += p[++i];
        out += '\\' + digits;
      } else if (/[a-zA-Z0-9]/.test(d)) {
        if (d === 'x' || d === 'u' || d === 'U' || d === 'N') {
          if (d === 'U') {
            const hex = p.slice(i + 1, i + 9);
            out += `\\u{${hex.replace(/^0+/, '') || '0'}}`;
            i += 8;
          } else if (d === 'N') {
            throw new PyRegexError(pattern, 'named Unicode escapes (\\N{…}) are not supported');
          } else {
            out += '\\' + d;
          }
        } else if ((d === 'b' || d === 'B') && !inClass) {
          // Python's word boundary knows Unicode letters; JavaScript's \b only ASCII ones.
          out += d === 'b' ? WORD_BOUNDARY : `(?!${WORD_BOUNDARY})`;
        } else if ('bsSntrfv0'.includes(d)) {
          out += d === 'b' ? '\\x08' : '\\' + d;
        } else {
          throw new PyRegexError(pattern, `bad escape \\${d}`);
        }
      } else if (SYNTAX.has(d) || (inClass && d === '-')) {
        out += '\\' + d;
      } else {
        out += escapeLiteral(d);
      }
      classStart = false;
      continue;
    }
    if (inClass) {
      if (c === ']' && !classStart) inClass = false;
      if (c === '[') out += '\\[';
      else if (c === ']' && classStart) out += '\\]';
      else if (scope().ignoreCase && /[a-zA-Z]/.test(c) && p[i + 1] === '-' && /[a-zA-Z]/.test(p[i + 2] ?? '')) {
        const last = p[i + 2];
        out += `${c}-${last}`;
        if (c.toLowerCase() !== c.toUpperCase()) out += `${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}-${last === last.toLowerCase() ? last.toUpperCase() : last.toLowerCase()}`;
        i += 2;
      } else out += scope().ignoreCase ? cased(c) : c;
      classStart = classStart && c === '^' && p[i - 1] === '[';
      continue;
    }
    switch (c) {
      case '[':
        inClass = true;
        classStart = true;
        out += c;
        if (p[i + 1] === '^') {
          out += '^';
          i++;
        }
        break;
      case '$':
        out += flags.multiline ? '(?=\\n|(?![\\s\\S]))' : '(?=\\n?(?![\\s\\S]))';
        break;
      case '^':
        out += flags.multiline ? '(?<=^|\\n)' : '(?<![\\s\\S])';
        break;
      case '(': {
        const scoped = /^\(\?([aiLmsux]*)(?:-([imsx]+))?:/.exec(p.slice(i));
        if (scoped && (scoped[1] !== '' || scoped[2])) {
          const next = { ...scope() };
          for (const f of scoped[1]) {
            if (f === 's') next.dotAll = true;
            else if (f === 'i') next.ignoreCase = !flags.ignoreCase;
            else if (f !== 'a' && f !== 'u' && f !== 'L') throw new PyRegexError(pattern, `the scoped inline flag '${f}' is not supported here`);
          }
          for (const f of scoped[2] ?? '') {
            if (f === 's') next.dotAll = false;
            else if (f === 'i' && flags.ignoreCase) throw new PyRegexError(pattern, "turning ignore-case off inside (?i) is not supported here");
            else if (f === 'i') next.ignoreCase = false;
            else throw new PyRegexError(pattern, `the scoped inline flag '${f}' is not supported here`);
          }
          scopes.push(next);
          out += '(?:';
          i += scoped[0].length - 1;
          break;
        }
        scopes.push({ ...scope() });
        if (p.startsWith('(?P<', i)) {
          out += '(?<';
          i += 3;
        } else if (p.startsWith('(?P=', i)) {
          scopes.pop();
          const close = p.indexOf(')', i);
          out += `\\k<${p.slice(i + 4, close)}>`;
          i = close;
        } else if (p.startsWith('(?#', i)) {
          scopes.pop();
          i = p.indexOf(')', i);
          if (i < 0) throw new PyRegexError(pattern, 'missing ), unterminated comment');
        } else {
          const group = /^\(\?(?::|=|!|<=|<!|<(?=[A-Za-z_]))/.exec(p.slice(i));
          if (group) {
            out += group[0];
            i += group[0].length - 1;
          } else if (p[i + 1] === '?') {
            throw new PyRegexError(pattern, 'unknown extension or scoped inline flags (not supported here)');
          } else {
            out += c;
          }
        }
        break;
      }
      case ')':
        if (scopes.length > 1) scopes.pop();
        out += c;
        break;
      case '.':
        out += scope().dotAll ? '[\\s\\S]' : '[^\\n]';
        break;
      case '{': {
        const m = QUANTIFIER_BRACE.exec(p.slice(i));
        if (m && out.length > 0) {
          out += m[0].startsWith('{,') ? '{0' + m[0].slice(1) : m[0];
          i += m[0].length - 1;
          if (p[i + 1] === '+') throw new PyRegexError(pattern, 'possessive quantifiers are not supported');
        } else {
          out += '\\{';
        }
        break;
      }
      case '}':
        out += '\\}';
        break;
      case ']':
        out += '\\]';
        break;
      case '*': case '+': case '?':
        if (out.length === 0 || /[|(]$/.test(out)) throw new PyRegexError(pattern, 'nothing to repeat');
        if (p[i + 1] === '+') throw new PyRegexError(pattern, 'possessive quantifiers are not supported');
        if (p[i + 1] === '*') throw new PyRegexError(pattern, 'multiple repeat');
        out += c;
        break;
      default:
        out += c === '/' ? '\\/' : scope().ignoreCase && /[a-zA-Z]/.test(c) ? `[${cased(c)}]` : c;
    }
  }
  if (inClass) throw new PyRegexError(pattern, 'unterminated character set');
  let jsFlags = sticky ? 'yu' : 'gu';
  if (flags.ignoreCase) jsFlags += 'i';
  if (flags.dotAll) jsFlags += 's';
  try {
    return new RegExp(out, jsFlags);
  } catch (e) {
    throw new PyRegexError(pattern, (e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}

function escapeLiteral(ch: string): string {
  return SYNTAX.has(ch) ? '\\' + ch : ch === '-' ? '-' : ch;
}

/** `re.match(pattern, s)`: a match anchored at the start, or null. */
export function pyMatch(pattern: string, s: string, flags?: PyRegexFlags): RegExpExecArray | null {
  return compile(pattern, flags, true).exec(s);
}

/** `re.match(pattern + "$", s)`: whether the whole string (or all but a final newline) matches. */
export function pyFullMatch(pattern: string, s: string, flags?: PyRegexFlags): boolean {
  return pyMatch(pattern + '$', s, flags) !== null;
}

/** `re.finditer(pattern, s)`: every non-overlapping match as [start, end) UTF-16 offsets, and its text. */
export function pyFindIter(pattern: string, s: string, flags?: PyRegexFlags): { start: number; end: number; text: string }[] {
  const re = compile(pattern, flags);
  const out: { start: number; end: number; text: string }[] = [];
  for (const m of s.matchAll(re)) out.push({ start: m.index!, end: m.index! + m[0].length, text: m[0] });
  return out;
}
