import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService as service } from '../../../server/src/guardrail';
import type { RenameResult, TextEditSpan } from '../../../server/src/common/types';
import { at, context, model, spanText, toolsContext } from './helpers';

const TEXT = `from invariant import count
from invariant.detectors import pii as find_pii
import json

LIMIT := 3

is_user(m: Message) :=
    m.role == "user"

raise PolicyViolation("Email after inbox", call=call) if:
    (out: ToolOutput) -> (call: ToolCall)
    out is tool:get_inbox
    call is tool:send_email
    is_user(out) or len(find_pii(out.content)) > LIMIT
    name := call.function.name
    name in ["a"]
    count(min=2):
        (m: Message)
        m.role == name

raise "Second rule" if:
    (call: ToolCall)
    call.function.arguments
`;

const m = model(TEXT);

function hoverAt(needle: string, delta = 0, n = 0, ctx = context) {
  return service.hover(m, at(TEXT, needle, delta, n), ctx);
}

test('hover: typed variables show their type and declaration; fields show their type and description', () => {
  const h = hoverAt('call.function.name', 1)!;
  assert.equal(spanText(TEXT, h.span), 'call');
  assert.match(h.markdown, /\(variable\) call: ToolCall/);
  assert.match(h.markdown, /Declared by `\(out: ToolOutput\) -> \(call: ToolCall\)`/);
  const field = hoverAt('function.name', 2)!;
  assert.equal(spanText(TEXT, field.span), 'function');
  assert.match(field.markdown, /ToolCall\.function: Function/);
  const name = hoverAt('.name\n', 2)!;
  assert.match(name.markdown, /Function\.name: str/);
  // An assigned variable takes the type of its value.
  assert.match(hoverAt('name in [', 1)!.markdown, /\(variable\) name: str/);
});

test('hover: types list their fields; builtins and library functions show signature and description', () => {
  const type = hoverAt('ToolOutput)', 2)!;
  assert.match(type.markdown, /type ToolOutput/);
  assert.match(type.markdown, /- `tool_call_id`: `str`/);
  assert.match(hoverAt('len(', 1)!.markdown, /len\(value\) -> int/);
  const pii = hoverAt('find_pii(out', 2)!;
  assert.match(pii.markdown, /pii\(data, entities=…, \*\*options\) -> list\[str\]/);
  assert.match(pii.markdown, /From `invariant.detectors`/);
  assert.match(hoverAt('count(min', 1)!.markdown, /count\(min=…, max=…\): <block>/);
  assert.match(hoverAt('PolicyViolation', 3)!.markdown, /The usual result of a rule/);
});

test('hover: declared constants, predicates and imports show their declaration line', () => {
  assert.match(hoverAt('LIMIT\n', 1)!.markdown, /```guardrail\nLIMIT := 3\n```\n\n\(constant\) LIMIT: int/);
  assert.match(hoverAt('is_user(out)', 1)!.markdown, /is_user\(m: Message\) :=/);
  assert.match(hoverAt('json', 1)!.markdown, /import json\n```\n\nPython module imported from `json`/);
  const usage = model('import json\nraise "x" if:\n    json.loads("{}")\n');
  assert.match(service.hover(usage, 33, context)!.markdown, /```guardrail\nimport json\n```/);
  assert.match(hoverAt('invariant.detectors', 12)!.markdown, /module invariant\.detectors/);
});

test('hover: operators and keywords', () => {
  assert.match(hoverAt('->')!.markdown, /happens before/);
  assert.match(hoverAt(' is tool', 1)!.markdown, /matches a tool call/);
  assert.match(hoverAt(' in [', 1)!.markdown, /membership/);
  assert.match(hoverAt('raise')!.markdown, /declares a rule/);
  assert.match(hoverAt(' if:', 1)!.markdown, /Ends a rule header/);
  assert.match(service.hover(model('x := 1 if a else 2\n'), 8, context)!.markdown, /Conditional expression/);
  assert.match(hoverAt('import json')!.markdown, /makes standard-library/);
  assert.equal(service.hover(model('a := b contains_only c\n'), 8, context)!.markdown.includes('every element'), true);
  assert.equal(service.hover(model('a := b ~> c\n'), 7, context)!.markdown.includes('immediately before'), true);
});

test('hover: tool patterns say which workspace trace files call the tool', () => {
  const tools = toolsContext([
    { name: 'get_inbox', files: [{ uri: 'file:///a.trace.json', count: 3 }, { uri: 'file:///b.trace.json', count: 1 }] },
  ]);
  const used = hoverAt('get_inbox', 0, 0, tools)!;
  assert.equal(spanText(TEXT, used.span), 'get_inbox');
  assert.match(used.markdown, /Called 4 times in 2 trace files of the workspace:\n- `file:\/\/\/a.trace.json`: 3 calls\n- `file:\/\/\/b.trace.json`: 1 call/);
  const unused = hoverAt('send_email', 0, 0, toolsContext([], true))!;
  assert.match(unused.markdown, /No trace file in the workspace calls `send_email`\./);
  assert.match(unused.markdown, /stopped at its file limit/);
  assert.doesNotMatch(hoverAt('send_email')!.markdown, /No trace file/);
});

test('definition: variables, predicates, constants and imported names go to their declaration', () => {
  const d = service.definition(m, at(TEXT, 'call.function.name'));
  assert.equal(d.length, 1);
  assert.equal(spanText(TEXT, d[0].selection!), 'call');
  assert.equal(d[0].selection!.start, at(TEXT, 'call: ToolCall)'));
  assert.equal(spanText(TEXT, service.definition(m, at(TEXT, 'is_user(out)'))[0].span), 'is_user(m: Message) :=\n    m.role == "user"');
  assert.equal(service.definition(m, at(TEXT, 'LIMIT\n'))[0].selection!.start, at(TEXT, 'LIMIT :='));
  assert.equal(spanText(TEXT, service.definition(m, at(TEXT, 'find_pii(out'))[0].selection!), 'find_pii');
  // The quantifier's m is its own variable, the predicate's m another one.
  assert.equal(service.definition(m, at(TEXT, 'm.role == name'))[0].selection!.start, at(TEXT, 'm: Message)', 0, 1));
  assert.deepEqual(service.definition(m, at(TEXT, 'len(')), []);
  // Each rule has its own variables.
  assert.equal(service.definition(m, at(TEXT, 'call.function.arguments'))[0].selection!.start, at(TEXT, 'call: ToolCall)', 0, 1));
});

test('references and highlights stay within the variable\'s rule', () => {
  const refs = service.references(m, at(TEXT, 'call is tool'), true).map((t) => t.span.start);
  assert.deepEqual(refs, [at(TEXT, 'call=call', 5), at(TEXT, 'call: ToolCall'), at(TEXT, 'call is tool'), at(TEXT, 'call.function.name')]);
  assert.equal(service.references(m, at(TEXT, 'call is tool'), false).length, 3);
  const hl = service.highlights(m, at(TEXT, 'name := call'));
  assert.deepEqual(hl.map((h) => [spanText(TEXT, h.span), h.kind]), [['name', 'write'], ['name', 'read'], ['name', 'read']]);
  assert.deepEqual(service.highlights(m, at(TEXT, 'tool:get_inbox')), []);
});

function renamedEdits(renamed: RenameResult | null): TextEditSpan[] {
  assert.ok(renamed && 'edits' in renamed, JSON.stringify(renamed));
  return renamed.edits;
}

test('rename: variables, predicates and constants; not builtins, types, imports or invalid names (with the reason)', () => {
  const offset = at(TEXT, 'out is tool');
  assert.equal(spanText(TEXT, service.prepareRename!(m, offset)!), 'out');
  const edits = renamedEdits(service.rename!(m, offset, 'output'));
  assert.equal(edits.length, 4);
  assert.ok(edits.every((e) => e.newText === 'output' && spanText(TEXT, e.span) === 'out'));
  assert.equal(renamedEdits(service.rename!(m, at(TEXT, 'is_user(out)'), 'from_user')).length, 2);
  assert.equal(renamedEdits(service.rename!(m, at(TEXT, 'LIMIT\n'), 'MAX')).length, 2);
  assert.deepEqual(service.rename!(m, offset, '1bad'), { refusal: '"1bad" is not a name: a name starts with a letter or _ and holds only letters, digits and _' });
  assert.deepEqual(service.rename!(m, offset, 'call'), { refusal: '"call" already names a variable that out can see: renaming onto it would merge the two' });
  assert.deepEqual(service.rename!(m, offset, 'LIMIT'), { refusal: '"LIMIT" already names a constant that out can see: renaming onto it would merge the two' }, 'would hide a constant the rule can see');
  assert.deepEqual(service.rename!(m, at(TEXT, 'LIMIT\n'), 'is_user'), { refusal: '"is_user" already names a predicate that LIMIT can see: renaming onto it would merge the two' });
  assert.deepEqual(service.rename!(m, offset, 'not'), { refusal: '"not" is a keyword of the rule language' });
  assert.equal(service.prepareRename!(m, at(TEXT, 'len(')), null);
  assert.equal(service.prepareRename!(m, at(TEXT, 'ToolOutput)')), null);
  assert.equal(service.prepareRename!(m, at(TEXT, 'find_pii(out')), null);
});

test('symbols: rules named by their message, predicates, constants, imports', () => {
  assert.deepEqual(service.symbols(m).map((s) => `${s.kind} ${s.name}`), [
    'import count', 'import find_pii', 'import json', 'constant LIMIT', 'predicate is_user', 'rule Email after inbox', 'rule Second rule',
  ]);
  const rule = service.symbols(m)[5];
  assert.deepEqual(rule.children!.map((c) => `${c.name}: ${c.detail}`), ['out: ToolOutput', 'call: ToolCall', 'name: str']);
  assert.equal(spanText(TEXT, rule.children![2].selection), 'name');
  assert.ok(spanText(TEXT, rule.span).startsWith('raise PolicyViolation'));
  assert.ok(spanText(TEXT, rule.span).endsWith('m.role == name'));
});

test('folding: imports, blocks, quantifiers', () => {
  const lines = service.folding(m).map((f) => [m.lines.positionAt(f.start).line, m.lines.positionAt(f.end).line]);
  assert.deepEqual(lines, [[0, 2], [6, 7], [9, 18], [16, 18], [20, 22]]);
});

function labels(text: string, offset = text.length, ctx = context) {
  return service.completion(model(text), offset, ctx).map((c) => c.label);
}

test('completion: keywords and snippets at the top level, body snippets inside a rule', () => {
  const top = service.completion(model('ra'), 2, context);
  const rule = top.find((c) => c.label === 'raise')!;
  assert.equal(rule.insertText, 'raise "${1:message}" if:\n    (${2:call}: ${3:ToolCall})\n    $0');
  assert.deepEqual(rule.replace, { start: 0, end: 2 });
  assert.ok(top.some((c) => c.label === 'from'));
  const body = labels('raise "x" if:\n    (call: ToolCall)\n    ');
  assert.ok(body.includes('(call: ToolCall)') && body.includes('count(min=…):') && body.includes('call') && body.includes('len'));
});

test('completion: types after "(x: ", fields after "x." from the variable type', () => {
  const types = labels('from invariant.detectors import CodeIssue\nraise "x" if:\n    (c: To');
  assert.ok(types.includes('ToolCall') && types.includes('ToolOutput') && types.includes('CodeIssue'));
  assert.ok(!types.includes('len'));
  assert.deepEqual(labels('raise "x" if:\n    (c: ToolCall)\n    c.'), ['id', 'type', 'function', 'metadata', 'server']);
  assert.deepEqual(labels('raise "x" if:\n    (c: ToolCall)\n    c.function.na'), ['name', 'arguments']);
  assert.deepEqual(labels('raise "x" if:\n    (m: Message)\n    (c: ToolCall) in m.tool_calls\n    c.function.'), ['name', 'arguments']);
  assert.ok(labels('raise "x" if:\n    (l: str)\n    l.').includes('splitlines'));
});

test('completion: modules after from/import, module names after import, declared names in scope', () => {
  assert.ok(labels('from invariant.det').includes('invariant.detectors'));
  assert.ok(labels('import ').includes('invariant'));
  const names = labels('from invariant.detectors import pii, ');
  assert.ok(names.includes('secrets') && names.includes('prompt_injection'));
  const scoped = labels('LIMIT := 1\nraise "x" if:\n    (msg: Message)\n    ');
  assert.ok(scoped.includes('LIMIT') && scoped.includes('msg'));
});

test('completion: tool names after "tool:" from the workspace index, most called first', () => {
  const tools = toolsContext([
    { name: 'read_file', files: [{ uri: 'file:///a.json', count: 1 }] },
    { name: 'send_email', files: [{ uri: 'file:///a.json', count: 5 }, { uri: 'file:///b.json', count: 2 }] },
  ]);
  const text = 'raise "x" if:\n    (c: ToolCall)\n    c is tool:se';
  const entries = service.completion(model(text), text.length, tools);
  assert.deepEqual(entries.map((e) => [e.label, e.detail]), [['send_email', '7 calls in 2 trace files'], ['read_file', '1 call in 1 trace file']]);
  assert.deepEqual(entries[0].replace, { start: text.length - 2, end: text.length });
});

test('every feature answers at every offset of valid, broken and template text without throwing', () => {
  const samples = [
    TEXT,
    TEXT.slice(0, 400),
    'raise "x" if:\n    (m: Message\n    m. \n    tool:\n    (c: \nfrom invariant.detectors import \n{{ X }}\n',
    '\u0000\u00ff{{}}<<>>::==\n\t\t\t)(][',
  ];
  const tools = toolsContext([{ name: 'get_inbox', files: [{ uri: 'file:///a.json', count: 1 }] }], true);
  for (const text of samples) {
    const mm = model(text);
    service.validate(mm, tools);
    service.symbols(mm);
    service.folding(mm);
    for (let offset = 0; offset <= text.length; offset++) {
      service.hover(mm, offset, tools);
      service.definition(mm, offset);
      service.references(mm, offset, true);
      service.highlights(mm, offset);
      service.completion(mm, offset, tools);
      if (service.prepareRename!(mm, offset)) assert.ok(service.rename!(mm, offset, 'renamed'));
    }
  }
});
