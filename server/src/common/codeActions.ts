/**
 * What every language's fixes share: "fix all of this kind", the file-wide fix-all (fix-on-save and
 * `agent-traces check --fix`), and applying offset-based edits to a text.
 */
import type { CodeFix, Problem, Span, TextEditSpan } from './types';
import { firstEndingAtOrAfter } from './spans';
import type { TextSource } from './textSource';

/** A quick fix of `problem`; a safe fix is the preferred one unless told otherwise. */
export const quickfix = (problem: Problem, title: string, edits: TextEditSpan[], safe: boolean, preferred = safe): CodeFix =>
  ({ title, kind: 'quickfix', problem, edits, safe, preferred });

/** The problems a request's range touches. */
export function problemsIn(problems: Problem[], span: Span): Problem[] {
  return problems.filter((problem) => touches(problem.span, span));
}

/**
 * The safe fixes' edits, in document order, leaving out any fix whose edits overlap an earlier chosen one (it is
 * found again, if still needed, by the next pass over the fixed text). A fix whose edits were all chosen already
 * (one import repairs every use of its name) counts as applied without repeating them. Linear in the number of
 * fixes but for a binary search each: a file can have tens of thousands of them.
 */
export function combineSafeFixes(fixes: CodeFix[]): { edits: TextEditSpan[]; applied: CodeFix[] } {
  const safe = fixes.filter((fix) => fix.safe && fix.edits.length > 0);
  safe.sort((a, b) => firstStart(a) - firstStart(b));
  const taken = new TakenEdits();
  const applied: CodeFix[] = [];
  for (const fix of safe) {
    const met = fix.edits.map((edit) => taken.touching(edit.span));
    if (met.every((chosen, i) => chosen && sameEdit(chosen, fix.edits[i]))) {
      applied.push(fix);
      continue;
    }
    if (met.some((chosen) => chosen)) continue;
    for (const edit of fix.edits) taken.add(edit);
    applied.push(fix);
  }
  return { edits: taken.inOrder, applied };
}

/**
 * Chosen edits in order of their spans, none touching another: a lookup is one binary search, and the edits of a
 * fix made in document order are added at the end.
 */
class TakenEdits {
  readonly inOrder: TextEditSpan[] = [];
  /** The edits' spans, in the same order (for the shared binary search). */
  private readonly spans: Span[] = [];

  /** The chosen edit whose span touches `span` (see touches), if any. */
  touching(span: Span): TextEditSpan | undefined {
    const i = firstEndingAtOrAfter(this.spans, span.start);
    const found = this.inOrder[i];
    return found && found.span.start <= span.end ? found : undefined;
  }

  add(edit: TextEditSpan): void {
    const i = firstEndingAtOrAfter(this.spans, edit.span.start);
    this.inOrder.splice(i, 0, edit);
    this.spans.splice(i, 0, edit.span);
  }
}

function sameEdit(a: TextEditSpan, b: TextEditSpan): boolean {
  return a.span.start === b.span.start && a.span.end === b.span.end && a.newText === b.newText;
}

/**
 * The spans overlap or meet: a problem a request's range touches, or two edits without a defined order (two
 * insertions at one offset, or an edit ending where another starts).
 */
function touches(a: Span, b: Span): boolean {
  return a.start <= b.end && b.start <= a.end;
}

function firstStart(fix: CodeFix): number {
  let first = Infinity;
  for (const edit of fix.edits) first = Math.min(first, edit.span.start);
  return first;
}

/** "Fix all of this kind": one action per problem code that has more than one safe fix. */
export function fixAllOfKind(fixes: CodeFix[], code: string): { edits: TextEditSpan[]; count: number } | undefined {
  const ofKind = fixes.filter((fix) => fix.safe && fix.problem?.code === code);
  if (ofKind.length < 2) return undefined;
  const { edits, applied } = combineSafeFixes(ofKind);
  return { edits, count: applied.length };
}

/** Applies non-overlapping edits (any order) to a text, in one pass over it. */
export function applyEdits(text: TextSource, edits: TextEditSpan[]): string {
  return editedRange(text, 0, text.length, edits);
}

/**
 * text[start, end) with non-overlapping edits (any order, absolute offsets, all inside the range) applied: the
 * pieces between the edits are joined once, so the cost is the text's length whatever the number of edits.
 */
export function editedRange(text: TextSource, start: number, end: number, edits: readonly TextEditSpan[]): string {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const pieces: string[] = [];
  let at = start;
  for (const edit of sorted) {
    pieces.push(text.slice(at, edit.span.start), edit.newText);
    at = edit.span.end;
  }
  pieces.push(text.slice(at, end));
  return pieces.join('');
}

interface FixingService<Model> {
  codeFixes?(model: Model, problems: Problem[]): CodeFix[];
  refactorings?(model: Model, span: Span): CodeFix[];
}

/** A "fix all of this kind in the file" action, offered next to a fix when the file has more than one of its kind. */
export interface FixAllOfKind {
  code: string;
  title: string;
  edits: TextEditSpan[];
}

/** What the lightbulb offers at a span: fixes for the problems there, fix-all of their kinds, refactorings. */
export function codeActionsAt<Model>(
  service: FixingService<Model>, model: Model, span: Span, problems: Problem[],
): { fixes: CodeFix[]; fixAllOfKind: FixAllOfKind[]; refactorings: CodeFix[] } {
  const here = problemsIn(problems, span);
  const fixes = here.length > 0 ? service.codeFixes?.(model, here) ?? [] : [];
  const fixAll: FixAllOfKind[] = [];
  const codes = new Set(fixes.filter((fix) => fix.safe).map((fix) => fix.problem!.code));
  if (codes.size > 0) {
    const everywhere = service.codeFixes?.(model, problems.filter((problem) => codes.has(problem.code))) ?? [];
    for (const code of codes) {
      const all = fixAllOfKind(everywhere, code);
      if (all) fixAll.push({ code, title: `Fix all ${code} problems in the file (${all.count})`, edits: all.edits });
    }
  }
  return { fixes, fixAllOfKind: fixAll, refactorings: service.refactorings?.(model, span) ?? [] };
}

/** Every safe fix for the file's problems, as one set of edits (one pass; apply and check again for more). */
export function fixAllEdits<Model>(service: FixingService<Model>, model: Model, problems: Problem[]): { edits: TextEditSpan[]; applied: CodeFix[] } {
  return combineSafeFixes(service.codeFixes?.(model, problems) ?? []);
}
