import type { Expr } from '../ast';

const cache = new WeakMap<object, string>();

/**
 * A string literal's value as the analyzer reads it: an `r`/`f` prefix is ignored (f-strings are not
 * interpolated), a single-line literal unescapes only its own quote character, and a triple-quoted one is dedented
 * and not unescaped at all.
 */
export function stringValue(source: string, e: Extract<Expr, { kind: 'string' }>): string {
  const cached = cache.get(e);
  if (cached !== undefined) return cached;
  const raw = source.slice(e.start, e.end);
  const body = raw.slice(e.prefix.length);
  const quote = body[0];
  let value: string;
  if (e.triple) {
    value = dedent(body.slice(3, body.endsWith(quote.repeat(3)) && body.length >= 6 ? -3 : undefined));
  } else {
    const inner = body.slice(1, body.length >= 2 && body.endsWith(quote) ? -1 : undefined);
    value = inner.split('\\' + quote).join(quote);
  }
  cache.set(e, value);
  return value;
}

/** Python's textwrap.dedent: removes the common leading whitespace of the non-blank lines. */
function dedent(text: string): string {
  const lines = text.split('\n');
  let prefix: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const ws = /^[ \t]*/.exec(line)![0];
    if (prefix === null) prefix = ws;
    else {
      let i = 0;
      while (i < prefix.length && i < ws.length && prefix[i] === ws[i]) i++;
      prefix = prefix.slice(0, i);
    }
  }
  return lines.map((l) => (l.trim() === '' ? l.replace(/^[ \t]+$/, '') : l.slice(prefix?.length ?? 0))).join('\n');
}
