/**
 * What every language's fixes share: "fix all of this kind", the file-wide fix-all (fix-on-save and
 * `agent-traces check --fix`), and applying offset-based edits to a text.
 */
import type { CodeFix, Problem, Span, TextEditSpan } from './types';

/** The problems a request's range touches. */
/** A quick fix of `problem`; a safe fix is the preferred one unless told otherwise. */
export const quickfix = (problem: Problem, title: string, edits: TextEditSpan[], safe: boolean, preferred = safe): CodeFix =>
  ({ title, kind: 'quickfix', problem, edits, safe, preferred });

export function problemsIn(problems: Problem[], span: Span): Problem[] {
  return problems.filter((problem) => touches(problem.span, span));
}

/**
 * The safe fixes' edits, in document order, leaving out any fix whose edits overlap an earlier chosen one (it is
 * found again, if still needed, by the next pass over the fixed text). A fix whose edits were all chosen already
 * (one import repairs every use of its name) counts as applied without repeating them.
 */
export function combineSafeFixes(fixes: CodeFix[]): { edits: TextEditSpan[]; applied: CodeFix[] } {
  const safe = fixes.filter((fix) => fix.safe && fix.edits.length > 0);
  safe.sort((a, b) => firstStart(a) - firstStart(b));
  const taken: TextEditSpan[] = [];
  const applied: CodeFix[] = [];
  for (const fix of safe) {
    if (fix.edits.every((edit) => taken.some((chosen) => sameEdit(chosen, edit)))) {
      applied.push(fix);
      continue;
    }
    if (fix.edits.some((edit) => taken.some((chosen) => touches(chosen.span, edit.span)))) continue;
    taken.push(...fix.edits);
    applied.push(fix);
  }
  const edits = taken.sort((a, b) => a.span.start - b.span.start);
  return { edits, applied };
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
  return Math.min(...fix.edits.map((edit) => edit.span.start));
}

/** "Fix all of this kind": one action per problem code that has more than one safe fix. */
export function fixAllOfKind(fixes: CodeFix[], code: string): { edits: TextEditSpan[]; count: number } | undefined {
  const ofKind = fixes.filter((fix) => fix.safe && fix.problem?.code === code);
  if (ofKind.length < 2) return undefined;
  const { edits, applied } = combineSafeFixes(ofKind);
  return { edits, count: applied.length };
}

/** Applies non-overlapping edits (any order) to a text. */
export function applyEdits(text: string, edits: TextEditSpan[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
  let result = text;
  for (const edit of sorted) result = result.slice(0, edit.span.start) + edit.newText + result.slice(edit.span.end);
  return result;
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
