import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const repoRoot = resolve(__dirname, '..', '..', '..');

/** A terminal session of the documentation: a ```console block, `$ ` lines being commands, the rest their output. */
interface Session {
  file: string;
  /** 1-based line of the block's first command. */
  line: number;
  commands: string[];
  /** The block as written. */
  transcript: string;
}

function sessionsIn(file: string): Session[] {
  const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
  const sessions: Session[] = [];
  let current: Session | undefined;
  lines.forEach((text, i) => {
    if (!current) {
      if (text.trim() === '```console') current = { file, line: i + 2, commands: [], transcript: '' };
    } else if (text.trim() === '```') {
      sessions.push(current);
      current = undefined;
    } else {
      if (text.startsWith('$ ')) current.commands.push(text.slice(2));
      else assert.ok(current.commands.length > 0, `${file}:${i + 1}: output before any $ command`);
      current.transcript += `${text}\n`;
    }
  });
  return sessions;
}

const marker = '\u0001command-ends\u0001';

/**
 * Runs a session's commands in one bash (so `echo $?` sees the command before it), each one's standard output and
 * error together as a terminal shows them, and writes the transcript the block would show.
 */
function run(session: Session, cwd: string, path: string): string {
  const script = session.commands.map((command, i) =>
    `${i > 0 ? '(exit $status); ' : ''}${command} 2>&1; status=$?; printf '%s\\n' '${marker}'`).join('\n');
  const result = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, PATH: path } });
  assert.equal(result.error, undefined);
  const outputs = result.stdout.split(`${marker}\n`);
  return session.commands.map((command, i) => `$ ${command}\n${outputs[i] ?? ''}`).join('');
}

const documents = ['README.md', ...(existsSync(join(repoRoot, 'docs')) ? readdirSync(join(repoRoot, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`) : [])];
const sessions = documents.flatMap(sessionsIn);

describe('the documentation\'s command-line examples run as written and print what they show', () => {
  let workspace: string;
  let bin: string;

  before(() => {
    // Each example runs in a bash in a copy of the repository's examples/ (so `--fix` never writes the real ones),
    // with `agent-traces` on PATH as the installed command would be.
    workspace = mkdtempSync(join(tmpdir(), 'agent-traces-readme-'));
    cpSync(join(repoRoot, 'examples'), join(workspace, 'examples'), { recursive: true });
    bin = join(workspace, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'agent-traces'), `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'dist', 'cli.js')}" "$@"\n`);
    chmodSync(join(bin, 'agent-traces'), 0o755);
  });

  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('the documentation has examples to run', () => {
    const commands = sessions.flatMap((s) => s.commands);
    assert.ok(commands.some((c) => /^agent-traces check /.test(c)) && commands.some((c) => /^agent-traces eval /.test(c)), commands.join('\n'));
  });

  for (const session of sessions) {
    it(`${session.file}:${session.line}: ${session.commands.join(' · ')}`, () => {
      assert.equal(run(session, workspace, `${bin}:${process.env.PATH}`), session.transcript, `${session.file}:${session.line} prints something else`);
    });
  }
});
