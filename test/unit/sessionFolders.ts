/**
 * The folders Claude Code and Codex CLI keep their sessions in, written small for tests that open or walk thousands
 * of them:
 * - `.claude/projects/<project>/<session id>.jsonl`, each session as jsonl/claudeCodeSessions.ts writes it
 *   (imitating `../shared/corpus/formats/claude-code/short.jsonl`), and the first session of each project with a
 *   subagent's session in `<session id>/subagents/agent-<id>.jsonl` (as beside
 *   `claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl`);
 * - `.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, each rollout as codex/helpers.ts writes its records
 *   (imitating `../shared/corpus/formats/codex/codex_golden.jsonl`).
 * Each session asks something, calls one tool (`tool_<n % 7>`) and gets its output; every `secretEvery`-th session's
 * prompt holds the word "secret", for rules to find.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prompt, reply, result, session, toolUse } from './jsonl/claudeCodeSessions';
import { meta, output, record, user } from './codex/helpers';

export interface SessionFiles {
  /** Every session file written. */
  files: string[];
  /** The files whose prompt holds the secret word. */
  secret: string[];
}

const promptText = (n: number, secretEvery: number) => (n % secretEvery === 0 ? `Session ${n}: keep the secret safe.` : `Session ${n}: run the tests.`);

/** `projects` folders of `perProject` sessions (and one subagent session each) under `<home>/.claude/projects`. */
export function writeClaudeProjects(home: string, projects: number, perProject: number, secretEvery: number): SessionFiles {
  const written: SessionFiles = { files: [], secret: [] };
  for (let p = 0; p < projects; p++) {
    const folder = join(home, '.claude', 'projects', `-home-user-project-${String(p).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    for (let s = 0; s < perProject; s++) {
      const n = p * perProject + s;
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const extra = { sessionId: id };
      const path = join(folder, `${id}.jsonl`);
      writeFileSync(path, session(
        prompt('u1', promptText(n, secretEvery), { extra }),
        reply('a1', 'msg_1', toolUse('toolu_01', `tool_${n % 7}`, { command: 'npm test' }), { parent: 'u1', extra }),
        result('r1', 'toolu_01', 'ok', { parent: 'a1', extra }),
      ));
      written.files.push(path);
      if (n % secretEvery === 0) written.secret.push(path);
      if (s === 0) {
        const subagents = join(folder, id, 'subagents');
        mkdirSync(subagents, { recursive: true });
        const sidechain = { sessionId: id, isSidechain: true };
        const agent = join(subagents, `agent-a${String(p).padStart(6, '0')}.jsonl`);
        writeFileSync(agent, session(
          prompt('s1', 'Find the failing test.', { extra: sidechain }),
          reply('s2', 'msg_2', toolUse('toolu_02', 'subagent_grep', { pattern: 'fail' }), { parent: 's1', extra: sidechain }),
          result('s3', 'toolu_02', 'test/a.test.ts', { parent: 's2', extra: sidechain }),
        ));
        written.files.push(agent);
      }
    }
  }
  return written;
}

/** `days` folders of `perDay` rollouts under `<home>/.codex/sessions/2025/MM/DD`, from 2025-08-20 on. */
export function writeCodexSessions(home: string, days: number, perDay: number, secretEvery: number): SessionFiles {
  const written: SessionFiles = { files: [], secret: [] };
  for (let d = 0; d < days; d++) {
    const date = new Date(Date.UTC(2025, 7, 20 + d));
    const [year, month, day] = date.toISOString().slice(0, 10).split('-');
    const folder = join(home, '.codex', 'sessions', year, month, day);
    mkdirSync(folder, { recursive: true });
    for (let r = 0; r < perDay; r++) {
      const n = d * perDay + r;
      const id = `${String(n).padStart(8, '0')}-0199-7000-8000-000000000000`;
      const time = `${year}-${month}-${day}T${String(Math.floor(r / 60) % 24).padStart(2, '0')}-${String(r % 60).padStart(2, '0')}-00`;
      const path = join(folder, `rollout-${time}-${id}.jsonl`);
      writeFileSync(path, [
        meta(id),
        record(1, 'turn_context', { cwd: '/home/testuser/project', approval_policy: 'on-request', model: 'gpt-5-codex' }),
        user(2, promptText(n, secretEvery)),
        record(3, 'response_item', { type: 'function_call', name: `tool_${n % 7}`, arguments: '{"command": "ls"}', call_id: 'call_1' }),
        output(4, 'call_1', 'ok'),
        '',
      ].join('\n'));
      written.files.push(path);
      if (n % secretEvery === 0) written.secret.push(path);
    }
  }
  return written;
}
