/** Text cut to at most `max` characters, an ellipsis standing for what was cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/** A time limit as messages write it: 5000 → "5 s", 1500 → "1.5 s", 250 → "250 ms". */
export function duration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(2)).toLocaleString('en-US')} s` : `${ms.toLocaleString('en-US')} ms`;
}

/** A count as messages write it: 1,234,567. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** What the server's log says of an error: its stack when it has one. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}

/** First line of a text, whitespace collapsed, cut at max. */
export function firstLine(text: string, max: number): string {
  const trimmed = text.trimStart();
  const newline = trimmed.indexOf('\n');
  const line = (newline === -1 ? trimmed : trimmed.slice(0, newline)).replace(/\s+/g, ' ').trim();
  return shorten(line, max);
}

/** The first `count` lines of a text, cut at maxChars. */
export function firstLines(text: string, count: number, maxChars: number): string {
  const lines = text.split('\n', count + 1);
  let out = lines.slice(0, count).join('\n');
  if (lines.length > count || out.length > maxChars) out = `${out.slice(0, maxChars)}\n…`;
  return out;
}

/** The length of text in UTF-8 bytes, without encoding it (Node's Buffer.byteLength where there is one). */
export function utf8Length(text: string): number {
  if (typeof Buffer === 'function') return Buffer.byteLength(text);
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x800) bytes += unit >= 0xd800 && unit <= 0xdbff ? 1 : 2; // a surrogate pair is 4 bytes for 2 units
    else if (unit >= 0x80) bytes += 1;
  }
  return bytes;
}
