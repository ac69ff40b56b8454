/**
 * `agent-traces check --fix`: the editor's "fix all" (the same safe fixes) applied pass after pass until nothing
 * more changes. A file with a syntax error no fix repairs is left alone: what its text means is not known.
 */
import { applyEdits, fixAllEdits } from '../common/codeActions';
import { LineIndex } from '../common/lineIndex';
import type { LanguageService, ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';

/** A fix written to a file: where it was in the text of the pass that made it, its problem's code and its title. */
export interface AppliedFix {
  line: number;
  column: number;
  code: string;
  title: string;
}

/** Fixing can reveal what the next pass fixes (a repaired string shows its next fault); it settles within a few. */
const maxPasses = 10;

const syntaxCodes = new Set(['json/syntax', 'gr/syntax']);

export function fixFile(
  service: LanguageService<unknown>, uri: string, original: string, context: ServiceContext,
): { text: string; fixed: AppliedFix[]; notFixed?: string; model?: unknown } {
  const uncapped: ServiceContext = { ...context, settings: { ...context.settings, maxProblems: Number.MAX_SAFE_INTEGER } };
  const fixed: AppliedFix[] = [];
  if (!service.codeFixes) return { text: original, fixed };
  let text = original;
  for (let pass = 0; pass < maxPasses; pass++) {
    const model = service.parse({ uri, version: pass, text });
    const problems = service.validate(model, uncapped);
    const unrepairable = syntaxErrorsNoFixRepairs(service, model, problems);
    if (unrepairable) {
      // Nothing is written unless every syntax error was repaired.
      const lines = new LineIndex(text);
      const at = lines.positionAt(unrepairable.span.start);
      return { text: original, fixed: [], notFixed: `not fixed: a syntax error no fix can repair unambiguously at ${at.line + 1}:${at.character + 1}` };
    }
    const { edits, applied } = fixAllEdits(service, model, problems);
    // Nothing more to fix: the last pass's model is the returned text's, which the checker need not read again.
    if (edits.length === 0) return { text, fixed, model };
    const lines = new LineIndex(text);
    for (const fix of applied) {
      const at = lines.positionAt(fix.problem!.span.start);
      fixed.push({ line: at.line + 1, column: at.character + 1, code: fix.problem!.code, title: fix.title });
    }
    text = applyEdits(text, edits);
  }
  return { text, fixed };
}

function syntaxErrorsNoFixRepairs(service: LanguageService<unknown>, model: unknown, problems: Problem[]): Problem | undefined {
  const syntax = problems.filter((problem) => syntaxCodes.has(problem.code));
  if (syntax.length === 0) return undefined;
  const safe = new Set((service.codeFixes?.(model, syntax) ?? []).filter((fix) => fix.safe).map((fix) => fix.problem));
  return syntax.find((problem) => !safe.has(problem));
}
