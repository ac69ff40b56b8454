// The folder that holds a user's sessions opened as the workspace (`~/.codex/sessions`, by date; `~/.claude/projects`,
// by project): thousands of files, of which the rule files' lenses and the tool index read only as many as their
// limits allow, in the folder's name order, and say so where the user looks (the lens, the hover).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { defaultSettings } from '../../../server/src/common/languageService';
import { bytesPerMB } from '../../../server/src/disk/files';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { describeTool } from '../../../server/src/guardrail/hover';
import { workspaceTraceWalk } from '../../../server/src/languages';
import { WorkspaceToolIndex } from '../../../server/src/lsp/workspaceTools';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { TraceResults } from '../../../server/src/rulesOnTraces/results';
import { evaluateWorkspaceTraces, type WorkspaceTraceLimits } from '../../../server/src/rulesOnTraces/workspaceTraces';
import { defaultServerSettings } from '../../../server/src/settings';
import type { TraceLayout } from '../../../server/src/traceFormats';
import { writeClaudeProjects, writeCodexSessions, type SessionFiles } from '../sessionFolders';

const ruleUri = 'file:///w/secret.gr';
const rule: RuleFile = {
  uri: ruleUri,
  model: guardrailService.parse({ uri: ruleUri, version: 1, text: 'raise "secret word" if:\n    (msg: Message)\n    "secret" in msg.content\n' }) as RuleModel,
};
/** In this thread, as the server's evaluation worker would. */
const evaluate = async (rules: RuleFile[], text: string, layout: TraceLayout, path: string) => evaluateRulesOnTrace(rules, text, layout, { workBudget: 1_000_000, path });
const uri = (path: string) => pathToFileURL(path).toString();

/** The server's walk for trace files, counting the files it is handed (each costs at most a stat and a read). */
function countingWalk(maxHeads: number) {
  const walk = workspaceTraceWalk(maxHeads);
  const handed = new Set<string>();
  return { handed, walk: { ...walk, byName: (path: string) => (handed.add(path), walk.byName(path)) } };
}

/** The lens limits the server gives the count with the default settings (lsp/ruleChecks.ts). */
const defaultLensLimits = (folder: string): WorkspaceTraceLimits => ({
  maxTraces: defaultServerSettings.guardrails.maxLensTraces,
  maxBytes: defaultServerSettings.indexMaxFileSizeMB * bytesPerMB,
  folders: [folder],
  maxJsonHeads: defaultServerSettings.workspaceMaxJsonFiles,
});

const limitNotice = 'more than 200 trace files in the workspace: the first 200 counted (agentTraces.guardrails.maxLensTraces)';

function lensTitle(results: TraceResults): string {
  return guardrailService.codeLenses!(rule.model, { settings: defaultSettings, guardrailResults: results })[0].title;
}

/** Where the rule marks the secret word of a session's prompt: the prompt's line, at the word. */
function secretAt(path: string, line: number) {
  return { line, character: readFileSync(path, 'utf8').split('\n')[line].indexOf('secret safe') };
}

describe('a session folder opened as the workspace', () => {
  let home: string;
  let codex: SessionFiles;
  let claude: SessionFiles;

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'agent-traces-session-folders-'));
    codex = writeCodexSessions(home, 60, 50, 40); // 3,000 rollouts, 2025-08-20 to 2025-10-18
    claude = writeClaudeProjects(home, 30, 50, 40); // 1,500 sessions and 30 subagents' sessions
  });

  after(() => rmSync(home, { recursive: true, force: true }));

  it('~/.codex/sessions: the lenses count the first 200 rollouts by date and stop, saying so on the lens', async () => {
    const { handed, walk } = countingWalk(defaultServerSettings.workspaceMaxJsonFiles);
    const found = (await evaluateWorkspaceTraces([rule], new Set(), { ...defaultLensLimits(join(home, '.codex', 'sessions')), walk }, evaluate))!;
    assert.equal(codex.files.length, 3000);
    assert.deepEqual([...found.entries.keys()], codex.files.slice(0, 200).map(uri), 'the first four days, in name order');
    assert.equal(handed.size, 201, 'the walk stops at the first file past the limit');
    assert.deepEqual(found.problems, []);
    assert.equal(found.limitNotice, limitNotice);

    const withViolations = [...found.entries].filter(([, entry]) => entry.result.violations.length > 0).map(([file]) => file);
    assert.deepEqual(withViolations, codex.secret.slice(0, 5).map(uri), 'rollouts 0, 40, 80, 120 and 160');
    const first = found.entries.get(uri(codex.secret[0]))!;
    assert.deepEqual(first.result.violations.map((v) => first.positions.positionAt(v.span.start)), [secretAt(codex.secret[0], 2)]);

    const results = new TraceResults();
    results.setWorkspace(found.entries, found.limitNotice);
    assert.equal(lensTitle(results), `5 violations in 5 traces (of 200 trace files in the workspace) · ${limitNotice}`);
  });

  it('~/.claude/projects: the lenses count the first 200 sessions, subagents\' sessions among them, and stop, saying so', async () => {
    const projects = join(home, '.claude', 'projects');
    const { handed, walk } = countingWalk(defaultServerSettings.workspaceMaxJsonFiles);
    const found = (await evaluateWorkspaceTraces([rule], new Set(), { ...defaultLensLimits(projects), walk }, evaluate))!;
    assert.equal(claude.files.length, 1530);
    const entries = [...found.entries.keys()];
    assert.equal(entries.length, 200);
    const firstFour = claude.files.filter((path) => /project-00[0-3]\//.test(path)).map(uri);
    assert.ok(entries.every((file) => firstFour.includes(file)), 'the first four projects in name order, no other');
    assert.equal(entries.filter((file) => file.includes('/subagents/')).length, 4);
    assert.equal(handed.size, 201);
    assert.equal(found.limitNotice, limitNotice);

    const withViolations = [...found.entries].filter(([, entry]) => entry.result.violations.length > 0).map(([file]) => file);
    assert.deepEqual(withViolations, claude.secret.slice(0, 5).map(uri), 'sessions 0, 40, 80, 120 and 160');
    const last = found.entries.get(uri(claude.secret[4]))!;
    assert.deepEqual(last.result.violations.map((v) => last.positions.positionAt(v.span.start)), [secretAt(claude.secret[4], 0)]);
  });

  it('~/.codex/sessions: the tool index reads 2,000 rollouts, stops, and its hover says other files may call the tool too', async () => {
    const log: string[] = [];
    const { handed, walk } = countingWalk(defaultServerSettings.workspaceMaxJsonFiles);
    const folder = join(home, '.codex', 'sessions');
    const index = new WorkspaceToolIndex((message) => log.push(message), () => ({
      maxFiles: defaultServerSettings.maxTraceFiles,
      maxFileBytes: defaultServerSettings.indexMaxFileSizeMB * bytesPerMB,
      maxTotalBytes: defaultServerSettings.indexMaxTotalSizeMB * bytesPerMB,
      maxLines: defaultServerSettings.jsonlMaxLines,
      folders: [folder],
      maxJsonHeads: defaultServerSettings.workspaceMaxJsonFiles,
    }), () => walk);
    await index.rebuild([uri(folder)]);
    assert.deepEqual(log, ['Tool index: stopped at 2000 trace files (setting agentTraces.workspace.maxTraceFiles).']);
    assert.equal(handed.size, 2001);
    const indexed = new Set(index.tools().flatMap((tool) => tool.files.map((file) => file.uri)));
    assert.deepEqual([...indexed].sort(), codex.files.slice(0, 2000).map(uri).sort());
    // Rollouts 0, 7, …, 1995 call tool_0.
    assert.match(describeTool('tool_0', index), /Called 286 times in 286 trace files of the workspace:[^]*\n\nThe workspace index stopped at its file limit, so other trace files may call it too\.$/);
  });
});
