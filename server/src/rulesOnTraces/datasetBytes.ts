import { isUtf8 } from 'node:buffer';
import { literalsOfRules, MAX_TRACE_DEPTH, nestingDepth, type RuleStatement } from '../guardrail/evaluate/evaluator';
import { inputProblem } from '../guardrail/evaluate/input';
import { evaluatedInFull } from '../guardrail/evaluate/requiredText';
import type { RuleModel } from '../guardrail/model';
import { traceOf } from './tracesInText';

/**
 * A streamed dataset's chunk read from its bytes, for the literal prefilter (requiredText.ts): a line whose bytes lack
 * a literal every rule needs (and hold no `\u` escape nor image chunk) cannot make any rule hold, so its verdict is
 * the analyzer's reading of it alone. Such a line is parsed from a Latin-1 decoding of its bytes, which costs a copy
 * where UTF-8 decoding costs a pass that makes the whole chunk two-byte text at its first non-Latin-1 character: in a
 * chunk that is valid UTF-8 both decodings give values of the same shape, the same keys equal and the same strings
 * valid JSON, and the reading looks only at shapes, ASCII keys and ASCII values. A line read cleanly (a trace the
 * analyzer reads, nested within the limit) is reported as a trace with nothing found; a line that holds no trace is
 * left out, as the full reading leaves it. Every other line (not JSON, a trace the analyzer cannot read, one that may
 * hold a literal) is decoded as UTF-8 and evaluated as before, so its report, message for message, is unchanged.
 */

export interface SettledChunk {
  /** The chunk's text with every line settled here left empty: what the full evaluation reads. */
  text: string;
  /** 1-based lines of the chunk, ascending: traces with nothing found, left out of `text`. */
  clean: number[];
}

/** Lines are read here only when each rule needs at least one literal; undefined otherwise (the chunk is read in full). */
export function settleDatasetLines(bytes: Uint8Array, model: Pick<RuleModel, 'text' | 'program' | 'syntaxProblems'>, parameters: Record<string, unknown>): SettledChunk | undefined {
  const rules = model.program.statements.filter((s): s is RuleStatement => s.kind === 'rule');
  const literals = literalsOfRules(model, rules, parameters);
  if (!literals || literals.some((needed) => needed.length === 0)) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buffer)) return undefined;
  const needles = new Needles(buffer);
  // Each rule's first literal is looked for in the whole chunk; its others only in the lines that hold the first.
  const ruleNeedles = literals.map((needed) => needles.add(needed[0]));
  const otherLiterals = literals.map((needed) => needed.slice(1).map((literal) => Buffer.from(literal, 'utf8')));
  const fullNeedles = evaluatedInFull.map((marker) => needles.add(marker));
  const cannotHold = (rule: number, start: number, end: number): boolean => {
    if (!needles.within(ruleNeedles[rule], start, end)) return true;
    const line = buffer.subarray(start, end);
    return otherLiterals[rule].some((literal) => !line.includes(literal));
  };
  const clean: number[] = [];
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let left = 0;
  for (let start = 0, line = 1; start < buffer.length; line++) {
    const newline = buffer.indexOf(10, start);
    const end = newline < 0 ? buffer.length : newline + 1;
    const contentEnd = newline < 0 ? end : buffer[newline - 1] === 13 && newline > start ? newline - 1 : newline;
    const verdict = contentEnd === start ? 'none'
      : fullNeedles.some((n) => needles.within(n, start, end)) || !literals.every((_, rule) => cannotHold(rule, start, end)) ? 'full'
        : readLine(buffer, start, contentEnd);
    if (verdict === 'full') {
      kept.push(buffer.subarray(start, end));
      keptBytes += end - start;
    } else {
      if (verdict === 'clean') clean.push(line);
      if (newline >= 0) {
        kept.push(newlineByte);
        keptBytes++;
      }
      left++;
    }
    start = end;
  }
  if (left === 0) return { text: buffer.toString('utf8'), clean };
  return { text: Buffer.concat(kept, keptBytes).toString('utf8'), clean };
}

/** How the analyzer reads the line's value: a clean trace, no trace at all, or anything else (read in full). */
function readLine(buffer: Buffer, start: number, end: number): 'clean' | 'none' | 'full' {
  let value: unknown;
  try {
    value = JSON.parse(buffer.toString('latin1', start, end));
  } catch {
    return 'full'; // its message is the UTF-8 text's
  }
  const trace = traceOf(value);
  if (trace === undefined) return 'none';
  if (nestingDepth(trace, MAX_TRACE_DEPTH) > MAX_TRACE_DEPTH || inputProblem(trace)) return 'full';
  return 'clean';
}

const newlineByte = Buffer.from('\n');

/** Bytes of the chunk sampled to find which byte of a literal is rarest there. */
const sampleBytes = 4096;

/**
 * Where each literal's UTF-8 bytes occur in the chunk, asked about in line order. Each is looked for from its rarest
 * byte in a sample of the chunk (Buffer's search runs fast between two occurrences of the byte it starts with: `-rf`
 * is found ten times faster than `rm -rf` in English text), then matched whole.
 */
class Needles {
  private readonly found: number[][] = [];
  private readonly next: number[] = [];
  private readonly byText = new Map<string, number>();
  private readonly counts = new Uint32Array(256);

  constructor(private readonly buffer: Buffer) {
    for (let i = 0; i < Math.min(sampleBytes, buffer.length); i++) this.counts[buffer[i]]++;
  }

  add(literal: string): number {
    let index = this.byText.get(literal);
    if (index === undefined) {
      index = this.found.push(this.occurrences(Buffer.from(literal, 'utf8'))) - 1;
      this.next.push(0);
      this.byText.set(literal, index);
    }
    return index;
  }

  private occurrences(needle: Buffer): number[] {
    // The search starts at the rarest byte that leaves at least two bytes to search for (one would match too often).
    let from = 0;
    for (let i = 1; i < needle.length - 1; i++) if (this.counts[needle[i]] < this.counts[needle[from]]) from = i;
    const tail = needle.subarray(from);
    const at: number[] = [];
    for (let i = this.buffer.indexOf(tail, from); i >= 0; i = this.buffer.indexOf(tail, i + 1)) {
      let k = 0;
      while (k < from && this.buffer[i - from + k] === needle[k]) k++;
      if (k === from) at.push(i - from);
    }
    return at;
  }

  /** Whether the literal occurs in [start, end); `start` never decreases between two calls for the same literal. */
  within(index: number, start: number, end: number): boolean {
    const at = this.found[index];
    let next = this.next[index];
    while (next < at.length && at[next] < start) next++;
    this.next[index] = next;
    return next < at.length && at[next] < end;
  }
}
