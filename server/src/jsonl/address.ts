import { parseJsonValue, property, type JsonNode, type JsonString } from './json';
import { countLines, lineBounds, sourceSpanInString } from './strings';
import { TraceArray } from './traceTree';
import type { Span } from '../common/types';

/**
 * Annotation addresses (Invariant Explorer): `messages.<i>.<path>` optionally followed by `:<start>-<end>`
 * (a character range), `:L<line>` (a zero-based line of the string) or `:bbox-x1,y1,x2,y2` (an image region).
 * The bracket form `messages[0].content` means the same as `messages.0.content`.
 */
export interface AddressSegment {
  key: string;
  /** Offsets in the decoded address string. */
  start: number;
  end: number;
}

export type AddressRange =
  | { kind: 'chars'; start: number; end: number }
  | { kind: 'line'; line: number }
  | { kind: 'bbox'; box: number[] };

export interface ParsedAddress {
  segments: AddressSegment[];
  range?: AddressRange;
  /** Offsets of the range part (after the colon) in the decoded address. */
  rangeStart: number;
  rangeEnd: number;
  /** Set when the address cannot be read at all. */
  error?: { start: number; end: number; message: string };
}

/** Datasets repeat the same few addresses on every line: each is read once (results are never changed). */
const parsedAddresses = new Map<string, ParsedAddress>();
const maxParsedAddresses = 10_000;

export function parseAddress(address: string): ParsedAddress {
  let parsed = parsedAddresses.get(address);
  if (!parsed) {
    if (parsedAddresses.size >= maxParsedAddresses) parsedAddresses.clear();
    parsed = readAddress(address);
    parsedAddresses.set(address, parsed);
  }
  return parsed;
}

function readAddress(address: string): ParsedAddress {
  const colon = address.indexOf(':');
  const pathText = colon === -1 ? address : address.slice(0, colon);
  const result: ParsedAddress = { segments: [], rangeStart: address.length, rangeEnd: address.length };
  let pos = 0;
  while (pos < pathText.length) {
    if (pathText[pos] === '[') {
      const close = pathText.indexOf(']', pos);
      if (close === -1) {
        result.error = { start: pos, end: pathText.length, message: `'[' without a closing ']' in address '${address}'` };
        return result;
      }
      result.segments.push({ key: pathText.slice(pos + 1, close).trim(), start: pos + 1, end: close });
      pos = close + 1;
      if (pathText[pos] === '.') pos++;
      continue;
    }
    let end = pos;
    while (end < pathText.length && pathText[end] !== '.' && pathText[end] !== '[') end++;
    if (end === pos) {
      result.error = { start: pos, end: pos + 1, message: `Empty part in address '${address}'` };
      return result;
    }
    result.segments.push({ key: pathText.slice(pos, end), start: pos, end });
    pos = end;
    if (pathText[pos] === '.') {
      pos++;
      if (pos === pathText.length) {
        result.error = { start: pos - 1, end: pos, message: `Address '${address}' ends with '.'` };
        return result;
      }
    }
  }
  if (result.segments.length === 0) {
    result.error = { start: 0, end: address.length, message: 'Empty address: expected a path such as messages.0.content' };
    return result;
  }
  if (colon !== -1) {
    const rangeText = address.slice(colon + 1);
    result.rangeStart = colon + 1;
    result.rangeEnd = address.length;
    const range = parseRange(rangeText);
    if (!range) {
      result.error = {
        start: colon + 1,
        end: address.length,
        message: `Cannot read '${rangeText}' after ':': expected <start>-<end>, L<line> or bbox-x1,y1,x2,y2`,
      };
    } else result.range = range;
  }
  return result;
}

function parseRange(text: string): AddressRange | undefined {
  let match = /^(\d+)-(\d+)$/.exec(text);
  if (match) return { kind: 'chars', start: Number(match[1]), end: Number(match[2]) };
  match = /^L(\d+)$/.exec(text);
  if (match) return { kind: 'line', line: Number(match[1]) };
  match = /^bbox-(-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)$/.exec(text);
  if (match) return { kind: 'bbox', box: match.slice(1, 5).map(Number) };
  return undefined;
}

export type Resolution =
  | {
      ok: true;
      /** The source span the address names (exact, through string escapes). */
      target: Span;
      /** The named value (a node of the line, or of JSON encoded in a string). */
      node: JsonNode;
      /** The annotated text: the substring, the line, or the value's source (computed when shown). */
      annotatedText: () => string;
      /** Human-readable description of what is named. */
      description: string;
    }
  | {
      ok: false;
      code: 'jsonl/annotation-address' | 'jsonl/annotation-range';
      message: string;
      /** Offsets in the decoded address of the part at fault. */
      start: number;
      end: number;
    };

/** Resolves a parsed address against the line's value (the object holding `messages`). */
export function resolveAddress(text: string, root: JsonNode, address: string, parsed: ParsedAddress): Resolution {
  if (parsed.error) return { ok: false, code: 'jsonl/annotation-address', message: parsed.error.message, start: parsed.error.start, end: parsed.error.end };
  let node: JsonNode = root;
  /** When the walk entered JSON encoded in a string: that string (offsets of `node` are then in its value). */
  let encodedIn: JsonString | undefined;
  const segments = parsed.segments;
  let step = 0;
  /** The path walked so far, e.g. `messages.2.content` (built only for messages). */
  const walkedPath = (): string => segments.slice(0, step).map((s) => s.key).join('.');
  const where = (): string => (step === 0 ? 'the trace' : `'${walkedPath()}'`);
  for (; step < segments.length; step++) {
    const segment = segments[step];
    let next: JsonNode | undefined;
    if (node.type === 'string' && !encodedIn && /^\s*[[{]/.test(node.value)) {
      const inner = parseJsonValue(node.value, 0, node.value.length);
      if (inner.root && inner.errors.length === 0 && (inner.root.type === 'object' || inner.root.type === 'array')) {
        encodedIn = node;
        node = inner.root;
      }
    }
    if (node.type === 'object') {
      next = property(node, segment.key)?.value;
      if (!next) return fail(`Address '${address}' names nothing: ${where()} has no key '${segment.key}'`, segment);
    } else if (node.type === 'array') {
      if (!/^\d+$/.test(segment.key)) return fail(`Address '${address}' names nothing: ${where()} is a list, so '${segment.key}' must be an index`, segment);
      const index = Number(segment.key);
      next = node instanceof TraceArray ? node.item(index) : node.items[index];
      if (!next) {
        const count = node instanceof TraceArray ? node.length : node.items.length;
        return fail(`Address '${address}' names nothing: ${where()} has ${count} item${count === 1 ? '' : 's'}, so there is no index ${segment.key}`, segment);
      }
    } else {
      return fail(`Address '${address}' names nothing: ${where()} is ${describeType(node)}, it has no '${segment.key}'`, segment);
    }
    node = next;
  }
  // Every annotation of a dataset is resolved when the file is read; the texts only a hover shows are made then.
  let walkedText: string | undefined;
  const walked = (): string => (walkedText ??= walkedPath());
  const valueSpan = (n: JsonNode): Span => encodedIn ? sourceSpanInString(text, encodedIn, n.start, n.end) : { start: n.start, end: n.end };
  const valueSource = (n: JsonNode): string => encodedIn ? encodedIn.value.slice(n.start, n.end) : text.slice(n.start, n.end);
  const range = parsed.range;
  if (!range || range.kind === 'bbox') {
    const named = node;
    const annotatedText = () => (named.type === 'string' ? named.value : valueSource(named));
    return {
      ok: true, target: valueSpan(node), node, annotatedText,
      get description() { return range?.kind === 'bbox' ? `region ${range.box.join(',')} of ${walked()}` : walked(); },
    };
  }
  const rangeFault = { start: parsed.rangeStart, end: parsed.rangeEnd };
  if (node.type !== 'string') {
    return { ok: false, code: 'jsonl/annotation-range', message: `A ${range.kind === 'chars' ? 'character range' : 'line'} needs a string, but '${walked()}' is ${describeType(node)}`, ...rangeFault };
  }
  const value = node.value;
  const stringNode = node;
  const toTarget = (start: number, end: number): Span => {
    if (!encodedIn) return sourceSpanInString(text, stringNode, start, end);
    // A string inside encoded JSON: map twice (inner literal, then the outer string's escapes).
    const innerStart = innerSourceOffset(encodedIn.value, stringNode, start);
    const innerEnd = innerSourceOffset(encodedIn.value, stringNode, end);
    return sourceSpanInString(text, encodedIn, innerStart, innerEnd);
  };
  if (range.kind === 'chars') {
    if (range.start > range.end) {
      return { ok: false, code: 'jsonl/annotation-range', message: `Character range ${range.start}-${range.end} of '${walked()}' ends before it starts`, ...rangeFault };
    }
    // Addresses come from Python tools, which count characters (code points): an emoji is one character there
    // but two UTF-16 units here.
    const surrogates = SURROGATE.test(value);
    const characters = surrogates ? codePointLength(value) : value.length;
    if (range.end > characters) {
      return { ok: false, code: 'jsonl/annotation-range', message: `Character range ${range.start}-${range.end} runs past the end of '${walked()}' (length ${characters})`, ...rangeFault };
    }
    const start = surrogates ? unitOffset(value, range.start) : range.start;
    const end = surrogates ? unitOffset(value, range.end) : range.end;
    return {
      ok: true, target: toTarget(start, end), node, annotatedText: () => stringNode.value.slice(start, end),
      get description() { return `characters ${range.start}-${range.end} of ${walked()}`; },
    };
  }
  const bounds = lineBounds(value, range.line);
  if (!bounds) {
    const lines = countLines(value);
    return { ok: false, code: 'jsonl/annotation-range', message: `Line L${range.line} does not exist: '${walked()}' has ${lines} line${lines === 1 ? '' : 's'} (L0-L${lines - 1})`, ...rangeFault };
  }
  return {
    ok: true, target: toTarget(bounds.start, bounds.end), node, annotatedText: () => stringNode.value.slice(bounds.start, bounds.end),
    get description() { return `line L${range.line} of ${walked()}`; },
  };

  function fail(message: string, segment: AddressSegment): Resolution {
    return { ok: false, code: 'jsonl/annotation-address', message, start: segment.start, end: segment.end };
  }
}

const SURROGATE = /[\uD800-\uDBFF]/;

function codePointLength(value: string): number {
  if (!SURROGATE.test(value)) return value.length;
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) i++;
    count++;
  }
  return count;
}

/** The UTF-16 offset of the code point at index `codePoints`. */
function unitOffset(value: string, codePoints: number): number {
  if (!SURROGATE.test(value)) return codePoints;
  let i = 0;
  for (let seen = 0; seen < codePoints && i < value.length; seen++) {
    const c = value.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < value.length ? 2 : 1;
  }
  return i;
}

function innerSourceOffset(innerText: string, node: JsonString, decodedOffset: number): number {
  return sourceSpanInString(innerText, node, decodedOffset, decodedOffset).start;
}

function describeType(node: JsonNode): string {
  switch (node.type) {
    case 'object': return 'an object';
    case 'array': return 'a list';
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return 'a boolean';
    default: return 'null';
  }
}

/** Source span, in the document, of decoded offsets [start, end) of an address string literal. */
export function addressPartSpan(text: string, addressNode: JsonString, start: number, end: number): Span {
  return sourceSpanInString(text, addressNode, start, end);
}
