import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const broken = [
  '[',
  '  // a fixture',
  '  {"rol": "assistant", "tool_calls": {"id": "a\\u001b[31m", "type": "function", "function": {"name": "f", "arguments": "{\\"n\\": 1"}}},',
  '  {"role": "tool", "tool_call_id": "a\\u001b[31m", "content": "done"},',
  ']',
  '',
].join('\n');

describe('agent-traces check --fix', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-fix-'));
    writeFileSync(join(dir, 'broken.trace.json'), broken);
    writeFileSync(join(dir, 'clean.trace.json'), '[\n  {"role": "user", "content": "hi"}\n]\n');
    writeFileSync(join(dir, 'unrepairable.trace.json'), '[\n  {"role": "user", "content": "hi",},\n  {"role" "user"}\n]\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies every safe fix, prints each, and the fixed file checks clean', () => {
    const cleanBefore = statSync(join(dir, 'clean.trace.json')).mtimeMs;
    const result = run(dir, 'check', '--fix', 'broken.trace.json', 'clean.trace.json');
    assert.equal(result.code, 0, result.lines.join('\n'));
    assert.deepEqual(result.lines, [
      'broken.trace.json:2:3 fixed json/comment: Remove the comment',
      'broken.trace.json:3:3 fixed trace/missing-role: Add "role": "assistant"',
      'broken.trace.json:3:38 fixed trace/tool-calls-type: Wrap the tool call in a list',
      'broken.trace.json:3:129 fixed trace/arguments-json: Close the JSON at the end of the string with }',
      'broken.trace.json:4:69 fixed json/trailing-comma: Remove the trailing comma',
      // the key that may misspell "role" is the user's to rename: kept, with its hint
      'broken.trace.json:2:25 hint trace/unknown-key Unknown key "rol" in event #0; the trace format does not define it',
      '2 files checked: 0 errors, 0 warnings, 0 infos, 1 hints',
    ]);
    assert.equal(readFileSync(join(dir, 'broken.trace.json'), 'utf8'), [
      '[',
      '  {"role": "assistant", "rol": "assistant", "tool_calls": [{"id": "a\\u001b[31m", "type": "function", "function": {"name": "f", "arguments": "{\\"n\\": 1}"}}]},',
      '  {"role": "tool", "tool_call_id": "a\\u001b[31m", "content": "done"}',
      ']',
      '',
    ].join('\n'));
    assert.equal(statSync(join(dir, 'clean.trace.json')).mtimeMs, cleanBefore, 'an unchanged file is not written');
  });

  it('a second run changes nothing', () => {
    const before = readFileSync(join(dir, 'broken.trace.json'), 'utf8');
    const result = run(dir, 'check', '--fix', 'broken.trace.json');
    assert.deepEqual(result.lines, [
      'broken.trace.json:2:25 hint trace/unknown-key Unknown key "rol" in event #0; the trace format does not define it',
      '1 file checked: 0 errors, 0 warnings, 0 infos, 1 hints',
    ]);
    assert.equal(readFileSync(join(dir, 'broken.trace.json'), 'utf8'), before);
  });

  it('corrects a misspelled role only when one role is that close, and adds the import a rule file lacks', () => {
    writeFileSync(join(dir, 'roles.trace.json'), '[\n  {"role": "usr", "content": "hi"},\n  {"role": "ustem", "content": "x"}\n]\n');
    writeFileSync(join(dir, 'rules.gr'), 'from invariant import Message\n\nraise "x" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n    count(min=1):\n        (f: File)\n');
    const result = run(dir, 'check', '--fix', 'roles.trace.json', 'rules.gr');
    assert.deepEqual(result.lines, [
      'roles.trace.json:2:12 fixed trace/unknown-role: Change the role to "user"',
      'roles.trace.json:3:12 warning trace/unknown-role Unknown role "ustem". Did you mean "user" or "system"? The analyzer reads this event as a message with a role of its own',
      // in the order of their edits; the second pass (File) counts lines in the text the first pass wrote
      "rules.gr:6:5 fixed gr/unknown-identifier: Add 'count' to the import from invariant",
      "rules.gr:5:9 fixed gr/unknown-identifier: Add 'from invariant.detectors import pii'",
      "rules.gr:8:10 fixed gr/unknown-type: Add 'from invariant.files import File'",
      '2 files checked: 0 errors, 1 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(readFileSync(join(dir, 'roles.trace.json'), 'utf8'), '[\n  {"role": "user", "content": "hi"},\n  {"role": "ustem", "content": "x"}\n]\n');
    assert.equal(readFileSync(join(dir, 'rules.gr'), 'utf8'),
      'from invariant import Message, count\nfrom invariant.detectors import pii\nfrom invariant.files import File\n\nraise "x" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n    count(min=1):\n        (f: File)\n');
    assert.deepEqual(run(dir, 'check', '--fix', 'rules.gr').lines, ['1 file checked: 0 errors, 0 warnings, 0 infos, 0 hints']);
  });

  it('never touches a file with a syntax error no fix repairs', () => {
    const before = readFileSync(join(dir, 'unrepairable.trace.json'), 'utf8');
    const result = run(dir, 'check', '--fix', 'unrepairable.trace.json');
    assert.equal(result.code, 1);
    assert.equal(result.lines[0], 'unrepairable.trace.json: not fixed: a syntax error no fix can repair unambiguously at 3:10');
    assert.equal(readFileSync(join(dir, 'unrepairable.trace.json'), 'utf8'), before);
  });
});
