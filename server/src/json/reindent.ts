/**
 * JSON text laid out again with two-space indentation, token by token: strings and numbers are copied as written
 * (no parse, so no number loses digits and nothing is reordered), whitespace between tokens is replaced. Input that
 * is not JSON comes out with its characters in the same order, for the parser to report. No recursion: depth is a
 * counter, so any nesting costs the same.
 */

const openers = new Set(['{', '[']);

/** `text` laid out as Inspect's own JSON logs are, every line after the first indented `depth` levels more. */
export function reindentJson(text: string, depth = 0): string {
  const out: string[] = [];
  let level = depth;
  const newline = () => '\n' + '  '.repeat(level);
  const length = text.length;
  let i = 0;
  while (i < length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out.push(text.slice(i, end));
      i = end;
    } else if (openers.has(char)) {
      const next = nextToken(text, i + 1);
      const closer = char === '{' ? '}' : ']';
      if (text[next] === closer) {
        out.push(char + closer);
        i = next + 1;
      } else {
        level++;
        out.push(char + newline());
        i++;
      }
    } else if (char === '}' || char === ']') {
      level = Math.max(depth, level - 1);
      out.push(newline() + char);
      i++;
    } else if (char === ',') {
      out.push(',' + newline());
      i++;
    } else if (char === ':') {
      out.push(': ');
      i++;
    } else if (char === ' ' || char === '\n' || char === '\r' || char === '\t') {
      i++;
    } else {
      let end = i + 1;
      while (end < length && !isDelimiter(text[end])) end++;
      out.push(text.slice(i, end));
      i = end;
    }
  }
  return out.join('');
}

/** The index just past the string starting at `start` (the end of the text when it is not closed). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (true) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; k > start && text[k] === '\\'; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

function nextToken(text: string, from: number): number {
  let at = from;
  while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  return at;
}

function isDelimiter(char: string): boolean {
  return char === ',' || char === ':' || char === '{' || char === '}' || char === '[' || char === ']' || char === '"'
    || char === ' ' || char === '\n' || char === '\r' || char === '\t';
}
