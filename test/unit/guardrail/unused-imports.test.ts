import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describe, problems } from './helpers';

const unused = (text: string) => describe(text, problems(text).filter((p) => p.code === 'gr/unused-import'));

test('gr/unused-import: a hint, drawn faded, on each imported name nothing uses', () => {
  const text = 'from invariant.detectors import pii, secrets as s, moderated\nimport os\nimport json as j\n\nraise "x" if:\n    (m: Message)\n    moderated(m.content)\n';
  assert.deepEqual(unused(text), [
    "hint gr/unused-import 1:33-1:36 'pii' is imported but never used",
    "hint gr/unused-import 1:38-1:50 's' is imported but never used",
    "hint gr/unused-import 2:8-2:10 'os' is imported but never used",
    "hint gr/unused-import 3:8-3:17 'j' is imported but never used",
  ]);
  assert.ok(problems(text).filter((p) => p.code === 'gr/unused-import').every((p) => p.unnecessary === true));
});

test('gr/unused-import: a name counts as used wherever the file names it', () => {
  const uses: [string, string][] = [
    // a call target, a type, a raise message, a quantifier, a predicate, a constant
    ['pii', 'raise "x" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n'],
    ['pii', 'raise "x" if:\n    (i: pii) in []\n'],
    ['pii', 'raise pii("x") if:\n    (m: Message)\n'],
    ['pii', 'raise "x" if:\n    (m: Message)\n    pii(min=1):\n        (o: ToolOutput)\n'],
    ['pii', 'p(m: Message) :=\n    pii(m.content)\n'],
    ['pii', 'C := pii\n'],
    // a module reached through its first name
    ['invariant', 'raise "x" if:\n    (m: Message)\n    invariant.detectors.pii(m.content)\n'],
    // inside strings and f-strings (text given to a model, interpolation), and in `def` blocks the engine does not check
    ['pii', 'raise "x" if:\n    (m: Message)\n    llm("use pii here")\n'],
    ['pii', 'raise f"found {pii}" if:\n    (m: Message)\n'],
    ['pii', 'def helper():\n    raise "x" if:\n        (m: Message)\n        pii(m.content)\n'],
  ];
  for (const [name, body] of uses) {
    const text = `from invariant.detectors import pii\nimport invariant.detectors\n\n${body}`;
    const reported = unused(text).map((p) => /'(\w+)'/.exec(p)![1]);
    assert.deepEqual(reported, ['pii', 'invariant'].filter((n) => n !== name), body);
  }
});

test('gr/unused-import: a rule variable of the same name hides the import, which is then unused', () => {
  assert.deepEqual(unused('from invariant.detectors import pii\n\nraise "x" if:\n    (pii: Message)\n    pii.content == "a"\n'), [
    "hint gr/unused-import 1:33-1:36 'pii' is imported but never used",
  ]);
});

test('gr/unused-import: nothing when every import is used', () => {
  assert.deepEqual(unused('from invariant import Message, PolicyViolation\n\nraise PolicyViolation("x") if:\n    (m: Message)\n'), []);
});

test('gr/unused-import: none while the file has syntax errors (the line being typed may be the one using the import)', () => {
  const text = 'from invariant.detectors import pii\n\nraise "x" if:\n    (m: Message)\n    len(pii(m.content) > \n';
  assert.ok(problems(text).some((p) => p.code === 'gr/syntax'));
  assert.deepEqual(unused(text), []);
});
