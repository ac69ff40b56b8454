// Random JSON text for the readers' tests: strings with escapes of every kind, numbers, white space as editors
// write it, containers nested a few levels, shaped like a trace often enough that every shape of its plan occurs.

/** Escapes of every kind, raw characters beyond ASCII, and text that looks like an escape without being one. */
const stringPieces = [
  'plain', 'tool_call_id', 'role', 'assistant', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u00e9', '\\uD83D\\uDE00',
  '\\u0000', '\\\\n', '\\\\\\"', 'é', '🙂', '—', ' ', '{', '}', '[', ']', ',', ':', 'true', '-1.5e3',
];
const keys = ['role', 'content', 'tool_calls', 'tool_call_id', 'id', 'type', 'function', 'name', 'arguments', 'messages', 'k\\"ey', 'x', 'text', 'image_url'];
const numbers = ['0', '-0', '7', '-12', '3.25', '1e5', '1E+5', '-2.5e-3', '12345678901234567890', '0.0'];

/** A JSON string literal of random pieces: short ones (decoded in the tree) and long ones (left in the text). */
export function stringLiteral(next: () => number): string {
  const count = next() < 0.3 ? 20 + Math.floor(next() * 60) : Math.floor(next() * 6);
  let out = '"';
  for (let i = 0; i < count; i++) out += stringPieces[Math.floor(next() * stringPieces.length)];
  return `${out}"`;
}

/** Whitespace as editors and serializers write it: spaces, tabs, LF, CRLF, a lone CR. */
export function space(next: () => number): string {
  const r = next();
  if (r < 0.4) return '';
  if (r < 0.6) return ' ';
  if (r < 0.75) return '\n  ';
  if (r < 0.85) return '\r\n\t';
  if (r < 0.92) return '\r';
  return ' \t ';
}

/** A random JSON value shaped like a trace often enough that every shape of the trace plan is recorded. */
export function value(next: () => number, depth: number): string {
  const r = next();
  if (depth > 5 || r < 0.35) {
    const s = next();
    if (s < 0.5) return stringLiteral(next);
    if (s < 0.75) return numbers[Math.floor(next() * numbers.length)];
    return ['true', 'false', 'null'][Math.floor(next() * 3)];
  }
  const count = Math.floor(next() * 5);
  const members: string[] = [];
  if (r < 0.7) {
    for (let i = 0; i < count; i++) {
      const key = keys[Math.floor(next() * keys.length)];
      members.push(`${space(next)}"${key}"${space(next)}:${space(next)}${value(next, depth + 1)}${space(next)}`);
    }
    return `{${members.join(',')}${count === 0 ? space(next) : ''}}`;
  }
  for (let i = 0; i < count; i++) members.push(`${space(next)}${value(next, depth + 1)}${space(next)}`);
  return `[${members.join(',')}${count === 0 ? space(next) : ''}]`;
}

/** A trace: an array of events (or `{"messages": [...]}`), each event a random object. */
export function trace(next: () => number): string {
  const events: string[] = [];
  const count = 1 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) events.push(`${space(next)}${value(next, 1)}`);
  const array = `[${events.join(',')}${space(next)}]`;
  return next() < 0.3 ? `{${space(next)}"messages":${space(next)}${array}, "x": ${value(next, 1)}}` : array;
}
