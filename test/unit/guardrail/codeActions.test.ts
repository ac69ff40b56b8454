import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService } from '../../../server/src/guardrail';
import { defaultSettings } from '../../../server/src/common/service';
import { applyEdits } from '../../../server/src/common/codeActions';

test('gr/unknown-attribute: the field the checker suggests replaces the misspelled one', () => {
  const text = 'raise "x" if:\n    (call: ToolCall)\n    call.functon.name == "f"\n';
  const model = guardrailService.parse({ uri: 'file:///r.gr', version: 1, text });
  const problems = guardrailService.validate(model, { settings: defaultSettings }).filter((p) => p.code === 'gr/unknown-attribute');
  const fixes = guardrailService.codeFixes!(model, problems);
  assert.deepEqual(fixes.map((fix) => [fix.title, fix.safe, applyEdits(text, fix.edits)]), [
    ["Change to 'function'", false, 'raise "x" if:\n    (call: ToolCall)\n    call.function.name == "f"\n'],
  ]);
});
