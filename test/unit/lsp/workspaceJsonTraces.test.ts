// The workspace's walks for trace files (the tool index, the rule files' lenses) find the `.json` files that hold
// traces by their head, as the command line's folder walks do: Inspect AI logs, OpenTelemetry span files, Anthropic
// Messages and OpenAI Responses conversations; other JSON (package.json, settings, an array of chat messages not
// named as a trace) is left alone. Generated files, each imitating the corpus file named beside it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { inspectLogHead } from '../../../shared/requests';
import { FileHeads } from '../../../server/src/disk/fileHeads';
import { newTraceWalkReport, traceFilesBelow } from '../../../server/src/disk/traceWalk';
import { WorkspaceToolIndex } from '../../../server/src/lsp/workspaceTools';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { evaluateWorkspaceTraces } from '../../../server/src/rulesOnTraces/workspaceTraces';
import { isCheckedInFolder } from '../../../server/src/cli/check';
import { holdsTracesByContent, workspaceTraceWalk } from '../../../server/src/languages';
import type { TraceLayout } from '../../../server/src/traceFormats';
import { conventionsRun, otlpLine } from '../otel/samples';
import { agentLog } from '../inspect/logs';
import { prompt, reply, result, session, toolUse } from '../jsonl/claudeCodeSessions';

/** An Anthropic Messages request body with a tool call and its result (imitates api-cassettes' Anthropic bodies). */
const anthropicRequest = (tool: string) => JSON.stringify({
  model: 'claude-sonnet-4-5', max_tokens: 1024,
  messages: [
    { role: 'user', content: 'What is the weather?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: tool, input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }] },
  ],
}, null, 2);

/** An OpenAI Responses response asking for a function call (imitates api-cassettes' Responses bodies). */
const responsesResponse = JSON.stringify({
  id: 'resp_1', object: 'response', model: 'gpt-4o', status: 'completed',
  output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup_order', arguments: '{"order": 7}' }],
});

/** OTLP/JSON as one document (the collector's file exporter, one batch), of the run otel/samples.ts writes. */
const spansDocument = otlpLine(conventionsRun());

/** JSON that holds no traces, or holds chat messages without being named as a trace file. */
const otherJson: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2),
  'tsconfig.json': '{\n  // comments, as tsconfig allows\n  "compilerOptions": {"strict": true}\n}\n',
  'chat.json': JSON.stringify([{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'rm_rf', arguments: '{}' } }] }]),
  'empty.json': '',
};

describe('.json files that hold traces, by their head', () => {
  it('recognises Inspect logs, span files and Anthropic and Responses conversations, and nothing else', () => {
    for (const [name, text] of [['inspect', agentLog()], ['spans', spansDocument], ['anthropic', anthropicRequest('get_weather')], ['responses', responsesResponse]]) {
      assert.equal(holdsTracesByContent(text.slice(0, inspectLogHead)), true, name);
    }
    for (const [name, text] of Object.entries(otherJson)) assert.equal(holdsTracesByContent(text), false, name);
  });

  describe('in folders', () => {
    let root: string;
    const uri = (...parts: string[]) => pathToFileURL(join(root, ...parts)).toString();

    before(() => {
      root = mkdtempSync(join(tmpdir(), 'agent-traces-json-heads-'));
      mkdirSync(join(root, 'logs'));
      mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
      writeFileSync(join(root, 'logs', '2025-07-05T09-59-40_file-agent_E1.json'), agentLog());
      writeFileSync(join(root, 'logs', 'weather-spans.json'), spansDocument);
      writeFileSync(join(root, 'anthropic-request.json'), anthropicRequest('get_weather'));
      writeFileSync(join(root, 'response.json'), responsesResponse);
      for (const [name, text] of Object.entries(otherJson)) writeFileSync(join(root, name), text);
      writeFileSync(join(root, 'node_modules', 'dep', 'conversation.json'), anthropicRequest('from_a_dependency'));
      writeFileSync(join(root, 'one.trace.json'), JSON.stringify([{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_email', arguments: '{}' } }] }]));
    });

    after(() => rmSync(root, { recursive: true, force: true }));

    it('are walked as the command line walks them, reading each unchanged head once', async () => {
      let reads = 0;
      const heads = new FileHeads((head) => (reads++, holdsTracesByContent(head)), inspectLogHead);
      const walk = async () => {
        const found: string[] = [];
        const report = newTraceWalkReport();
        for await (const path of traceFilesBelow(root, workspaceTraceWalk(100, heads), report, () => undefined)) found.push(path.slice(root.length + 1));
        return { found, report };
      };
      const first = await walk();
      assert.deepEqual(first.found, ['anthropic-request.json', 'logs/2025-07-05T09-59-40_file-agent_E1.json', 'logs/weather-spans.json', 'one.trace.json', 'response.json']);
      assert.deepEqual(first.report, { headsLooked: 8, headsLeftOut: 0 });
      const cli: string[] = [];
      for (const name of [...first.found, ...Object.keys(otherJson)]) if (await isCheckedInFolder(join(root, name))) cli.push(name);
      assert.deepEqual(cli, first.found, 'the command line takes the same files');
      assert.equal(reads, 8);

      assert.deepEqual((await walk()).found, first.found);
      assert.equal(reads, 8, 'unchanged files are not read again');
      writeFileSync(join(root, 'package.json'), anthropicRequest('now_a_conversation'));
      utimesSync(join(root, 'package.json'), new Date(), new Date(Date.now() + 5000));
      try {
        assert.deepEqual((await walk()).found, ['anthropic-request.json', 'logs/2025-07-05T09-59-40_file-agent_E1.json', 'logs/weather-spans.json', 'one.trace.json', 'package.json', 'response.json']);
        assert.equal(reads, 9, 'a changed file is read again');
      } finally {
        writeFileSync(join(root, 'package.json'), otherJson['package.json']);
      }
    });

    it('give the tool index their tools, and the limit on heads is said when it leaves files out', async () => {
      const log: string[] = [];
      const index = new WorkspaceToolIndex((message) => log.push(message));
      await index.rebuild([pathToFileURL(root).toString()]);
      assert.deepEqual(index.tools().map((tool) => [tool.name, tool.files.map((file) => file.uri)]), [
        ['bash', [uri('logs', '2025-07-05T09-59-40_file-agent_E1.json')]],
        ['get_current_time', [uri('logs', 'weather-spans.json')]],
        ['get_weather', [uri('anthropic-request.json')]],
        ['lookup_order', [uri('response.json')]],
        ['read_file', [uri('logs', '2025-07-05T09-59-40_file-agent_E1.json')]],
        ['send_email', [uri('one.trace.json')]],
        ['write_file', [uri('logs', 'weather-spans.json')]],
      ]);
      assert.equal(index.truncated, false);

      const limited: string[] = [];
      const few = new WorkspaceToolIndex((message) => limited.push(message), () => ({
        maxFiles: 100, maxFileBytes: 1e7, maxTotalBytes: 1e8, maxLines: 1000, folders: [], maxJsonHeads: 2,
      }));
      await few.rebuild([pathToFileURL(root).toString()]);
      assert.equal(few.truncated, true);
      assert.ok(limited.includes('Tool index: 6 .json files left out: the beginnings of 2 were read to find conversations and logs (setting agentTraces.workspace.maxJsonFiles).'), limited.join('\n'));
      assert.deepEqual(few.tools().map((tool) => tool.name), ['get_weather', 'send_email'], 'the first two heads in name order: anthropic-request.json and chat.json');
    });

    it('are indexed again when they change on disk, and other JSON costs a look at its head only', async () => {
      let heads = 0;
      const looks = new FileHeads((head) => (heads++, holdsTracesByContent(head)), inspectLogHead);
      const index = new WorkspaceToolIndex(() => undefined, () => ({
        maxFiles: 100, maxFileBytes: 1e7, maxTotalBytes: 1e8, maxLines: 1000, folders: [root], maxJsonHeads: 100,
      }), (maxHeads) => workspaceTraceWalk(maxHeads, looks));
      const names = () => index.tools().map((tool) => tool.name);
      const changed = join(root, 'changing.json');
      const touch = (text: string, seconds: number) => {
        writeFileSync(changed, text);
        utimesSync(changed, new Date(), new Date(Date.now() + seconds * 1000));
      };
      try {
        assert.equal(await index.refreshFile(uri('package.json')), false, 'other JSON: the lenses need not count again');
        assert.equal(await index.refreshFile(uri('tsconfig.json')), false);
        assert.equal(heads, 2);
        assert.deepEqual(names(), []);

        touch(anthropicRequest('get_weather'), 10);
        assert.equal(await index.refreshFile(uri('changing.json')), true, 'a file that became a conversation');
        assert.deepEqual(names(), ['get_weather']);
        touch(otherJson['package.json'], 20);
        assert.equal(await index.refreshFile(uri('changing.json')), true, 'a file that held traces and no longer does');
        assert.deepEqual(names(), []);
        assert.equal(await index.refreshFile(uri('changing.json')), false, 'unchanged since: nothing to count');
        assert.equal(heads, 4, 'the unchanged head is not read again');
        assert.equal(await index.refreshFile(uri('one.trace.json')), true, 'named like a trace: no look at the head');
        assert.deepEqual(names(), ['send_email']);
        assert.equal(heads, 4);
      } finally {
        rmSync(changed, { force: true });
      }
    });

    it('count in the rule files\' lenses, with the limit on heads named', async () => {
      const ruleUri = 'file:///w/weather.gr';
      const text = 'raise "weather asked" if:\n    (call: ToolCall)\n    call is tool:get_weather\n';
      const rule: RuleFile = { uri: ruleUri, model: guardrailService.parse({ uri: ruleUri, version: 1, text }) as RuleModel };
      const evaluate = async (rules: RuleFile[], trace: string, layout: TraceLayout, path: string) => evaluateRulesOnTrace(rules, trace, layout, { workBudget: 1_000_000, path });
      const found = (await evaluateWorkspaceTraces([rule], new Set(), { maxTraces: 100, maxBytes: 1e7, folders: [root] }, evaluate))!;
      assert.deepEqual([...found.entries.keys()], [uri('anthropic-request.json'), uri('logs', '2025-07-05T09-59-40_file-agent_E1.json'), uri('logs', 'weather-spans.json'), uri('one.trace.json'), uri('response.json')]);
      assert.deepEqual([...found.entries].filter(([, entry]) => entry.result.violations.length > 0).map(([file]) => file), [uri('anthropic-request.json')]);
      assert.equal(found.limitNotice, undefined);
      const limited = (await evaluateWorkspaceTraces([rule], new Set(), { maxTraces: 100, maxBytes: 1e7, folders: [root], maxJsonHeads: 1 }, evaluate))!;
      assert.deepEqual([...limited.entries.keys()], [uri('anthropic-request.json'), uri('one.trace.json')]);
      assert.equal(limited.limitNotice, '7 .json files not looked at: the beginnings of the first 1 were read to find conversations and logs (agentTraces.workspace.maxJsonFiles)');
    });
  });
});

/**
 * A folder of sessions as a user opens it (`~/.claude/projects`: a folder per project, a session file per
 * conversation, a few `.json` files beside them; `~/.codex/sessions`: folders by date of rollouts): thousands of
 * files, walked within the limits.
 */
describe('a workspace of thousands of session files', () => {
  let root: string;
  const projects = 40;
  const sessionsPerProject = 60;
  const jsonPerProject = 30;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-traces-sessions-'));
    for (let p = 0; p < projects; p++) {
      const folder = join(root, `-home-user-project-${p}`);
      mkdirSync(folder);
      for (let s = 0; s < sessionsPerProject; s++) {
        const tool = `tool_${(p * sessionsPerProject + s) % 7}`;
        writeFileSync(join(folder, `${p}-${s}.jsonl`), session(
          prompt('u1', 'Run the tests.'),
          reply('a1', 'msg_1', toolUse('toolu_01', tool, { command: 'npm test' }), { parent: 'u1' }),
          result('r1', 'toolu_01', 'ok', { parent: 'a1' }),
        ));
      }
      // Settings and caches beside the sessions, and now and then a saved conversation.
      for (let j = 0; j < jsonPerProject; j++) {
        writeFileSync(join(folder, `meta-${j}.json`), j === 0 ? anthropicRequest(`saved_${p}`) : JSON.stringify({ project: p, entry: j, cwd: `/home/user/project-${p}` }));
      }
    }
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('indexes up to the file limit, looks at most at the limit of heads, and reads each head once across rebuilds', async () => {
    let reads = 0;
    const heads = new FileHeads((head) => (reads++, holdsTracesByContent(head)), inspectLogHead);
    const log: string[] = [];
    const limits = { maxFiles: 2000, maxFileBytes: 1e7, maxTotalBytes: 2e8, maxLines: 1000, folders: [], maxJsonHeads: 500 };
    const index = new WorkspaceToolIndex((message) => log.push(message), () => limits, (maxHeads) => workspaceTraceWalk(maxHeads, heads));
    await index.rebuild([pathToFileURL(root).toString()]);
    assert.equal(index.truncated, true);
    assert.ok(log.includes('Tool index: stopped at 2000 trace files (setting agentTraces.workspace.maxTraceFiles).'), log.join('\n'));
    const files = new Set(index.tools().flatMap((tool) => tool.files.map((file) => file.uri)));
    assert.equal(files.size, 2000);
    // Folders in name order (-0, -1, -10, …): the sessions of 2000 / 60 = 33 folders and the conversations among them.
    assert.ok(index.tools().some((tool) => tool.name === 'saved_0'));
    assert.ok(reads <= limits.maxJsonHeads && reads > 0, `${reads} heads read`);
    const firstReads = reads;
    await index.rebuild([pathToFileURL(root).toString()]);
    assert.equal(reads, firstReads, 'heads of unchanged files are remembered');

    // With room for every session, the heads limit is what stops: the files past it are named in the log.
    const all = new WorkspaceToolIndex((message) => log.push(message), () => ({ ...limits, maxFiles: 10_000 }), (maxHeads) => workspaceTraceWalk(maxHeads, heads));
    await all.rebuild([pathToFileURL(root).toString()]);
    const total = projects * jsonPerProject;
    assert.ok(log.includes(`Tool index: ${total - 500} .json files left out: the beginnings of 500 were read to find conversations and logs (setting agentTraces.workspace.maxJsonFiles).`), log.join('\n'));
    const indexed = new Set(all.tools().flatMap((tool) => tool.files.map((file) => file.uri)));
    // Every session, and the saved conversations among the first 500 heads (the first `.json` of each folder).
    assert.equal(indexed.size, projects * sessionsPerProject + Math.ceil(500 / jsonPerProject));
    assert.ok(reads <= 500, `${reads} heads read`);
  });
});
