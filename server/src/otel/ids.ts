/**
 * Span and trace ids as the writers of spans write them, made one comparable form (lowercase hex): OTLP/JSON writes
 * hex (the spec) or base64 (protobuf's JSON mapping: 12 characters for a span id, 24 for a trace id); any-agent
 * writes the integer itself, often wider than 2^53 (read from the number's source text, never as a double); some
 * writers add `0x`. Tool call ids are matched trimmed (the GenAI conventions' own example has a leading space).
 */
import { transientStringValue, type JsonNode } from '../json/nodes';

export interface ReadId {
  /** Lowercase hex, zero-padded to the id's width. */
  hex: string;
  /** How the file wrote it, for hovers. */
  encoding: 'hex' | 'base64' | 'integer';
}

/** An id of `bytes` bytes (8 for spans, 16 for traces) from its node; undefined when absent, null, empty or unreadable. */
export function readSpanId(node: JsonNode | undefined, bytes: 8 | 16): ReadId | undefined {
  if (!node) return undefined;
  if (node.type === 'number') return integerId(node.raw, bytes);
  if (node.type !== 'string') return undefined;
  // Not kept on the node: the id is kept as hex.
  return idOfText(transientStringValue(node).trim(), bytes);
}

export function idOfText(text: string, bytes: 8 | 16): ReadId | undefined {
  if (text === '') return undefined;
  const hexDigits = bytes * 2;
  const bare = /^0x/i.test(text) ? text.slice(2) : text;
  if (/^[0-9a-f]+$/i.test(bare) && bare.length <= hexDigits && (bare.length === hexDigits || bare !== text)) {
    return { hex: bare.toLowerCase().padStart(hexDigits, '0'), encoding: 'hex' };
  }
  if (/^\d+$/.test(text) && text.length <= 40) return integerId(text, bytes);
  const base64 = base64Hex(text, bytes);
  if (base64) return { hex: base64, encoding: 'base64' };
  return undefined;
}

function integerId(raw: string, bytes: 8 | 16): ReadId | undefined {
  if (!/^\d+$/.test(raw) || raw.length > 40) return undefined;
  const hex = BigInt(raw).toString(16);
  return hex.length > bytes * 2 ? undefined : { hex: hex.padStart(bytes * 2, '0'), encoding: 'integer' };
}

function base64Hex(text: string, bytes: number): string | undefined {
  if (text.length !== Math.ceil(bytes / 3) * 4 || !/^[A-Za-z0-9+/_-]+=*$/.test(text)) return undefined;
  const digits = text.replace(/=+$/, '');
  let bits = 0;
  let value = 0;
  let hex = '';
  for (const char of digits) {
    value = (value << 6) | base64Digits.indexOf(char === '-' ? '+' : char === '_' ? '/' : char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((value >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  return hex.length === bytes * 2 ? hex : undefined;
}

const base64Digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** An id that is all zeros stands for none (OTLP writes no parent as an empty string or zeros). */
export function isZeroId(id: ReadId | undefined): boolean {
  return id !== undefined && /^0+$/.test(id.hex);
}

/** A tool call id as links compare it: trimmed; integers written as numbers are taken as their digits. */
export function callIdOf(node: JsonNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'number') return node.raw;
  if (node.type !== 'string') return undefined;
  const id = node.value.trim();
  return id === '' ? undefined : id;
}
