/**
 * `agent-traces check --fix`: the editor's "fix all" (the same safe fixes) applied pass after pass until nothing
 * more changes. A file with a syntax error no fix repairs is left alone: what its text means is not known.
 */
import { applyEdits, fixAllEdits } from '../common/codeActions';
import { LineIndex } from '../common/lineIndex';
import type { LanguageService, ServiceContext } from '../common/languageService';
import type { TextEditSpan } from '../common/types';

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

export interface FixResult {
  text: string;
  fixed: AppliedFix[];
  /** The edits of each pass, in the offsets of the text that pass read (the first: the original text). */
  passes: TextEditSpan[][];
  notFixed?: string;
  /** The model of the returned text, when the last pass made one (the checker need not read the text again). */
  model?: unknown;
}

export function fixFile(service: LanguageService<unknown>, uri: string, original: string, context: ServiceContext): FixResult {
  const uncapped: ServiceContext = { ...context, settings: { ...context.settings, maxProblems: Number.MAX_SAFE_INTEGER } };
  const fixed: AppliedFix[] = [];
  const passes: FixResult['passes'] = [];
  if (!service.codeFixes) return { text: original, fixed, passes };
  let text = original;
  for (let pass = 0; pass < maxPasses; pass++) {
    const model = service.parse({ uri, version: pass, text });
    const problems = service.validate(model, uncapped);
    const { edits, applied } = fixAllEdits(service, model, problems);
    // Nothing is written unless the fixes leave no syntax error: as the editor's fix-all, each pass must leave a
    // text that reads (what a text with a syntax error left means is not known).
    const syntaxError = problems.find((problem) => syntaxCodes.has(problem.code));
    if ((edits.length === 0 && syntaxError) || (edits.length > 0 && !service.parsesWithEdits?.(model, edits))) {
      const where = syntaxError ? ` at ${positionOf(text, syntaxError.span.start)}` : '';
      const after = pass === 0 ? '' : ' (in the text the fixes would leave)';
      return { text: original, fixed: [], passes: [], notFixed: `not fixed: a syntax error no fix can repair unambiguously${where}${after}` };
    }
    // Nothing more to fix: the last pass's model is the returned text's.
    if (edits.length === 0) return { text, fixed, passes, model };
    const lines = new LineIndex(text);
    for (const fix of applied) {
      const at = lines.positionAt(fix.problem!.span.start);
      fixed.push({ line: at.line + 1, column: at.character + 1, code: fix.problem!.code, title: fix.title });
    }
    passes.push(edits);
    text = applyEdits(text, edits);
  }
  return { text, fixed, passes };
}

function positionOf(text: string, offset: number): string {
  const at = new LineIndex(text).positionAt(offset);
  return `${at.line + 1}:${at.character + 1}`;
}
