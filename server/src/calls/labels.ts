/** One-line renderings of calls shared by the formats. */
import { createScanner } from 'jsonc-parser';
import { Token } from '../json/tokens';
import { shorten } from '../common/text';

/** `name=value, …` for the top-level entries of a JSON object text, at most max characters. */
export function compactObject(source: string, max: number): string {
  const scanner = createScanner(source, true);
  const parts: string[] = [];
  let length = 0;
  let depth = 0;
  let key: string | undefined;
  let expectKey = false;
  let token = scanner.scan();
  if (token !== Token.OpenBrace) return shorten(source.replace(/\s+/g, ' '), max);
  depth = 1;
  expectKey = true;
  while (length < max) {
    token = scanner.scan();
    if (token === Token.EOF) break;
    if (depth === 1) {
      if (token === Token.CloseBrace) break;
      if (token === Token.Comma) { expectKey = true; continue; }
      if (token === Token.Colon) continue;
      if (expectKey && token === Token.String) { key = scanner.getTokenValue(); expectKey = false; continue; }
      let shown: string;
      if (token === Token.OpenBrace || token === Token.OpenBracket) { shown = token === Token.OpenBrace ? '{…}' : '[…]'; depth++; }
      else if (token === Token.String) shown = JSON.stringify(shorten(scanner.getTokenValue().replace(/\s+/g, ' '), 24));
      else shown = scanner.getTokenValue() || source.substr(scanner.getTokenOffset(), scanner.getTokenLength());
      const part = key !== undefined ? `${key}=${shown}` : shown;
      parts.push(part);
      length += part.length + 2;
      key = undefined;
    } else if (token === Token.OpenBrace || token === Token.OpenBracket) depth++;
    else if (token === Token.CloseBrace || token === Token.CloseBracket) depth--;
  }
  return shorten(parts.join(', '), max);
}
