import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import { detectJsonLinesFormat, jsonlService, type LinesModel } from '../../../server/src/jsonl';
import { languageForDocument } from '../../../server/src/languages';
import { filesUnder } from '../testing';
import { describe, parse, spanOf } from './helpers';
import { prompt, reply, result, session, snapshot, text as textBlock, toolUse } from './claudeCodeSessions';

const context: ServiceContext = { settings: defaultSettings };
const corpus = path.resolve(__dirname, '../../../..', '../shared/corpus/formats/claude-code');

function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}

const where = (text: string, span: { start: number; end: number }) => JSON.stringify(text.slice(span.start, span.end));
const problemsOf = (text: string) => describe(text, jsonlService.validate(parse(text, 'file:///home/user/.claude/projects/p/s.jsonl'), context));

/** A prompt, a reply split over three lines (text, two parallel calls), both results (one an error) and a last reply. */
const clean = session(
  snapshot('u1'),
  prompt('u1', 'Run the tests'),
  reply('a1', 'msg_1', textBlock('I will run them.'), { parent: 'u1' }),
  reply('a2', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'npm test' }), { parent: 'a1' }),
  reply('a3', 'msg_1', toolUse('toolu_2', 'Read', { file_path: 'src/app.ts' }), { parent: 'a2' }),
  result('r1', 'toolu_1', 'ok', { parent: 'a2' }),
  result('r2', 'toolu_2', 'no such file', { parent: 'a3', error: true }),
  reply('a4', 'msg_2', textBlock('Done'), { parent: 'r2' }),
);

test('a session is recognised by its first record, whatever its name and language id; other JSON Lines files are left alone', () => {
  assert.equal(detectJsonLinesFormat(clean), 'claude-code');
  assert.equal(parse(clean).format, 'claude-code');
  assert.equal(detectJsonLinesFormat(session(prompt('u1', 'hi'))), 'claude-code');
  assert.equal(detectJsonLinesFormat('{"type":"summary","summary":"A title","leafUuid":"x"}\n'), 'claude-code');
  for (const id of ['jsonl', 'json', 'plaintext', 'made-up']) {
    assert.equal(languageForDocument('file:///home/user/.claude/projects/p/4d56.jsonl', id, clean), 'agent-trace-jsonl', id);
    assert.equal(languageForDocument('file:///tmp/session-copy.txt', id, clean), 'agent-trace-jsonl', id);
  }
  assert.equal(languageForDocument('file:///tmp/events.jsonl', 'jsonl', '{"type":"click","at":3}\n{"type":"key"}\n'), undefined);
  assert.equal(languageForDocument('file:///tmp/package.json', 'json', '{"type":"module","name":"x"}'), undefined);
  assert.equal(languageForDocument('file:///tmp/notes.txt', 'plaintext', 'type: user\n'), undefined);
  // A type Claude Code writes, but not its keys: not a session.
  assert.equal(detectJsonLinesFormat('{"type":"user","name":"ann"}\n'), undefined);
});

test('a clean session has no problems; its outline lists the prompt with the calls of the split reply, the failed one marked', () => {
  const model = parse(clean);
  assert.deepEqual(jsonlService.validate(model, context), []);
  const outline = jsonlService.symbols(model);
  assert.equal(outline.length, 1);
  assert.equal(outline[0].name, 'Run the tests');
  assert.match(outline[0].detail ?? '', /^\d\d:\d\d:\d\d · 2 calls, 1 failed$/);
  assert.deepEqual(outline[0].children?.map((child) => [child.name, child.kind, child.detail, where(clean, child.selection)]), [
    ['Bash: npm test', 'call', undefined, JSON.stringify('"Bash"')],
    ['✗ Read: src/app.ts', 'event', 'failed', JSON.stringify('"Read"')],
  ]);
  // The turn runs from its prompt to the end of the last record before the next prompt.
  assert.equal(outline[0].span.start, clean.indexOf('{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/user/project","sessionId":"test-session","version":"2.1.39","gitBranch":"main","type":"user","uuid":"u1"'));
  assert.equal(outline[0].span.end, clean.length - 1);
});

test('go to definition from a tool_use_id to its tool_use, and back; references and highlights link both', () => {
  const model = parse(clean);
  const resultId = spanOf(clean, '"toolu_1"', 1);
  const callId = spanOf(clean, '"toolu_1"', 0);
  const callBlock = spanOf(clean, '{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"npm test"}}');
  assert.deepEqual(jsonlService.definition(model, resultId.start + 2), [{ span: callBlock, selection: callId }]);
  const resultBlock = spanOf(clean, '{"tool_use_id":"toolu_1","type":"tool_result","content":"ok"}');
  assert.deepEqual(jsonlService.definition(model, callId.start + 2), [{ span: resultBlock, selection: resultId }]);
  assert.deepEqual(jsonlService.references(model, callId.start + 2, true), [{ span: callId }, { span: resultId }]);
  assert.deepEqual(jsonlService.highlights(model, resultId.start + 2), [{ span: callId, kind: 'write' }, { span: resultId, kind: 'read' }]);
});

test('a parentUuid leads to its record; its uuid lists the records that follow it', () => {
  const model = parse(clean);
  const parent = spanOf(clean, '"parentUuid":"a2"', 0, [13, 17]);
  const line = model.lines[3];
  assert.deepEqual(jsonlService.definition(model, parent.start + 1), [{ span: { start: line.start, end: line.end }, selection: spanOf(clean, '"uuid":"a2"', 0, [7, 11]) }]);
  // The uuid, and the two records that follow it (the next line of the message, and the result of its call).
  const mentions = jsonlService.references(model, spanOf(clean, '"uuid":"a2"', 0, [7, 11]).start + 1, true);
  assert.deepEqual(mentions.map((target) => model.lineIndex.positionAt(target.span.start).line), [3, 4, 5]);
  assert.ok(mentions.every((target) => clean.slice(target.span.start, target.span.end) === '"a2"'));
});

test('time and tokens: a call\'s duration as an inlay hint when enabled, a split message\'s usage counted once, the totals in the preview\'s header', () => {
  const withUsage = (line: string, input: number, output: number): string => {
    const record = JSON.parse(line) as { message: Record<string, unknown> };
    record.message.usage = { input_tokens: input, output_tokens: output };
    return JSON.stringify(record);
  };
  // Claude Code repeats a message's usage on every line it writes the message over.
  const text = session(
    prompt('u1', 'Run the tests'),
    withUsage(reply('a1', 'msg_1', textBlock('I will run them.'), { parent: 'u1' }), 100, 20),
    withUsage(reply('a2', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'npm test' }), { parent: 'a1' }), 100, 20),
    result('r1', 'toolu_1', 'ok', { parent: 'a2' }),
    withUsage(reply('a3', 'msg_2', textBlock('Done'), { parent: 'r1' }), 150, 5),
  );
  const model = parse(text);
  const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  const graph = jsonlService.graph!(model, { toRange }, context);
  assert.deepEqual(graph.totals, { calls: 1, failedCalls: 0, durationMs: 4000, tokens: 275, inputTokens: 250, outputTokens: 25 });
  assert.deepEqual(graph.nodes.filter((node) => node.tokens !== undefined).map((node) => [node.title, node.tokens]), [['L2 assistant', 120], ['L5 assistant', 155]]);
  const whole = { start: 0, end: text.length };
  const durations = (on: boolean) => jsonlService.inlayHints!(model, whole, { settings: { ...defaultSettings, inlayHints: { ...defaultSettings.inlayHints, durations: on } } })
    .filter((hint) => hint.label.startsWith('⏱')).map((hint) => hint.label);
  assert.deepEqual(durations(true), ['⏱ 1.00 s']);
  assert.deepEqual(durations(false), []);
});

test('hover: the call as name(args) and its result on a tool_use_id; docs on tool names, record types and fields', () => {
  const model = parse(clean);
  const onResult = jsonlService.hover(model, spanOf(clean, '"toolu_1"', 1).start + 2, context)!;
  assert.equal(onResult.markdown, [
    '**Answers** `Bash(command="npm test")` — line 4, id `toolu_1`, 2.00 s before',
    'Output in line 6:\n```text\nok\n```',
  ].join('\n\n'));
  const onError = jsonlService.hover(model, spanOf(clean, '"toolu_2"', 1).start + 2, context)!;
  assert.match(onError.markdown, /Output in line 7 \(the tool reports an error\):\n```text\nno such file\n```/);
  assert.match(jsonlService.hover(model, spanOf(clean, '"Bash"').start + 1, context)!.markdown, /^\*\*Bash\*\* \(tool\)\n\nRuns a shell command[^\n]*\n\n1 call in this session\.$/);
  assert.match(jsonlService.hover(model, spanOf(clean, '"Read"').start + 1, context)!.markdown, /1 call in this session, 1 failed\.$/);
  assert.match(jsonlService.hover(model, spanOf(clean, '"assistant"').start + 1, context)!.markdown, /^\*\*assistant\*\* record\n\nOne content block of the model's reply/);
  assert.match(jsonlService.hover(model, spanOf(clean, '"parentUuid"', 1).start + 1, context)!.markdown, /^\*\*parentUuid\*\* \(Claude Code `assistant` record\)\n\nThe record this one follows/);
  assert.match(jsonlService.hover(model, spanOf(clean, '"parentUuid":"a2"', 0, [13, 17]).start + 1, context)!.markdown,
    /^\*\*parentUuid\*\*: Follows the `assistant` record on line 4 \(2026-02-12 16:00:\d\d UTC\): Bash: npm test$/);
});

test('the faults of a session: a tool_use_id naming no call, a broken chain, unknown record types and fields', () => {
  const text = session(
    prompt('u1', 'Go'),
    result('r1', 'toolu_9', 'stray', { parent: 'u1' }),
    reply('a1', 'msg_1', textBlock('Hm'), { parent: 'nope' }),
    JSON.stringify({ type: 'wormhole', sessionId: 's', uuid: 'w1', parentUuid: 'a1' }),
    prompt('u2', 'Again', { parent: 'w1', extra: { mood: 'calm' } }),
  );
  assert.deepEqual(problemsOf(text), [
    'claude-code/unknown-call-id "\\"toolu_9\\"" tool_use_id "toolu_9" names no tool_use in this session',
    'claude-code/unknown-parent "\\"nope\\"" parentUuid "nope" names no record of this session: the chain of records is broken here (the file was edited or cut), so what came before is unknown',
    'claude-code/unknown-type "\\"wormhole\\"" Record type "wormhole" is not one the known versions of Claude Code write (up to 2.1.144): it may come from a newer one',
    'claude-code/unknown-field "\\"mood\\"" Field "mood" is not one the known versions of Claude Code write in a "user" record (up to 2.1.144): it may come from a newer one',
  ]);
  const noHints = jsonlService.validate(parse(text), { settings: { ...defaultSettings, unknownKeyHints: false } });
  assert.deepEqual(noHints.map((p) => p.code), ['claude-code/unknown-call-id', 'claude-code/unknown-parent']);
});

test('a call never answered: information when the session ends or the run was interrupted, a warning when it went on', () => {
  const call = reply('a1', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'sleep 100' }), { parent: 'u1' });
  const ended = session(prompt('u1', 'Wait'), call);
  const interrupted = session(prompt('u1', 'Wait'), call, prompt('u2', '[Request interrupted by user for tool use]', { parent: 'a1' }));
  const wentOn = session(prompt('u1', 'Wait'), call, prompt('u2', 'And now?', { parent: 'a1' }));
  const unanswered = (text: string) => jsonlService.validate(parse(text), context).map((p) => `${p.severity} ${p.code} ${where(text, p.span)} ${p.message}`);
  assert.deepEqual(unanswered(ended), ['information claude-code/unanswered-call "\\"toolu_1\\"" No tool_result answers this call to "Bash" (id "toolu_1"): the session ends before its tool_result was written (it was still running, or stopped)']);
  assert.deepEqual(unanswered(interrupted), ['information claude-code/unanswered-call "\\"toolu_1\\"" No tool_result answers this call to "Bash" (id "toolu_1"): the run was interrupted (line 3) before it finished']);
  assert.deepEqual(unanswered(wentOn), ['warning claude-code/unanswered-call "\\"toolu_1\\"" No tool_result answers this call to "Bash" (id "toolu_1"): the conversation went on (line 3) without it; the model\'s API refuses a tool_use that no tool_result answers']);
});

test('a cut last line is one warning that waits until it stays cut; a broken line elsewhere is a syntax error', () => {
  const cut = clean.slice(0, clean.length - 20);
  const problems = jsonlService.validate(parse(cut), context);
  assert.deepEqual(problems.map((p) => [p.severity, p.code, p.settleMs, p.span.end === cut.length]), [['warning', 'jsonl/cut-line', 3000, true]]);
  assert.match(problems[0].message, /^The last line stops before its JSON ends: the file is still being written, or was cut mid-write, so its last record is lost \(Unterminated string: expected a closing '"' before the end of the line\)$/);
  const lines = clean.split('\n');
  lines[2] = lines[2].slice(0, 40);
  const broken = lines.join('\n');
  assert.deepEqual(jsonlService.validate(parse(broken), context).map((p) => p.code), ['jsonl/syntax', 'claude-code/unknown-parent']);
});

test('abandoned branches (a rewind) are kept, faded and named so in the outline, and never taken for the live conversation', () => {
  const text = session(
    prompt('u1', 'Plan a trip'),
    reply('a1', 'msg_1', textBlock('Where to?'), { parent: 'u1' }),
    prompt('u2', 'Lisbon', { parent: 'a1' }),
    reply('a2', 'msg_2', toolUse('toolu_1', 'WebSearch', { query: 'Lisbon hotels' }), { parent: 'u2' }),
    prompt('u3', 'Porto instead', { parent: 'a1' }),
    reply('a3', 'msg_3', textBlock('Porto it is'), { parent: 'u3' }),
  );
  const model = parse(text);
  const problems = jsonlService.validate(model, context);
  assert.deepEqual(problems.map((p) => [p.code, p.severity, p.unnecessary, model.lineIndex.positionAt(p.span.start).line]), [
    ['claude-code/abandoned', 'hint', true, 2],
    ['claude-code/abandoned', 'hint', true, 3],
  ]);
  // The abandoned branch's unanswered call is not a fault: the conversation left it.
  assert.ok(!problems.some((p) => p.code === 'claude-code/unanswered-call'));
  assert.deepEqual(jsonlService.symbols(model).map((item) => [item.name, item.detail?.replace(/\d\d:\d\d:\d\d/, 'T')]), [
    ['Plan a trip', 'T'],
    ['(abandoned) Lisbon', 'abandoned branch · T · 1 call'],
    ['Porto instead', 'T'],
  ]);
});

test('a Task call leads to its subagent\'s own file when it is there; its echoed calls are nested under it in the outline', () => {
  const progress = (uuid: string, parent: string, block: Record<string, unknown>) => JSON.stringify({
    parentUuid: parent, isSidechain: false, sessionId: 'test-session', type: 'progress', uuid, timestamp: '2026-02-12T16:10:00.000Z',
    data: { message: { type: 'assistant', message: { id: 'msg_sub', role: 'assistant', content: [block] }, uuid: `${uuid}-echo` }, type: 'agent_progress', agentId: 'a77' },
    toolUseID: `agent_${uuid}`, parentToolUseID: 'toolu_task',
  });
  const text = session(
    prompt('u1', 'Explore the code'),
    reply('a1', 'msg_1', toolUse('toolu_task', 'Task', { description: 'Find the parser', prompt: 'Look', subagent_type: 'Explore' }), { parent: 'u1' }),
    progress('p1', 'a1', toolUse('toolu_s1', 'Grep', { pattern: 'parse' })),
    progress('p2', 'p1', toolUse('toolu_s2', 'Read', { file_path: 'src/parser.ts' })),
    JSON.stringify({ ...JSON.parse(result('r1', 'toolu_task', [{ type: 'text', text: 'It is in src/parser.ts' }], { parent: 'a1' })), toolUseResult: { status: 'completed', agentId: 'a77' } }),
  );
  const uri = 'file:///home/user/.claude/projects/p/4d56.jsonl';
  const model = parse(text, uri);
  assert.deepEqual(jsonlService.validate(model, context), []);
  const subagent = 'file:///home/user/.claude/projects/p/4d56/subagents/agent-a77.jsonl';
  const onName = spanOf(text, '"Task"').start + 2;
  const there = jsonlService.definition(model, onName, { ...context, files: { exists: (file) => file === subagent } });
  assert.deepEqual(there.map((target) => [target.uri, target.span]), [[subagent, { start: 0, end: 0 }]]);
  assert.deepEqual(jsonlService.definition(model, onName, { ...context, files: { exists: () => false } }), []);
  assert.deepEqual(jsonlService.definition(model, spanOf(text, '"a77"').start + 1, { ...context, files: { exists: () => true } }).map((target) => target.uri), [subagent]);
  // A progress record's parentToolUseID leads to the Task call.
  assert.deepEqual(jsonlService.definition(model, spanOf(text, '"parentToolUseID":"toolu_task"', 0, [18, 30]).start + 2).map((target) => text.slice(target.selection!.start, target.selection!.end)), ['"toolu_task"']);
  const [turn] = jsonlService.symbols(model);
  assert.deepEqual(turn.children?.map((child) => [child.name, child.detail, child.children?.map((c) => c.name)]), [
    ['Task: Find the parser', 'subagent a77: 2 calls', ['Grep: parse', 'Read: src/parser.ts']],
  ]);
  // The echoed calls are the subagent's own, not the conversation's.
  assert.deepEqual([...jsonlService.calledTools!(model)], [['Task', 1]]);
});

test('ids are the API\'s: rename refuses and says why; inlay hints and lenses show who answers whom', () => {
  const model = parse(clean);
  const callId = spanOf(clean, '"toolu_1"', 0);
  assert.equal(jsonlService.prepareRename!(model, callId.start + 2), null);
  assert.match(jsonlService.renameRefusal!(model, callId.start + 2) ?? '', /^The ids of a Claude Code session are written by the model's API/);
  const hints = jsonlService.inlayHints!(model, { start: 0, end: clean.length }, context);
  assert.deepEqual(hints.map((hint) => `${clean.slice(hint.offset - 9, hint.offset)} ${hint.label}`), [
    '"toolu_1" → L6',
    '"toolu_2" → L7',
    '"toolu_1" ← Bash L4',
    '"toolu_2" ← Read L5',
  ]);
  const lenses = jsonlService.codeLenses!(model, context);
  assert.deepEqual(lenses.map((lens) => [model.lineIndex.positionAt(lens.span.start).line, lens.title]), [[3, '1 output · open in preview'], [4, '1 output · open in preview']]);
});

test('live: appended lines are read alone, the other records keep their reading, and the answers equal a full read', () => {
  const before = session(prompt('u1', 'Build it'), reply('a1', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'make' }), { parent: 'u1' }));
  const model = parse(before);
  const appended = `${before}${result('r1', 'toolu_1', 'built', { parent: 'a1' })}\n${reply('a2', 'msg_2', textBlock('Built.'), { parent: 'r1' })}\n`;
  // The editor's change, and a reload from disk (the whole text replaced): both read only the new lines.
  for (const edit of [{ start: before.length, oldEnd: before.length, newEnd: appended.length }, { start: 0, oldEnd: before.length, newEnd: appended.length }]) {
    const after = jsonlService.reparse!(model, { uri: model.uri, version: 2, text: appended }, edit)!;
    assert.equal(after.lines[0].facts, model.lines[0].facts);
    assert.equal(after.lines[1].facts, model.lines[1].facts);
    const full = parse(appended);
    assert.deepEqual(jsonlService.validate(after, context), jsonlService.validate(full, context));
    assert.deepEqual(jsonlService.symbols(after), jsonlService.symbols(full));
    assert.deepEqual(jsonlService.validate(after, context), []);
  }
  // While the last record is still being written, its line is cut: a warning that waits (settleMs).
  const writing = `${before}${result('r1', 'toolu_1', 'built', { parent: 'a1' }).slice(0, 50)}`;
  const partial = jsonlService.reparse!(model, { uri: model.uri, version: 3, text: writing }, { start: before.length, oldEnd: before.length, newEnd: writing.length })!;
  assert.deepEqual(jsonlService.validate(partial, context).map((p) => [p.code, p.settleMs]), [['claude-code/unanswered-call', undefined], ['jsonl/cut-line', 3000]]);
});

/**
 * The real sessions of the corpus and their faults. None has a fault worth a warning or an error: every call is
 * answered (short.jsonl and claude_with_rejection.jsonl hold failed calls, results with is_error, which are not
 * faults of the file), no chain is broken (the subagent files' first records continue their parent session's chain,
 * in the other file; 4d5611e5's compaction boundary names a record before the compaction that was not kept), no line
 * is cut, and every record type and field is one Claude Code 2.1.144 knows.
 */
const corpusFaults: Record<string, string[]> = {
  '4d5611e5-241a-462a-8d15-5122611a9569.jsonl': [],
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl': [],
  '4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl': [],
  '4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl': [],
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl': [],
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl': [],
  'claude_golden.jsonl': [],
  'claude_with_rejection.jsonl': [],
  'sample_session.jsonl': [],
  'short.jsonl': [],
  'subagent.jsonl': [],
  'tool_heavy.jsonl': [],
};

function readCorpus(name: string): { text: string; model: LinesModel } {
  const file = path.join(corpus, name);
  const text = readFileSync(file, 'utf8');
  return { text, model: parse(text, `file://${file}`) };
}

test('the corpus sessions: recognised, every record read, and exactly the faults each has', (t) => {
  if (!corpusOrSkip(t)) return;
  const files = filesUnder(corpus, '.jsonl').map((file) => path.relative(corpus, file)).sort();
  assert.deepEqual(files, Object.keys(corpusFaults).sort());
  for (const name of files) {
    const { text, model } = readCorpus(name);
    assert.equal(model.format, 'claude-code', name);
    assert.ok(model.contentLines.every((line) => line.kind === 'record'), name);
    assert.deepEqual(jsonlService.validate(model, context).map((p) => `${p.code} ${where(text, p.span)}`), corpusFaults[name], name);
  }
});

test('the corpus sessions: every tool_result leads to its tool_use, and the outline lists the prompts', (t) => {
  if (!corpusOrSkip(t)) return;
  for (const name of Object.keys(corpusFaults)) {
    const { text, model } = readCorpus(name);
    const records = text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, any>);
    const calls = new Map<string, string>();
    let results = 0;
    for (const record of records) {
      const content = record.type === 'user' || record.type === 'assistant' ? record.message?.content : undefined;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (block.type === 'tool_use') calls.set(block.id, block.name);
        if (block.type !== 'tool_result') continue;
        results++;
        const at = text.indexOf(`"tool_use_id":"${block.tool_use_id}"`) + '"tool_use_id":"'.length;
        const [target] = jsonlService.definition(model, at, context);
        assert.equal(text.slice(target.selection!.start, target.selection!.end), JSON.stringify(block.tool_use_id), name);
        assert.equal(text.slice(target.span.start, target.span.start + 20), '{"type":"tool_use","', name);
      }
    }
    assert.equal(results, calls.size, name);
    // One entry per prompt typed by the user (and per compaction): user records with text that are not Claude
    // Code's own (meta, interruptions, tool results).
    const prompts = records.filter((record) => record.type === 'user' && !record.isMeta && (typeof record.message.content === 'string'
      ? !record.message.content.startsWith('[Request interrupted')
      : record.message.content.some((block: any) => (block.type === 'text' && !block.text.startsWith('[Request interrupted')) || block.type === 'image')));
    const compactions = records.filter((record) => record.subtype === 'compact_boundary');
    assert.equal(jsonlService.symbols(model).length, prompts.length + compactions.length, name);
  }
});

test('the corpus session with a Task call: its subagent\'s 33 calls are nested under it, and it leads to the subagent\'s file', (t) => {
  if (!corpusOrSkip(t)) return;
  const name = '4d5611e5-241a-462a-8d15-5122611a9569.jsonl';
  const { text, model } = readCorpus(name);
  const outline = jsonlService.symbols(model);
  const task = outline.flatMap((item) => item.children ?? []).find((child) => child.name.startsWith('Task: '))!;
  assert.equal(task.name, 'Task: Explore transcript rendering codebase');
  assert.equal(task.detail, 'subagent a2898e3: 33 calls');
  assert.equal(task.children?.length, 33);
  const subagent = path.join(corpus, '4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl');
  const files = { exists: (uri: string) => existsSync(new URL(uri)) };
  const [target] = jsonlService.definition(model, text.indexOf('"name":"Task"') + 9, { ...context, files });
  assert.equal(target.uri, `file://${subagent}`);
  // The compaction boundary is an entry of the outline, not a broken link.
  assert.ok(outline.some((item) => item.name === 'Conversation compacted' && item.detail === 'auto, 170,251 tokens before'));
});
