// `agent-traces eval` and `check` on the folders that hold a user's sessions, named as they are (`.codex/sessions`,
// `.claude/projects`) or found below the folder named (`.`): every session is walked, whatever the dot-folders and
// the date or project folders it lies in, with --max-file-size and symbolic links reported as anywhere else.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './cliRun';
import { prompt, session } from '../unit/jsonl/claudeCodeSessions';
import { writeClaudeProjects, writeCodexSessions, type SessionFiles } from '../unit/sessionFolders';

/** The column (1-based) of `needle` on line `line` (1-based) of a session file. */
function columnOf(path: string, line: number, needle: string): number {
  const column = readFileSync(path, 'utf8').split('\n')[line - 1].indexOf(needle) + 1;
  assert.ok(column > 0, `${needle} on ${path}:${line}`);
  return column;
}

describe('agent-traces eval and check on session folders', () => {
  let home: string;
  let outside: string;
  let codex: SessionFiles;
  let claude: SessionFiles;
  const big = join('.claude', 'projects', '-home-user-project-big', 'big.jsonl');
  const link = join('.claude', 'projects', '-home-user-linked');
  const shown = (path: string) => relative(home, path);

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'agent-traces-cli-sessions-'));
    outside = mkdtempSync(join(tmpdir(), 'agent-traces-cli-outside-'));
    codex = writeCodexSessions(home, 20, 50, 500); // 1,000 rollouts, 2025-08-20 to 2025-09-08
    claude = writeClaudeProjects(home, 20, 49, 500); // 980 sessions and 20 subagents' sessions
    mkdirSync(join(home, '.claude', 'projects', '-home-user-project-big'));
    writeFileSync(join(home, big), session(prompt('u1', `secret ${'x'.repeat(1.1 * 1024 * 1024)}`)));
    writeFileSync(join(outside, 'linked.jsonl'), session(prompt('u1', 'a secret behind a link')));
    symlinkSync(outside, join(home, link));
    writeFileSync(join(outside, 'rules.gr'), 'raise "secret word" if:\n    (msg: Message)\n    "secret" in msg.content\n');
  });

  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('eval rules.gr .codex/sessions .claude/projects evaluates every session, refuses the one over --max-file-size, and skips the link', () => {
    assert.equal(codex.files.length + claude.files.length, 2000);
    const ran = runCli(home, 'eval', join(outside, 'rules.gr'), '.codex/sessions', '.claude/projects', '--max-file-size', '1');
    assert.equal(ran.code, 4, 'violations, and a file not read');
    // Rollouts 0 and 500 (days 1 and 11), sessions 0 and 500 (projects 0 and 10): the word on the prompt's line, and
    // the message bound: the rollout's message item, the session's prompt text.
    const violation = (path: string, line: number, bound: string) => [
      `${shown(path)}:${line}:${columnOf(path, line, 'secret safe')} warning guardrails secret word`,
      `  bound: msg = messages.0 at ${shown(path)}:${line}:${columnOf(path, line, bound)}`,
    ];
    assert.deepEqual(ran.stdout.trim().split('\n'), [
      ...violation(codex.secret[0], 3, '{"type":"message"'),
      ...violation(codex.secret[1], 3, '{"type":"message"'),
      ...violation(claude.secret[0], 1, '"Session '),
      ...violation(claude.secret[1], 1, '"Session '),
      `${big}: error guardrails evaluation failed: refused: the file is 1.1 MB, over the 1.0 MB limit (setting --max-file-size)`,
      '2001 traces in 2001 files evaluated: 4 violations, 1 failed',
    ]);
    assert.equal(ran.stderr, `agent-traces eval: ${link}: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)\n`);
  });

  it('check . walks into .codex and .claude: every session checked, the one over --max-file-size and the link said', () => {
    const ran = runCli(home, 'check', '.', '--max-file-size', '1');
    assert.equal(ran.code, 3, 'nothing found, a file not read');
    assert.deepEqual(ran.stdout.trim().split('\n'), [
      `${link}: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)`,
      `${big}: error: refused: the file is 1.1 MB, over the 1.0 MB limit (setting --max-file-size)`,
      '2000 files checked, 1 could not be checked, 1 symbolic link skipped: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
  });
});

describe('agent-traces eval and check on a session folder with empty session files', () => {
  // Claude Code leaves a session file empty when a session starts and is never written to.
  let home: string;
  const project = join('.claude', 'projects', '-home-user-project');

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'agent-traces-cli-empty-sessions-'));
    mkdirSync(join(home, project), { recursive: true });
    writeFileSync(join(home, project, 'a-session.jsonl'), session(prompt('u1', 'a secret safe here')));
    writeFileSync(join(home, project, 'b-empty.jsonl'), '');
    writeFileSync(join(home, project, 'c-blank.jsonl'), '\n  \n');
    writeFileSync(join(home, 'rules.gr'), 'raise "secret word" if:\n    (msg: Message)\n    "secret" in msg.content\n');
  });

  after(() => rmSync(home, { recursive: true, force: true }));

  it('an empty or blank .jsonl holds nothing: checked and evaluated as empty, not failed', () => {
    const checked = runCli(home, 'check', '.claude/projects');
    assert.equal(checked.code, 0, checked.stdout);
    assert.deepEqual(checked.stdout.trim().split('\n'), ['3 files checked: 0 errors, 0 warnings, 0 infos, 0 hints']);
    const evaluated = runCli(home, 'eval', 'rules.gr', '.claude/projects');
    assert.equal(evaluated.code, 1, evaluated.stdout);
    assert.equal(evaluated.stdout.trim().split('\n').at(-1), '1 trace in 3 files evaluated: 1 violation, 0 failed');
    const named = runCli(home, 'check', join(project, 'b-empty.jsonl'));
    assert.deepEqual([named.code, named.stdout.trim()], [0, '1 file checked: 0 errors, 0 warnings, 0 infos, 0 hints']);
  });

  it('a .jsonl with a line that is no format read here still fails, named or found', () => {
    writeFileSync(join(home, project, 'd-notes.jsonl'), '{"note": 1}\n');
    try {
      const checked = runCli(home, 'check', '.claude/projects');
      assert.equal(checked.code, 3);
      assert.deepEqual(checked.stdout.trim().split('\n'), [
        `${join(project, 'd-notes.jsonl')}: error: not checked: not a trace or rule file (by its name, or for .jsonl by its first line)`,
        '3 files checked, 1 could not be checked: 0 errors, 0 warnings, 0 infos, 0 hints',
      ]);
    } finally {
      rmSync(join(home, project, 'd-notes.jsonl'));
    }
  });
});
