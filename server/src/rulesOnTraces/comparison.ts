import type { Span } from '../common/types';
import type { VariableBinding } from '../guardrail/evaluate';

/** What a comparison of two versions of a rule file found (compare.ts), as plain data: it crosses from the evaluation worker. */

export interface ComparedViolation {
  message: string;
  /** 1-based line of the rule's `raise` in its version of the rule file. */
  rule: number;
  /** Where it is in the document. */
  span: Span;
  ranges: string[];
  bindings: VariableBinding[];
}

export interface TraceFlip {
  /** The trace's place in the document (its first line, for a dataset its line). */
  trace: Span;
  /** 1-based line of a dataset line; absent for a trace file. */
  line?: number;
  added: ComparedViolation[];
  removed: ComparedViolation[];
  /** Why a version could not be evaluated on this trace (its verdict there is not known). */
  oldFailure?: string;
  newFailure?: string;
}

export interface Comparison {
  /** Traces of the document that were evaluated by both versions. */
  traces: number;
  /** Only the traces whose verdict differs, or that a version could not evaluate. */
  flips: TraceFlip[];
  /** The document holds no trace, or a line is not JSON: what was not evaluated. */
  unreadable: { line?: number; reason: string }[];
}

/** Adds a part of a comparison (from the evaluation worker) to what came before it. */
export function addComparison(into: Comparison, part: Comparison): void {
  into.traces += part.traces;
  into.flips.push(...part.flips);
  into.unreadable.push(...part.unreadable);
}
