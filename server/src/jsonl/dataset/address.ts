import { parseJsonValue } from '../../json/readJson';
import { property } from '../../json/queries';
import { transientStringValue, type JsonNode, type JsonString } from '../../json/nodes';
import { countLines, lineBounds, sourceSpanInString } from '../strings';
import { ReadArray } from '../../json/views';
import type { Span } from '../../common/types';

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
  for (let step = 0; step < segments.length; step++) {
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
      if (!next) return fail(`Address '${address}' names nothing: ${where(segments, step)} has no key '${segment.key}'`, segment);
    } else if (node.type === 'array') {
      if (!/^\d+$/.test(segment.key)) return fail(`Address '${address}' names nothing: ${where(segments, step)} is a list, so '${segment.key}' must be an index`, segment);
      const index = Number(segment.key);
      next = node instanceof ReadArray ? node.item(index) : node.items[index];
      if (!next) {
        const count = node instanceof ReadArray ? node.length : node.items.length;
        return fail(`Address '${address}' names nothing: ${where(segments, step)} has ${count} item${count === 1 ? '' : 's'}, so there is no index ${segment.key}`, segment);
      }
    } else {
      return fail(`Address '${address}' names nothing: ${where(segments, step)} is ${describeType(node)}, it has no '${segment.key}'`, segment);
    }
    node = next;
  }
  const range = parsed.range;
  if (!range || range.kind === 'bbox') {
    const target = encodedIn ? sourceSpanInString(text, encodedIn, node.start, node.end) : { start: node.start, end: node.end };
    return new ResolvedAddress(target, node, text, encodedIn, segments, range, 0, 0);
  }
  const rangeFault = { start: parsed.rangeStart, end: parsed.rangeEnd };
  if (node.type !== 'string') {
    return { ok: false, code: 'jsonl/annotation-range', message: `A ${range.kind === 'chars' ? 'character range' : 'line'} needs a string, but '${walkedPath(segments, segments.length)}' is ${describeType(node)}`, ...rangeFault };
  }
  // Read once here and not kept: every annotation of a dataset is resolved when the file is read.
  const value = transientStringValue(node);
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
      return { ok: false, code: 'jsonl/annotation-range', message: `Character range ${range.start}-${range.end} of '${walkedPath(segments, segments.length)}' ends before it starts`, ...rangeFault };
    }
    // Addresses come from Python tools, which count characters (code points): an emoji is one character there
    // but two UTF-16 units here.
    const surrogates = SURROGATE.test(value);
    const characters = codePointLength(value);
    if (range.end > characters) {
      return { ok: false, code: 'jsonl/annotation-range', message: `Character range ${range.start}-${range.end} runs past the end of '${walkedPath(segments, segments.length)}' (length ${characters})`, ...rangeFault };
    }
    const start = surrogates ? unitOffset(value, range.start) : range.start;
    const end = surrogates ? unitOffset(value, range.end) : range.end;
    return new ResolvedAddress(toTarget(start, end), node, text, encodedIn, segments, range, start, end);
  }
  const bounds = lineBounds(value, range.line);
  if (!bounds) {
    const lines = countLines(value);
    return { ok: false, code: 'jsonl/annotation-range', message: `Line L${range.line} does not exist: '${walkedPath(segments, segments.length)}' has ${lines} line${lines === 1 ? '' : 's'} (L0-L${lines - 1})`, ...rangeFault };
  }
  return new ResolvedAddress(toTarget(bounds.start, bounds.end), node, text, encodedIn, segments, range, bounds.start, bounds.end);

  function fail(message: string, segment: AddressSegment): Resolution {
    return { ok: false, code: 'jsonl/annotation-address', message, start: segment.start, end: segment.end };
  }
}

/**
 * A resolved address. A dataset keeps one per annotation for the document's life, so it holds what it names and
 * makes its texts (which only a hover shows) when asked, rather than closures over the parse.
 */
class ResolvedAddress {
  readonly ok = true as const;

  constructor(
    readonly target: Span,
    readonly node: JsonNode,
    private readonly text: string,
    private readonly encodedIn: JsonString | undefined,
    private readonly segments: AddressSegment[],
    private readonly range: AddressRange | undefined,
    /** Decoded offsets of a character or line range in the named string. */
    private readonly from: number,
    private readonly to: number,
  ) {}

  annotatedText(): string {
    const node = this.node;
    if (this.range && this.range.kind !== 'bbox') return (node as JsonString).value.slice(this.from, this.to);
    if (node.type === 'string') return node.value;
    return this.encodedIn ? this.encodedIn.value.slice(node.start, node.end) : this.text.slice(node.start, node.end);
  }

  get description(): string {
    const walked = walkedPath(this.segments, this.segments.length);
    const range = this.range;
    if (!range) return walked;
    if (range.kind === 'bbox') return `region ${range.box.join(',')} of ${walked}`;
    if (range.kind === 'chars') return `characters ${range.start}-${range.end} of ${walked}`;
    return `line L${range.line} of ${walked}`;
  }
}

/** The path walked by the first `steps` segments, e.g. `messages.2.content`. */
function walkedPath(segments: AddressSegment[], steps: number): string {
  return segments.slice(0, steps).map((s) => s.key).join('.');
}

function where(segments: AddressSegment[], step: number): string {
  return step === 0 ? 'the trace' : `'${walkedPath(segments, step)}'`;
}

const SURROGATE = /[\uD800-\uDBFF]/;

/** The length in code points, as the Python tools that write addresses count characters. */
export function codePointLength(value: string): number {
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
