/**
 * Whether a text is a file of spans, from its first characters only (other JSON files cost a bounded scan and stay
 * untouched): an OTLP/JSON export (`resourceSpans` at the top of its first value, as the collector's file exporter
 * writes each line) or any-agent's `{"spans": [...]}` whose spans carry span ids.
 */
import { createScanner } from 'jsonc-parser';
import { Token } from '../json/tokens';
import type { SpansShape } from './types';

const scanLimit = 64 * 1024;

export function detectSpans(text: string): SpansShape | undefined {
  const prefix = text.length > scanLimit ? text.slice(0, scanLimit) : text;
  if (!/"(?:resourceSpans|spans)"/.test(prefix)) return undefined;
  const scanner = createScanner(prefix, true);
  let depth = 0;
  let expectKey = false;
  let inSpans = false;
  const objects: boolean[] = [];
  for (let token = scanner.scan(), steps = 0; token !== Token.EOF && steps < 100_000; token = scanner.scan(), steps++) {
    switch (token) {
      case Token.OpenBrace:
      case Token.OpenBracket:
        if (depth === 0 && token !== Token.OpenBrace) return undefined;
        objects.push(token === Token.OpenBrace);
        depth++;
        expectKey = token === Token.OpenBrace;
        break;
      case Token.CloseBrace:
      case Token.CloseBracket:
        objects.pop();
        depth--;
        if (depth === 1) inSpans = false;
        if (depth === 0) return undefined;
        expectKey = false;
        break;
      case Token.Comma:
        expectKey = objects[objects.length - 1] === true;
        break;
      case Token.Colon:
        expectKey = false;
        break;
      case Token.String:
        if (!expectKey) break;
        if (depth === 1) {
          const key = scanner.getTokenValue();
          if (key === 'resourceSpans') return 'otlp';
          inSpans = key === 'spans';
        } else if (depth === 3 && inSpans) {
          const key = scanner.getTokenValue();
          if (key === 'spanId' || key === 'traceId') return 'otlp';
          if (key === 'context' || key === 'span_id') return 'any-agent';
        }
        break;
      default:
        break;
    }
  }
  return undefined;
}
