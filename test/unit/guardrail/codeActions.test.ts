import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService } from '../../../server/src/guardrail';
import { defaultSettings } from '../../../server/src/common/languageService';
import { applyEdits, codeActionsAt } from '../../../server/src/common/codeActions';

test('gr/unknown-attribute: the field the checker suggests replaces the misspelled one', () => {
  const text = 'raise "x" if:\n    (call: ToolCall)\n    call.functon.name == "f"\n';
  const model = guardrailService.parse({ uri: 'file:///r.gr', version: 1, text });
  const problems = guardrailService.validate(model, { settings: defaultSettings }).filter((p) => p.code === 'gr/unknown-attribute');
  const fixes = guardrailService.codeFixes!(model, problems);
  assert.deepEqual(fixes.map((fix) => [fix.title, fix.safe, applyEdits(text, fix.edits)]), [
    ["Change to 'function'", false, 'raise "x" if:\n    (call: ToolCall)\n    call.function.name == "f"\n'],
  ]);
});

function fixesFor(text: string, code: string): [string, boolean, string][] {
  const model = guardrailService.parse({ uri: 'file:///r.gr', version: 1, text });
  const problems = guardrailService.validate(model, { settings: defaultSettings }).filter((p) => p.code === code);
  return guardrailService.codeFixes!(model, problems).map((fix) => [fix.title, fix.safe, applyEdits(text, fix.edits)]);
}

const rule = 'raise "x" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n';

test('gr/unknown-identifier on a standard-library name: a new import line after the last import', () => {
  assert.deepEqual(fixesFor(`from invariant import Message\nimport os\n\n${rule}`, 'gr/unknown-identifier'), [
    ["Add 'from invariant.detectors import pii'", true, `from invariant import Message\nimport os\nfrom invariant.detectors import pii\n\n${rule}`],
  ]);
  // the last import on the last line, with no line break after it
  assert.deepEqual(fixesFor('import os', 'gr/unknown-identifier'), []);
  assert.deepEqual(fixesFor('import os\nC := secrets', 'gr/unknown-identifier'), [
    ["Add 'from invariant.detectors import secrets'", true, 'import os\nfrom invariant.detectors import secrets\nC := secrets'],
  ]);
});

test('gr/unknown-identifier: without imports, the import goes at the top, with a blank line before the rules', () => {
  assert.deepEqual(fixesFor(rule, 'gr/unknown-identifier'), [
    ["Add 'from invariant.detectors import pii'", true, `from invariant.detectors import pii\n\n${rule}`],
  ]);
  assert.deepEqual(fixesFor('\nraise "x" if:\n    (m: Message)\n    count(min=2):\n        (o: ToolOutput)\n', 'gr/unknown-identifier'), [
    ["Add 'from invariant import count'", true, 'from invariant import count\n\nraise "x" if:\n    (m: Message)\n    count(min=2):\n        (o: ToolOutput)\n'],
  ]);
});

test('gr/unknown-identifier: an import from a module exporting the name is extended instead', () => {
  assert.deepEqual(fixesFor(`from invariant import Message\nfrom invariant.detectors import secrets as s\n\n${rule}`, 'gr/unknown-identifier'), [
    ["Add 'pii' to the import from invariant.detectors", true, `from invariant import Message\nfrom invariant.detectors import secrets as s, pii\n\n${rule}`],
  ]);
  // a name only the code detectors export: their module, when the file imports from it
  const code = 'raise "x" if:\n    (m: Message)\n    python_code(m.content)\n';
  assert.deepEqual(fixesFor(`from invariant.detectors.code import semgrep\n${code}`, 'gr/unknown-identifier'), [
    ["Add 'python_code' to the import from invariant.detectors.code", true, `from invariant.detectors.code import semgrep, python_code\n${code}`],
  ]);
  // the module named first in the library otherwise
  assert.deepEqual(fixesFor(code, 'gr/unknown-identifier')[0][0], "Add 'from invariant.detectors import python_code'");
});

test('gr/unknown-type with one close built-in type: the quick fix replaces the type name, and "fix all" leaves it', () => {
  assert.deepEqual(fixesFor('raise "x" if:\n    (call: ToolCal)\n    call is tool:send\n', 'gr/unknown-type'), [
    ["Change to 'ToolCall'", false, 'raise "x" if:\n    (call: ToolCall)\n    call is tool:send\n'],
  ]);
});

test('gr/unknown-type on a standard-library type: the same import; names the library lacks get none', () => {
  assert.deepEqual(fixesFor('raise "x" if:\n    (f: File)\n', 'gr/unknown-type'), [
    ["Add 'from invariant.files import File'", true, 'from invariant.files import File\n\nraise "x" if:\n    (f: File)\n'],
  ]);
  assert.deepEqual(fixesFor('raise "x" if:\n    (m: Message)\n    nothing_known(m)\n', 'gr/unknown-identifier'), []);
  assert.deepEqual(fixesFor('raise "x" if:\n    (f: Nope)\n', 'gr/unknown-type'), []);
});

test('gr/unused-import: removing the name and its comma, or the whole line when nothing on it is used', () => {
  const use = 'raise "x" if:\n    (m: Message)\n    moderated(m.content)\n';
  assert.deepEqual(fixesFor(`from invariant.detectors import pii, moderated, secrets as s\n${use}`, 'gr/unused-import'), [
    ["Remove the unused import 'pii'", false, `from invariant.detectors import moderated, secrets as s\n${use}`],
    ["Remove the unused import 'secrets as s'", false, `from invariant.detectors import pii, moderated\n${use}`],
  ]);
  assert.deepEqual(fixesFor(`import os\nfrom invariant.detectors import pii\nfrom invariant.detectors import moderated\n${use}`, 'gr/unused-import'), [
    ["Remove the unused import 'os'", false, `from invariant.detectors import pii\nfrom invariant.detectors import moderated\n${use}`],
    ["Remove the unused import 'pii'", false, `import os\nfrom invariant.detectors import moderated\n${use}`],
  ]);
  assert.deepEqual(fixesFor(`from invariant.detectors import pii, secrets\n${use.replace('moderated', 'len')}`, 'gr/unused-import'), [
    ['Remove the unused import line', false, use.replace('moderated', 'len')],
    ['Remove the unused import line', false, use.replace('moderated', 'len')],
  ]);
});

test('gr/unused-import: a comment after the import on its line stays, on a line of its own', () => {
  const use = 'raise "x" if:\n    (m: Message)\n    len(m.content) > 1\n';
  assert.deepEqual(fixesFor(`import re  # for the URL rule\n${use}`, 'gr/unused-import'), [
    ["Remove the unused import 're'", false, `# for the URL rule\n${use}`],
  ]);
});

test('fix all: one import repairs every use of its name, and counts each', () => {
  const text = 'raise "x" if:\n    (m: Message)\n    pii(m.content)\n    len(pii(m.content)) > 1\n';
  const model = guardrailService.parse({ uri: 'file:///r.gr', version: 1, text });
  const problems = guardrailService.validate(model, { settings: defaultSettings });
  const at = text.indexOf('pii');
  const found = codeActionsAt(guardrailService, model, { start: at, end: at }, problems);
  assert.deepEqual(found.fixAllOfKind.map((f) => [f.title, applyEdits(text, f.edits)]), [
    ['Fix all gr/unknown-identifier problems in the file (2)', `from invariant.detectors import pii\n\n${text}`],
  ]);
});
