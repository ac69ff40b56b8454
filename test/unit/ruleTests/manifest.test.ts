import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { messagePattern, parseManifest } from '../../../server/src/ruleTests/manifest';

const root = join(__dirname, '..', '..', '..', '..');
const uri = 'file:///w/rules/refunds.tests.json';

/** Each problem as [text it marks, severity, message]. */
function problems(text: string) {
  return parseManifest(uri, 1, text).problems.map((p) => [text.slice(p.span.start, p.span.end), p.severity, p.message]);
}

describe('rule tests: the manifest', () => {
  it('reads every field with its span: rules, shared and own params, trace files, dataset lines, inline traces, expectations', () => {
    const text = JSON.stringify({
      rules: '../refunds.gr',
      params: { limit: 100, region: 'eu' },
      cases: [
        { name: 'caught', trace: 'fixtures/a.trace.json', params: { limit: 5 }, expect: [{ message: 'refund needs approval', at: 3, rule: 12 }] },
        { name: 'line', trace: 'set.jsonl', line: 4, expect: [{ message: '/needs/i' }], allowOthers: true },
        { name: 'inline', trace: [{ role: 'user', content: 'hi' }], expect: [], skip: 'later' },
      ],
    }, null, 2);
    const model = parseManifest(uri, 1, text);
    assert.deepEqual(model.problems, []);
    assert.equal(model.rules.path, '../refunds.gr');
    const [caught, line, inline] = model.cases;
    assert.equal(caught.name, 'caught');
    assert.equal(text.slice(caught.nameSpan.start, caught.nameSpan.end), '"caught"');
    assert.deepEqual(caught.params, { limit: 5, region: 'eu' });
    assert.deepEqual(caught.trace && { ...caught.trace, span: text.slice(caught.trace.span.start, caught.trace.span.end) }, { kind: 'file', path: 'fixtures/a.trace.json', span: '"fixtures/a.trace.json"' });
    assert.equal(caught.expect[0].at, 3);
    assert.equal(caught.expect[0].rule, 12);
    assert.deepEqual(caught.expect[0].message, { kind: 'exact', text: 'refund needs approval' });
    assert.equal(line.line, 4);
    assert.equal(line.allowOthers, true);
    assert.equal(line.expect[0].message.kind, 'regex');
    assert.equal(inline.trace?.kind, 'inline');
    assert.equal(text.slice(inline.trace!.span.start, inline.trace!.span.end).replace(/\s+/g, ''), '[{"role":"user","content":"hi"}]');
    assert.equal(inline.skip, 'later');
  });

  it('defaults the rule file to the .gr of the same name', () => {
    assert.equal(parseManifest(uri, 1, '{"cases": []}').rules.path, 'refunds.gr');
    assert.equal(parseManifest('file:///w/My%20Rules.tests.json', 1, '{"cases": []}').rules.path, 'My Rules.gr');
  });

  it('reports fields of the wrong shape on their exact characters, and misspelled fields with did-you-mean', () => {
    const text = '{"rules": 3, "cases": [{"name": "", "trace": 7, "expect": {}, "alowOthers": true, "line": 0},'
      + ' {"name": "b", "trace": "t.json", "expect": [{"message": "/(/"}, {"mesage": "x"}, {"message": "m", "at": -1, "rule": 1.5}]}, 5]}';
    assert.deepEqual(problems(text), [
      ['3', 'error', '"rules" is the rule file\'s path, relative to this manifest'],
      ['"alowOthers"', 'warning', 'Unknown field "alowOthers" in a case. Did you mean "allowOthers"?'],
      ['""', 'error', '"name" is a text naming the case'],
      ['7', 'error', '"trace" is a trace file\'s path (relative to this manifest), or the trace itself: a list of events, or an object with "messages"'],
      ['0', 'error', '"line" is the 1-based line of a dataset (.jsonl) that holds the trace'],
      ['{}', 'error', '"expect" is a list of { "message", "at", "rule" } ([] when the trace must pass)'],
      ['"/(/"', 'error', 'Not a valid regular expression: Invalid regular expression: /(/u: Unterminated group'],
      ['"mesage"', 'warning', 'Unknown field "mesage" in an expected violation. Did you mean "message"?'],
      ['{', 'error', 'An expected violation needs a "message": the exact text, or /a regex/'],
      ['-1', 'error', '"at" is the 0-based index of the event the violation\'s first range lies in'],
      ['1.5', 'error', '"rule" is the 1-based line of the rule\'s raise in the rule file'],
      ['5', 'error', 'A case is an object: { "name", "trace", "expect" }'],
    ]);
  });

  it('reports a missing name, trace, expect and cases, syntax errors, and two cases of one name', () => {
    assert.deepEqual(problems('{}'), [['{', 'error', 'The manifest has no "cases": a list of { "name", "trace", "expect" }']]);
    assert.deepEqual(problems('[]'), [['[]', 'error', 'A tests manifest is an object: { "rules": "X.gr", "cases": [ … ] }']]);
    assert.deepEqual(problems('{"cases": [{}]}'), [
      ['{', 'error', 'A case needs a "name"'],
      ['{', 'error', 'A case needs a "trace": a trace file\'s path (relative to this manifest), or the trace itself (a list of events)'],
      ['{', 'error', 'A case needs "expect": the violations it must find ([] when none)'],
    ]);
    const twice = '{"cases": [{"name": "a", "trace": "t", "expect": []}, {"name": "a", "trace": "t", "expect": []}]}';
    assert.deepEqual(problems(twice), [['"a"', 'warning', 'Another case (1) has this name: each case needs its own to be told apart']]);
    const broken = problems('{"cases": [}');
    assert.equal(broken[0][1], 'error');
    assert.ok(broken.length >= 1);
  });

  it('reads a message as exact text, or /a regex/ with flags i, m and s', () => {
    assert.deepEqual(messagePattern('a/b'), { kind: 'exact', text: 'a/b' });
    const regex = messagePattern('/^refund (needs|wants) approval$/i');
    assert.ok(typeof regex !== 'string' && regex.kind === 'regex' && regex.regex.test('REFUND NEEDS APPROVAL'));
    assert.equal(messagePattern('/x/g'), 'Unknown regular expression flag in "g": use i, m or s');
    assert.deepEqual(messagePattern('//'), { kind: 'exact', text: '//' });
  });

  it('the contributed JSON Schema accepts the examples\' manifest and flags what the manifest reader flags', async () => {
    const schema = JSON.parse(readFileSync(join(root, 'schemas', 'rule-tests.schema.json'), 'utf8'));
    const service = getLanguageService({});
    service.configure({ validate: true, schemas: [{ uri: 'schema://rule-tests', fileMatch: ['*.tests.json'], schema }] });
    const validate = async (text: string) => {
      const document = TextDocument.create('file:///w/x.tests.json', 'json', 1, text);
      return (await service.doValidation(document, service.parseJSONDocument(document))).map((d) => d.message);
    };
    assert.deepEqual(await validate(readFileSync(join(root, 'examples', 'rules', 'refunds.tests.json'), 'utf8')), []);
    assert.deepEqual(await validate('{"cases": [{"name": "a", "trace": "t.json", "expect": [{"message": "m", "at": -1}], "alowOthers": true}]}'), [
      'Value is below the minimum of 0.',
      'Property alowOthers is not allowed.',
    ]);
  });
});
