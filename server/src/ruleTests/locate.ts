import type { Span } from '../common/types';
import type { Expectation, ManifestModel, TestCase } from './manifest';

/** What the cursor is on in a manifest: the rule file's path, a case's trace path, or an expected violation's message or rule line. */
export type ManifestPlace =
  | { kind: 'rules'; span: Span }
  | { kind: 'trace'; testCase: TestCase; span: Span }
  | { kind: 'message'; testCase: TestCase; expectation: Expectation; span: Span }
  | { kind: 'rule'; testCase: TestCase; expectation: Expectation; span: Span }
  | { kind: 'case'; testCase: TestCase; span: Span };

const inside = (span: Span, offset: number) => span.start <= offset && offset <= span.end;

export function placeAt(model: ManifestModel, offset: number): ManifestPlace | undefined {
  if (model.rules.span && inside(model.rules.span, offset)) return { kind: 'rules', span: model.rules.span };
  const testCase = model.cases.find((c) => inside(c.span, offset));
  if (!testCase) return undefined;
  if (testCase.trace?.kind === 'file' && inside(testCase.trace.span, offset)) return { kind: 'trace', testCase, span: testCase.trace.span };
  for (const expectation of testCase.expect) {
    if (inside(expectation.messageSpan, offset)) return { kind: 'message', testCase, expectation, span: expectation.messageSpan };
    if (expectation.ruleSpan && inside(expectation.ruleSpan, offset)) return { kind: 'rule', testCase, expectation, span: expectation.ruleSpan };
  }
  return { kind: 'case', testCase, span: testCase.nameSpan };
}
