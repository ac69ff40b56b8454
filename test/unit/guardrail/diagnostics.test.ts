import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings } from '../../../server/src/common/languageService';
import { guardrailService } from '../../../server/src/guardrail';
import { describe, describe as describeAll, model, problems } from './helpers';

function codes(text: string): string[] {
  return problems(text).map((p) => p.code);
}

const VALID = `from invariant import count
from invariant.detectors import pii, semgrep, CodeIssue
import json

ALLOWED := ["alice@example.com"]

is_internal(m: Message) :=
    m.role == "user"
    (chunk: str) in text(m.content)
    match(".*@example\\.com", chunk)

raise PolicyViolation("leak", call=call) if:
    (out: ToolOutput) -> (call: ToolCall)
    out is tool:get_inbox
    call is tool:send_email({to: "^(?!bob).*", body: *, cc: <EMAIL_ADDRESS>})
    any(pii(out.content)) or len(ALLOWED) > 0
    (issue: CodeIssue) in semgrep(call.function.arguments.code, lang="python")
    issue.severity == "error"
    names := [c.function.name for c in [call] if c.function.name != "x"]
    json.loads("{}") == {}
    count(min=2):
        (m: Message)
        m.role == call.function.name
`;

test('a realistic valid file has no problems at all', () => {
  assert.deepEqual(describe(VALID), []);
});

test('gr/unknown-type: reported from the variable name to the type, as the official parser locates it', () => {
  assert.deepEqual(describe('raise "x" if:\n    (issue: CodeIssue)\n'), [
    'error gr/unknown-type 2:6-2:22 Failed to resolve type CodeIssue',
  ]);
  assert.deepEqual(describe('p(m: Mesage) := True\n'), ["error gr/unknown-type 1:3-1:12 Failed to resolve type Mesage. Did you mean 'Message'?"]);
  assert.deepEqual(describe('from invariant.detectors import CodeIssue\nraise "x" if:\n    (issue: CodeIssue)\n'), []);
});

test('gr/unknown-type: the official message, then the built-in types one or two edits away', () => {
  assert.deepEqual(describe('raise "x" if:\n    (call: ToolCal)\n'), ["error gr/unknown-type 2:6-2:19 Failed to resolve type ToolCal. Did you mean 'ToolCall'?"]);
  assert.deepEqual(describe('raise "x" if:\n    (out: ToolOuptut)\n'), ["error gr/unknown-type 2:6-2:21 Failed to resolve type ToolOuptut. Did you mean 'ToolOutput'?"]);
  // lower case and a first letter changed count as edits; names too far, or too short to guess, get none
  assert.deepEqual(describe('raise "x" if:\n    (m: message)\n'), ["error gr/unknown-type 2:6-2:16 Failed to resolve type message. Did you mean 'Message'?"]);
  assert.deepEqual(describe('raise "x" if:\n    (o: Outputt)\n'), ['error gr/unknown-type 2:6-2:16 Failed to resolve type Outputt']);
  assert.deepEqual(describe('raise "x" if:\n    (o: Sr)\n'), ['error gr/unknown-type 2:6-2:11 Failed to resolve type Sr']);
});

test('gr/unknown-identifier: every unresolved name, and none for rule variables, constants, predicates, imports, builtins', () => {
  assert.deepEqual(describe('raise "x" if:\n    (to: ToolOutput)\n    tc.function.name in to.content\n'), [
    'error gr/unknown-identifier 3:5-3:7 Failed to resolve identifier tc',
  ]);
  assert.deepEqual(describe('raise CodeIssue("a") if:\n    (m: Message)\n    is_sensitive(m) and m.role == other\n'), [
    'error gr/unknown-identifier 1:7-1:16 Failed to resolve identifier CodeIssue',
    'error gr/unknown-identifier 3:5-3:17 Failed to resolve identifier is_sensitive',
    'error gr/unknown-identifier 3:35-3:40 Failed to resolve identifier other',
  ]);
  // Variables may be used before the line that declares them, including in the rule's message.
  assert.deepEqual(describe('raise PolicyViolation("x", m=msg) if:\n    msg.role == "user"\n    (msg: Message)\n'), []);
  // Comprehension variables are local to the comprehension.
  assert.deepEqual(describe('raise "x" if:\n    any([w in "a" for w in ["a"]])\n    w == 1\n'), [
    'error gr/unknown-identifier 3:5-3:6 Failed to resolve identifier w',
  ]);
  // Quantifier bodies see outer variables; their own variables stay inside.
  assert.deepEqual(describe('from invariant import forall\nraise "x" if:\n    (c: ToolCall)\n    forall:\n        (o: ToolOutput)\n        c -> o\n    o.content == 1\n'), [
    'error gr/unknown-identifier 7:5-7:6 Failed to resolve identifier o',
  ]);
  // Quantifiers must be imported.
  assert.deepEqual(describe('raise "x" if:\n    forall:\n        (o: ToolOutput)\n'), [
    'error gr/unknown-identifier 2:5-2:11 Failed to resolve identifier forall',
  ]);
  // Predicate parameters are visible in the predicate only.
  assert.deepEqual(describe('p(m: Message) := m.role == "user"\nraise "x" if:\n    m.role == "a"\n'), [
    'error gr/unknown-identifier 3:5-3:6 Failed to resolve identifier m',
  ]);
  // Field names, keyword-argument names, object keys and tool names are not identifiers.
  assert.deepEqual(describe('raise "x" if:\n    (c: ToolCall)\n    c is tool:undefined_tool({key: 1})\n    print(sep=c.type)\n'), []);
  // `def` blocks are parsed but not checked, as the rule engine ignores them.
  assert.deepEqual(describe('def Ignored():\n    raise msg if:\n        (x: Unknown)\n        nothing(x)\n'), []);
});

test('gr/wildcard-outside-pattern and gr/value-ref-outside-pattern, not inside tool patterns', () => {
  assert.deepEqual(describe('raise "x" if:\n    n := *\n    m := <EMAIL_ADDRESS>\n'), [
    'error gr/wildcard-outside-pattern 2:10-2:11 You cannot use wildcards outside of semantic patterns (e.g. tool:abc(*, 12))',
    'error gr/value-ref-outside-pattern 3:10-3:25 You cannot use value references outside of semantic patterns (e.g. tool:abc(<VALUE>, 12))',
  ]);
  assert.deepEqual(describe('raise "x" if:\n    (c: ToolCall)\n    c is tool:t({a: *, b: [<PERSON>, {c: <LOCATION>}]}, *)\n'), []);
});

test('gr/unsupported-value-type lists the available types', () => {
  assert.deepEqual(describe('raise "x" if:\n    (c: ToolCall)\n    c is tool:t({iban: <IBAN>})\n'), [
    'error gr/unsupported-value-type 3:24-3:30 Unsupported value type: IBAN. Available types: EMAIL_ADDRESS LOCATION PHONE_NUMBER PERSON MODERATED',
  ]);
});

test('gr/duplicate-variable points at the second declaration with related information on the first', () => {
  const text = 'raise "x" if:\n    (m: Message)\n    m := 1\n    (n: Message)\n';
  const list = problems(text);
  assert.deepEqual(describe(text, list), ['error gr/duplicate-variable 3:5-3:6 Variable m already declared']);
  assert.deepEqual(list[0].related, [{ span: { start: 19, end: 20 }, message: 'm is first declared here' }]);
  // The same name in two rules, or shadowing a constant, is fine.
  assert.deepEqual(describe('m := 1\nraise "a" if:\n    (m: Message)\nraise "b" if:\n    (m: Message)\n'), []);
});

test('gr/duplicate-constant for constants and predicates', () => {
  const text = 'A := 1\nA := 2\np(m: Message) := True\np(m: Message) := False\n';
  const list = problems(text);
  assert.deepEqual(describe(text, list), [
    'error gr/duplicate-constant 2:1-2:2 Constant A already declared',
    'error gr/duplicate-constant 4:1-4:2 Predicate p already declared',
  ]);
  assert.deepEqual(list[0].related, [{ span: { start: 0, end: 1 }, message: 'A is first declared here' }]);
});

test('gr/empty-rule for a rule without conditions, wherever it stands', () => {
  assert.deepEqual(describe('raise "x" if:\n'), ["error gr/empty-rule 1:11-1:14 This rule has no conditions: write them on the lines after 'if:', indented"]);
  assert.deepEqual(describe('raise "x" if:\nraise "y" if:\n    (m: Message)\n'), ["error gr/empty-rule 1:11-1:14 This rule has no conditions: write them on the lines after 'if:', indented"]);
  assert.deepEqual(codes('raise "x" if:\n    (m: Message)\n'), []);
});

test('a dedent to a level no block opened is valid, as upstream (unit 2: the first line opens two levels)', () => {
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n  m.role == "a"\n'), []);
  // Deeper lines without an opener are tolerated, as are mixed 3- and 4-space indents.
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n      m.role == "a"\n    m.content == "b"\n'), []);
  assert.deepEqual(describe('raise "x" if:\n   (m: Message)\n   m.role == "a"\nraise "y" if:\n    (n: Message)\n'), []);
});

test('gr/unknown-module and gr/unknown-import only for the standard library', () => {
  // Nothing uses these imports: their unused-import hints are tested in unused-imports.test.ts.
  const describe = (text: string) => describeAll(text, problems(text).filter((p) => p.code !== 'gr/unused-import'));
  assert.deepEqual(describe('from invariant.nope import x\nimport invariant.also_nope\nfrom invariant.detectors import pii, nothing\nfrom invariant import match\n'), [
    "error gr/unknown-module 1:6-1:20 Module 'invariant.nope' could not be resolved",
    "error gr/unknown-module 2:8-2:27 Module 'invariant.also_nope' could not be resolved",
    "error gr/unknown-import 3:38-3:45 module 'invariant.detectors' has no attribute 'nothing'",
    "error gr/unknown-import 4:23-4:28 module 'invariant' has no attribute 'match'",
  ]);
  // Python's own modules import anywhere (os is never run here: see evaluation-modules.test.ts); other modules must be
  // importable where the policy runs (see python-imports.test.ts)
  assert.deepEqual(describe('import os\nfrom custom.checker import anything\nfrom invariant.detectors.code import semgrep\n'), [
    'information gr/module-never-run 1:8-1:10 os can act on the machine or the network: the local evaluator never runs it and reports the rules that use it as not evaluated (the official analyzer runs it as Python)',
    "warning gr/unresolved-module 2:6-2:20 Module 'custom.checker' is not part of the standard library: it must be importable where the policy runs. To check it here, add the folder holding custom/checker.py to agentTraces.guardrails.pythonPaths",
  ]);
});

test('gr/unknown-attribute warns about fields a known type lacks, and stays quiet when the type is unknown', () => {
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    m.tool_call\n    (c: ToolCall) in m.tool_calls\n    c.function.nam == "x"\n    c.foo\n'), [
    "warning gr/unknown-attribute 3:7-3:16 Message has no field 'tool_call'. Did you mean 'tool_calls'?",
    "warning gr/unknown-attribute 5:16-5:19 Function has no field 'nam'. Did you mean 'name'?",
    "warning gr/unknown-attribute 6:7-6:10 ToolCall has no field 'foo'. Its fields are: id, type, function, metadata, server.",
  ]);
  // Types flow through assignments, `(x: T) in …`, function results and comprehensions.
  assert.deepEqual(describe('raise "x" if:\n    (o: ToolOutput)\n    c := tool_call(o)\n    c.functon\n    any([t.nme for t in [c.function]])\n'), [
    "warning gr/unknown-attribute 4:7-4:14 ToolCall has no field 'functon'. Did you mean 'function'?",
  ]);
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    m.content.anything\n    (d: dict) in m.content\n    d.whatever\n    input.anything\n    (x: str) in m.content.splitlines()\n    x.field\n    (e: Event)\n    e.role\n'), []);
});

test('gr/argument-count warns about known functions called with the wrong number of arguments', () => {
  assert.deepEqual(describe('from invariant.detectors import is_similar\nraise "x" if:\n    (m: Message)\n    len(m, 2)\n    match("a")\n    is_similar(m)\n'), [
    'warning gr/argument-count 4:5-4:14 len() takes at most 1 argument but 2 were given',
    "warning gr/argument-count 5:5-5:15 match() is missing the required argument 's'",
    "warning gr/argument-count 6:5-6:18 is_similar() is missing the required argument 'target'",
  ]);
  // Keyword arguments fill parameters; *args functions take any number; shadowed names are not checked.
  assert.deepEqual(describe('from invariant.detectors import is_similar\nlen(a: str, b: str) := True\nraise "x" if:\n    (m: Message)\n    is_similar(m, target="a")\n    max(1, 2, 3)\n    len(m, m)\n'), []);
});

test('gr/template-placeholder: information where the placeholder stands, the rest still checked', () => {
  const text = '# {{ REQUIRES: [] }}\n\nraise "x" if:\n    (out: ToolOutput)\n    {{ BLACKLIST_WHITELIST }}\n    unknown(out)\n';
  assert.deepEqual(describe(text), [
    'information gr/template-placeholder 5:5-5:30 Template placeholder {{ BLACKLIST_WHITELIST }}: filled in before the rules are loaded',
    'error gr/unknown-identifier 6:5-6:12 Failed to resolve identifier unknown',
  ]);
});

test('problems are capped at maxProblems with a notice', () => {
  const text = 'raise "x" if:\n' + Array.from({ length: 20 }, (_, i) => `    unknown${i}\n`).join('');
  const list = guardrailService.validate(model(text), { settings: { ...defaultSettings, maxProblems: 5 } });
  assert.equal(list.length, 6);
  assert.equal(list[5].code, 'gr/too-many-problems');
  assert.equal(list[5].message, 'Showing 5 of 20 problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)');
});
