import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { PythonModuleFile, PythonModules } from '../../../server/src/common/types';
import { guardrailService } from '../../../server/src/guardrail';
import { scanPythonModule } from '../../../server/src/guardrail/python';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { at, describe, model } from './helpers';

/** Module files in memory, keyed by dotted module name, as the server finds them on disk. */
function memory(files: Record<string, string>, folders = ['src'], limit = 10_000): PythonModules {
  return {
    folders,
    find(module: string): PythonModuleFile | undefined {
      const text = files[module];
      if (text === undefined) return undefined;
      const path = `src/${module.replace(/\./g, '/')}.py`;
      const file: PythonModuleFile = { uri: `file:///work/${path}`, path, size: text.length, limit };
      if (text.length <= limit) file.text = text;
      return file;
    },
  };
}

const checker = [
  '"""Checks for the custom project."""',
  'import re',
  'from .helpers import (normalise,',
  '    tokens as split_tokens)',
  '',
  'PATTERN = re.compile(r"hello")',
  'LIMIT: int = 3',
  '',
  '',
  'def is_safe(text: str,',
  '            strict: bool = False) -> bool:',
  '    """Whether the text is safe to send.',
  '',
  '    Strict mode also rejects ``greetings``.',
  '    """',
  '    def inner(x):',
  '        return x',
  '    return PATTERN.search(text) is None',
  '',
  'class Verdict(object):',
  "    '''A checker result.'''",
  '    inside = 1',
  '',
  'if True:',
  '    def conditional(): pass',
  'text = """',
  'def not_a_function(): pass',
  '"""',
].join('\n');

const rules = 'from custom_checker_project.checker import is_safe, Verdict, missing\n\nraise "unsafe" if:\n    (m: Message)\n    not is_safe(m.content)\n';

function context(modules?: PythonModules): ServiceContext {
  return { settings: defaultSettings, pythonModules: modules };
}

/** The problems other than unused-import hints (those have their own tests in unused-imports.test.ts). */
function problems(text: string, modules?: PythonModules): string[] {
  return describe(text, guardrailService.validate(model(text), context(modules)).filter((p) => p.code !== 'gr/unused-import'));
}

test('a module outside the standard library warns that it must be importable, saying how to check it here', () => {
  assert.deepEqual(problems(rules), [
    "warning gr/unresolved-module 1:6-1:36 Module 'custom_checker_project.checker' is not part of the standard library: it must be importable where the policy runs. To check it here, add the folder holding custom_checker_project/checker.py to agentTraces.guardrails.pythonPaths",
  ]);
  assert.deepEqual(problems(rules, memory({})), [
    "warning gr/unresolved-module 1:6-1:36 Module 'custom_checker_project.checker' is not part of the standard library: it must be importable where the policy runs. No custom_checker_project/checker.py or custom_checker_project/checker/__init__.py in src (agentTraces.guardrails.pythonPaths)",
  ]);
  // Python's own modules and the Guardrails library are not warned about (what the evaluator does with Python's
  // modules is an information, see evaluation-modules.test.ts)
  const text = 'import os\nimport json\nfrom typing import Any\nimport xml.etree.ElementTree\nfrom invariant.detectors import pii\n';
  assert.deepEqual(problems(text).filter((p) => !p.startsWith('information ')), []);
});

test('found in the configured folders: no module warning, and names the file lacks get their own warning', () => {
  const modules = memory({ 'custom_checker_project.checker': checker, 'custom_checker_project.checker.sub': '' });
  assert.deepEqual(problems(rules, modules), [
    "warning gr/unknown-import 1:62-1:69 module 'custom_checker_project.checker' has no attribute 'missing': src/custom_checker_project/checker.py defines no top-level function, class or variable of that name",
  ]);
  // names bound by imports, assignments, conditional defs and submodules count; a wildcard import allows any
  assert.deepEqual(problems('from custom_checker_project.checker import re, normalise, split_tokens, PATTERN, LIMIT, conditional, text, sub\n', modules), []);
  assert.deepEqual(problems('from w import anything\n', memory({ w: 'from elsewhere import *\n' })), []);
  // nested defs, class members and code inside strings are not module attributes
  assert.deepEqual(problems('from custom_checker_project.checker import inner, inside, not_a_function\n', modules).map((p) => p.split(' ').slice(0, 3).join(' ')), [
    'warning gr/unknown-import 1:44-1:49', 'warning gr/unknown-import 1:51-1:57', 'warning gr/unknown-import 1:59-1:73',
  ]);
});

test('a module file over the size limit is not read, and its import says so', () => {
  assert.deepEqual(problems(rules, memory({ 'custom_checker_project.checker': checker }, ['src'], 100)), [
    `warning gr/unresolved-module 1:6-1:36 Module 'custom_checker_project.checker' is src/custom_checker_project/checker.py, which is larger than 100 bytes (agentTraces.guardrails.maxPythonFileSize), so its names were not checked`,
  ]);
});

test('hover on an imported function shows its signature and docstring', () => {
  const modules = memory({ 'custom_checker_project.checker': checker });
  const m = model(rules);
  const hover = guardrailService.hover(m, at(rules, 'is_safe(m', 2), context(modules));
  assert.deepEqual(hover?.span, { start: at(rules, 'is_safe(m'), end: at(rules, 'is_safe(m') + 7 });
  assert.equal(hover?.markdown, [
    '```guardrail\nfrom custom_checker_project.checker import is_safe, Verdict, missing\n```',
    '```python\ndef is_safe(text: str, strict: bool = False) -> bool\n```',
    '```text\nWhether the text is safe to send.\n\nStrict mode also rejects ``greetings``.\n```',
    'From `src/custom_checker_project/checker.py`, found through agentTraces.guardrails.pythonPaths; it must also be importable where the policy runs.',
  ].join('\n\n'));
  const onClass = guardrailService.hover(m, at(rules, 'Verdict', 2), context(modules));
  assert.match(onClass!.markdown, /```python\nclass Verdict\(object\)\n```\n\n```text\nA checker result.\n```/);
  // a docstring holding a fence cannot close the block it is shown in
  const fenced = memory({ f: 'def g():\n    """Use ```x``` here."""\n' });
  const hoverFenced = guardrailService.hover(model('from f import g\n'), 14, context(fenced));
  assert.match(hoverFenced!.markdown, /````text\nUse ```x``` here.\n````/);
  // without the module file, hover says what is known
  assert.match(guardrailService.hover(m, at(rules, 'is_safe(m', 2), context())!.markdown, /resolved when the rules are loaded/);
});

test('go to definition opens the Python file at the def, from the import and from a use', () => {
  const modules = memory({ 'custom_checker_project.checker': checker });
  const m = model(rules);
  const lines = new LineIndex(checker);
  const where = (t: { uri?: string; span: { start: number; end: number }; selection?: { start: number; end: number }; positions?: unknown }) => {
    const a = lines.positionAt(t.selection!.start);
    return `${t.uri} ${a.line}:${a.character} ${checker.slice(t.selection!.start, t.selection!.end)} ${t.positions ? 'own positions' : ''}`;
  };
  const expected = ['file:///work/src/custom_checker_project/checker.py 9:4 is_safe own positions'];
  assert.deepEqual(guardrailService.definition(m, at(rules, 'is_safe(m', 1), context(modules)).map(where), expected);
  assert.deepEqual(guardrailService.definition(m, at(rules, 'is_safe,', 1), context(modules)).map(where), expected);
  const def = guardrailService.definition(m, at(rules, 'is_safe(m', 1), context(modules))[0];
  assert.equal(checker.slice(def.span.start, def.span.end), 'def is_safe(text: str,\n            strict: bool = False) -> bool:');
  // without the file (or without a context), it goes to the import, as before
  assert.deepEqual(guardrailService.definition(m, at(rules, 'is_safe(m', 1)).map((t) => t.uri), [undefined]);
});

test('the scanner reads logical lines: brackets, strings and comments do not start statements', () => {
  const info = scanPythonModule('x = (1,\ny := 2)\n# z = 1\ns = """\nw = 1\n"""\na, b = 1, 2\nasync def run(): pass\n');
  assert.deepEqual([...info.names.keys()].sort(), ['a', 'b', 'run', 's', 'x']);
});
