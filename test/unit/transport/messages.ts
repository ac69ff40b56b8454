/** A didOpen message's body holding `text`. */
export function didOpen(text: string): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.trace.json', languageId: 'agent-trace', version: 1, text } } }));
}

const alphabet = ['a', ' ', '"', '\\', '/', '\n', '\t', '\u0000', 'é', '—', '😀', '\ud800', '\udc00', '{', '}', ':', ',', 'u', '0'];

/**
 * The body of a didOpen of up to `longest` characters drawn from what JSON strings make hard (quotes, backslashes,
 * control characters, surrogates, characters of every UTF-8 length). Round `round` of a series: one in three has a
 * byte changed at random, one in five a backslash put where it may break an escape.
 */
export function randomDidOpen(next: () => number, round: number, longest: number): Buffer {
  const parts: string[] = [];
  const length = Math.floor(next() * longest);
  for (let i = 0; i < length; i++) parts.push(alphabet[Math.floor(next() * alphabet.length)]);
  const bytes = didOpen(parts.join(''));
  if (round % 3 === 0) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
  if (round % 5 === 0) bytes[Math.floor(next() * bytes.length)] = 0x5c;
  return bytes;
}
