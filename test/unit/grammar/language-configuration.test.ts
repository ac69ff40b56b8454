import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './tokenize';

interface AutoClosingPair {
  open: string;
  close: string;
  notIn?: string[];
}

interface LanguageConfiguration {
  comments?: { lineComment?: string; blockComment?: [string, string] };
  brackets: Array<[string, string]>;
  autoClosingPairs: AutoClosingPair[];
  surroundingPairs: Array<[string, string]>;
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
  onEnterRules?: Array<{ beforeText: string; afterText?: string; action: { indent: string } }>;
  folding?: { offSide?: boolean; markers?: { start: string; end: string } };
}

function configurationFor(languageId: string): LanguageConfiguration {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const language = manifest.contributes.languages.find((entry: { id: string }) => entry.id === languageId);
  assert.ok(language, `language ${languageId} in package.json`);
  // VS Code reads these files as JSON with comments; ours are plain JSON so any tool can read them.
  return JSON.parse(fs.readFileSync(path.join(repoRoot, language.configuration), 'utf8'));
}

function wordAt(pattern: RegExp, text: string, offset: number): string | undefined {
  const global = new RegExp(pattern.source, 'g');
  for (const match of text.matchAll(global)) {
    if (match.index! <= offset && offset < match.index! + match[0].length) return match[0];
  }
  return undefined;
}

test('guardrail language configuration: comments, brackets, pairs, folding', () => {
  const config = configurationFor('guardrail');
  assert.deepEqual(config.comments, { lineComment: '#' });
  assert.deepEqual(config.brackets, [['{', '}'], ['[', ']'], ['(', ')']]);
  const pairs = new Map(config.autoClosingPairs.map((pair) => [pair.open, pair]));
  for (const open of ['{', '[', '(']) assert.ok(pairs.has(open), open);
  for (const open of ['"', "'", 'r"', "r'", 'f"', "f'"]) {
    assert.deepEqual(pairs.get(open)?.notIn, ['string', 'comment'], open);
    assert.equal(pairs.get(open)?.close, open.slice(-1), open);
  }
  assert.deepEqual(config.surroundingPairs, [['{', '}'], ['[', ']'], ['(', ')'], ['"', '"'], ["'", "'"]]);
  assert.equal(config.folding?.offSide, true);
  assert.ok(new RegExp(config.folding!.markers!.start).test('# region checks'));
  assert.ok(new RegExp(config.folding!.markers!.end).test('  # endregion'));
});

test('guardrail language configuration: indentation deepens after : and := (ignoring a trailing comment)', () => {
  const config = configurationFor('guardrail');
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const onEnter = config.onEnterRules?.find((rule) => rule.action.indent === 'indent');
  assert.ok(onEnter);
  const enter = new RegExp(onEnter.beforeText);
  const deepens = [
    'raise "x" if:',
    'x :=',
    'foo(a: T) :=   # comment',
    '    count(min=2, max=4):',
    '    not forall:',
    'raise PolicyViolation("a # b", c=1) if:',
    "raise 'it''s: fine' if:",
    'raise "say \\"hi\\"" if:  # why:',
    'def FilterPII():',
  ];
  for (const line of deepens) {
    assert.ok(increase.test(line), `increaseIndentPattern should match ${line}`);
    assert.ok(enter.test(line), `onEnterRules should match ${line}`);
  }
  const keeps = ['x == 1', 'x := 1', '    (m: Message)', '# note:', 'x == 1  # because:', '    y := "a:"', "    z := 'b:='", '    call is tool:get_inbox'];
  for (const line of keeps) {
    assert.ok(!increase.test(line), `increaseIndentPattern should not match ${line}`);
    assert.ok(!enter.test(line), `onEnterRules should not match ${line}`);
  }
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  assert.ok(decrease.test('    raise "next" if:'));
  assert.ok(!decrease.test('    raised := 1'));
});

test('guardrail language configuration: words are identifiers and numbers', () => {
  const word = new RegExp(configurationFor('guardrail').wordPattern);
  const line = 'call is tool:send_email({to: x}) and msg.content_2 > -1.5';
  assert.equal(wordAt(word, line, line.indexOf('send_email') + 3), 'send_email');
  assert.equal(wordAt(word, line, line.indexOf('tool')), 'tool');
  assert.equal(wordAt(word, line, line.indexOf('content_2')), 'content_2');
  assert.equal(wordAt(word, line, line.indexOf('msg')), 'msg');
  assert.equal(wordAt(word, line, line.indexOf('-1.5') + 2), '-1.5');
});

for (const languageId of ['agent-trace', 'agent-trace-jsonl']) {
  test(`${languageId} language configuration: JSON editing without comments`, () => {
    const config = configurationFor(languageId);
    assert.equal(config.comments, undefined);
    assert.deepEqual(config.brackets, [['{', '}'], ['[', ']']]);
    assert.deepEqual(config.autoClosingPairs, [
      { open: '{', close: '}', notIn: ['string'] },
      { open: '[', close: ']', notIn: ['string'] },
      { open: '"', close: '"', notIn: ['string'] },
    ]);
    assert.deepEqual(config.surroundingPairs, [['{', '}'], ['[', ']'], ['"', '"']]);

    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    // As in VS Code's JSON: indentation deepens after a line that ends by opening an object or array.
    for (const line of ['[', '  {', '  {"role": "user", "tool_calls": [', '"a": {"b": "}", "c": {']) assert.ok(increase.test(line), line);
    for (const line of ['{"role": "user"}', '  "content": "{ not a brace",', '[1, 2]', '"x": "["']) assert.ok(!increase.test(line), line);
    const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
    for (const line of ['  }', '  ],', ']']) assert.ok(decrease.test(line), line);
    for (const line of ['  },{', '  "a": 1']) assert.ok(!decrease.test(line), line);

    const word = new RegExp(config.wordPattern);
    const line = '{"tool_call_id": "call 1", "n": -2.5e3}';
    assert.equal(wordAt(word, line, line.indexOf('call 1')), '"call 1"');
    assert.equal(wordAt(word, line, line.indexOf('-2.5e3') + 1), '-2.5e3');
  });
}
