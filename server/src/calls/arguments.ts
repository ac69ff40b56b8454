/**
 * Arguments a format writes as a JSON string (an Invariant trace's string `arguments`, an OpenAI `function_call`'s
 * `arguments`) must hold a JSON object: where they do not, the problem points inside the string where its JSON
 * breaks, through the string's escapes.
 */
import type { TextSource } from '../common/textSource';
import type { Span } from '../common/types';
import { sourceOffsetInLiteral } from '../json/strings';
import { describeKind, type SyntaxProblem, type ValueKind } from '../json/tree';
import type { AddProblem } from './validate';

/**
 * `literal`: the string literal in the text (quotes included); `decoded`: its value; `firstError`: the first syntax
 * error of a JSON text, as the format's reader words it; `code`: the problem's code.
 */
export function checkEncodedArguments(
  text: TextSource, literal: Span, decoded: string, firstError: (json: string) => SyntaxProblem | undefined, code: string, add: AddProblem,
): void {
  let parsedKind: ValueKind | undefined;
  try {
    const parsed: unknown = JSON.parse(decoded);
    parsedKind = parsed === null ? 'null' : Array.isArray(parsed) ? 'array' : (typeof parsed as ValueKind);
  } catch {
    parsedKind = undefined;
  }
  if (parsedKind === 'object') return;
  if (parsedKind !== undefined) {
    add(literal, 'error', code, `arguments: this string encodes ${describeKind(parsedKind)}, but the arguments must be a JSON object`);
    return;
  }
  const first = firstError(decoded);
  if (!first) return;
  const from = sourceOffsetInLiteral(text, literal.start, literal.end, first.start);
  let to = sourceOffsetInLiteral(text, literal.start, literal.end, first.end);
  if (to <= from) to = Math.min(from + 1, literal.end);
  add({ start: from, end: to }, 'error', code, `arguments: the JSON in this string breaks here: ${first.message}`);
}
