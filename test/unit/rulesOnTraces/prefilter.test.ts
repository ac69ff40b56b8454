import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { buildInput, inputProblem } from '../../../server/src/guardrail/evaluate/input';
import { cannotHold, requiredLiterals } from '../../../server/src/guardrail/evaluate/requiredText';
import { PyError } from '../../../server/src/guardrail/evaluate/values';
import { buildGlobals } from '../../../server/src/guardrail/evaluate/evaluator';
import { traceReports, type TraceReport } from '../../../server/src/rulesOnTraces/traceReports';
import type { RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { settleDatasetLines } from '../../../server/src/rulesOnTraces/datasetBytes';
import { corpus, corpusOrSkip } from '../corpus';

/**
 * The literal prefilter of `agent-traces eval`: a rule that needs a literal the trace's JSON text lacks is not run
 * there, and every report stays what the full evaluation gives (violations, failures, notices, lines not JSON).
 */

function rules(source: string): RuleFile {
  const uri = 'file:///w/rules.gr';
  return { uri, model: guardrailService.parse({ uri, version: 1, text: source }) as RuleModel };
}

function reports(file: RuleFile, text: string, prefilter: boolean, parameters: Record<string, unknown> = {}): TraceReport[] {
  return traceReports(file, text, 'dataset', '/w/data.jsonl', { rulesPath: 'rules.gr', shownPath: 'data.jsonl', parameters, ranges: true, prefilter, budget: 20_000 });
}

/**
 * The reports as `agent-traces eval` gives them for a streamed chunk of these bytes: the lines that no rule can hold
 * on settled from the bytes, the others evaluated in full. `settled` says how many lines were settled.
 */
function chunkReports(file: RuleFile, bytes: Buffer, parameters: Record<string, unknown> = {}): { reports: TraceReport[]; settled: number } {
  const chunk = settleDatasetLines(bytes, file.model, parameters);
  const text = chunk?.text ?? bytes.toString('utf8');
  const found = traceReports(file, text, 'dataset', '/w/data.jsonl', { rulesPath: 'rules.gr', shownPath: 'data.jsonl', parameters, ranges: true, prefilter: true, budget: 20_000, clean: chunk?.clean });
  const before = bytes.toString('utf8').split('\n');
  return { reports: found, settled: text.split('\n').filter((l, i) => l !== before[i]).length };
}

/** The chunk's reports are the text's, exactly as the prefilter on the decoded text gives them. */
function sameAsText(file: RuleFile, text: string, parameters: Record<string, unknown> = {}, what = ''): number {
  const { reports: fromBytes, settled } = chunkReports(file, Buffer.from(text, 'utf8'), parameters);
  assert.deepEqual(fromBytes, reports(file, text, true, parameters), what);
  return settled;
}

/** The literals the file's rules need, one list per rule (empty: the rule always runs). */
function literalsOf(source: string): string[][] {
  const file = rules(source);
  const globals = buildGlobals(file.model.program.statements, {});
  return file.model.program.statements.flatMap((s) => (s.kind === 'rule' ? [requiredLiterals(s, () => globals, file.model.text)] : []));
}

/** A budget notice is what a skipped rule cannot give: the trace it was skipped on is known to be clean. */
function sameReports(withFilter: TraceReport[], without: TraceReport[], what: string): void {
  assert.equal(withFilter.length, without.length, `${what}: as many reports`);
  without.forEach((full, i) => {
    const filtered = withFilter[i];
    if (JSON.stringify(filtered) === JSON.stringify(full)) return;
    const stoppedShort = full.incomplete && full.notices.some((n) => n.endsWith('(--budget)') || n.endsWith('(--timeout)'));
    assert.ok(stoppedShort, `${what}, line ${full.line}: ${JSON.stringify(filtered)} differs from ${JSON.stringify(full)}`);
    assert.deepEqual(filtered.errors, [], `${what}, line ${full.line}: a rule stopped short on a skipped trace found nothing`);
  });
}

const flow = `raise "a tool output that deletes files flows into a later call" if:
    (out: ToolOutput) -> (call: ToolCall)
    "rm -rf" in out.content
    call.function.name == "read_file"
`;

const line = (events: unknown[]) => JSON.stringify(events);
const call = (name: string, id = 'c1') => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] });
const output = (content: unknown, id = 'c1') => ({ role: 'tool', tool_call_id: id, content });

describe('required literals of a rule', () => {
  it('takes the literals of a conjunction of safe conditions, in any order, and gives up on anything else', () => {
    assert.deepEqual(literalsOf(flow), [['rm -rf', 'read_file']]);
    assert.deepEqual(literalsOf('raise "x" if:\n    (m: Message)\n    "secret" == m.role and "key" in m.content\n'), [['secret', 'key']]);
    for (const body of [
      '(out: ToolOutput)\n    "rm -rf" in out.content or "x" in out.content', // a disjunction
      '(out: ToolOutput)\n    not "rm -rf" in out.content',
      '(out: ToolOutput)\n    "rm -rf" in out.content.lower()', // a call: may raise, and changes the text
      '(out: ToolOutput)\n    "rm -rf /" in out.content', // a slash, which JSON may write as \\/
      '(out: ToolOutput)\n    "say \\"hi\\"" in out.content', // a quote, which JSON escapes
      '(out: ToolOutput)\n    "" in out.content',
      '(out: ToolOutput)\n    f"rm" in out.content',
      '(out: ToolOutput)\n    "rm" in out.metadata', // not an attribute every output has
      '(call: ToolCall)\n    call.function.arguments.path == "x"', // KeyError when absent
      '(out: ToolOutput)\n    "rm" in out.content\n    len(out.content) > 3', // a condition that may raise
      '(out: ToolOutput)\n    "rm" in out.content\n    out is tool:read_file',
      '(out: Tool)\n    "rm" in out.name',
    ]) {
      assert.deepEqual(literalsOf(`raise "x" if:\n    ${body}\n`), [[]], body);
    }
    // A variable that a constant of the file shadows is not a trace element.
    assert.deepEqual(literalsOf(`out := 3\nraise "x" if:\n    (out: ToolOutput)\n    "rm" in out.content\n`), [[]]);
  });

  it('looks the literal up as the JSON text writes it: case-sensitive, and not in a text with \\u escapes or images', () => {
    assert.equal(cannotHold(['rm -rf'], '[{"content": "RM -RF"}]'), true);
    assert.equal(cannotHold(['rm -rf'], '[{"content": "rm -rf"}]'), false);
    assert.equal(cannotHold(['rm -rf'], '[{"content": "rm \\u002drf"}]'), false);
    assert.equal(cannotHold(['café'], '[{"content": "un café"}]'), false);
    assert.equal(cannotHold(['café'], '[{"content": "un cafe"}]'), true);
    assert.equal(cannotHold(['x'], '[{"content": [{"type": "image", "image_url": {"url": "y"}}]}]'), false);
    assert.equal(cannotHold([], '[]'), false);
  });
});

describe('the prefilter keeps every report', () => {
  it('finds violations spelled with escapes, in any case and script, and skips only what cannot hold', () => {
    const file = rules(flow);
    const lines = [
      '{"metadata": {"name": "a dataset"}}',
      line([call('read_file'), output('ok'), call('read_file', 'c2')]),
      line([output('rm -rf /'), call('read_file')]),
      line([output('RM -RF /'), call('read_file')]),
      line([call('read_file'), output('x')]).replace('"x"', '"rm \\u002drf"') + ' ',
      line([output('rm -rf'), call('read_file')]).replace('read_file"', 'read\\u005ffile"'),
      'not json {',
      line([output('rm -rf /'), call('write_file')]),
      line([output([{ type: 'text', text: 'ls' }, { type: 'image', image_url: { url: 'data:' } }]), call('read_file')]),
      line([{ role: 'tool', content: 3 }]),
      line([{ content: 'no role' }]),
      line([output('rm -rf'), { type: 'function', function: { name: 'read_file', arguments: '{' } }]),
      line([{ type: 'function', function: { name: 'read_file', arguments: '{' } }]),
      line([output('café'), 3, call('read_file')]),
      '[' + '['.repeat(600) + ']'.repeat(600) + ']',
    ];
    const text = lines.join('\n');
    const filtered = reports(file, text, true);
    sameReports(filtered, reports(file, text, false), 'targeted lines');
    assert.ok(sameAsText(file, text) > 0, 'read from the bytes, some lines are settled there');
    assert.deepEqual(filtered.map((r) => [r.line, r.errors.length, r.error?.slice(0, 30) ?? null]), [
      [2, 0, null],
      [3, 1, null],
      [4, 0, null],
      [5, 0, null],
      [6, 1, null],
      [7, 0, 'not valid JSON: Unexpected tok'],
      [8, 0, null],
      [9, 0, null],
      [10, 0, 'The trace cannot be read as th'],
      [11, 0, 'The trace cannot be read as th'],
      [12, 0, 'The trace cannot be read as th'],
      [13, 0, 'The trace cannot be read as th'],
      [14, 0, 'The trace cannot be read as th'],
      [15, 0, 'The trace nests values more th'],
    ]);
  });

  it('settles from the bytes only lines that no rule can hold on, whatever their characters, escapes and line ends', () => {
    const file = rules(flow);
    const clean = line([output('ls'), call('read_file')]);
    const lines = [
      '{"metadata": {"name": "a dataset"}}',
      clean,
      `\uFEFF${clean}`, // a byte order mark: not JSON, as the decoded text says
      `${clean}\r`, // a line ended by CRLF
      '',
      '   ',
      '\r',
      line([output('rm -rf, café — ✓ 😀'), call('read_file')]),
      line([output('café — ✓ 😀'), call('read_file')]),
      line([output('rm -rf'), call('read_file')]).replace('rm -rf', 'rm \\u002drf'), // an escaped backslash, then u
      line([output('rm \ud800'), call('read_file')]), // a lone surrogate, written as JSON writes it
      `{"messages": [], "k\u00e9": [${'['.repeat(600)}${']'.repeat(600)}], "ké": 1}`, // duplicate keys: the last one wins
      `{"messages": ${line([output('x'), call('read_file')])}, "messages": 3}`,
      `{"messages": 3, "messages": ${line([output('x'), call('read_file')])}}`,
      `[${'['.repeat(600)}${']'.repeat(600)}]`,
      line([{ role: 'tool', content: 3 }]),
      line([{ type: 'function', function: { name: 'read_file', arguments: '{"a": "é' } }]),
      line([{ type: 'function', function: { name: 'read_file', arguments: '{"a": "é"}' } }]),
      line([output([{ type: 'image', image_url: { url: 'data:' } }]), call('read_file')]),
      '[1, 2',
      'null',
      '{"messages": [{"role": "tool", "content": "rm -rf"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "read_file", "arguments": {}}}]}]}',
    ];
    for (const ending of ['\n', '\r\n']) {
      const text = lines.join(ending);
      sameReports(reports(file, text, true), reports(file, text, false), 'every kind of line');
      assert.ok(sameAsText(file, text) >= 8, 'the clean lines are settled from the bytes');
      assert.ok(sameAsText(file, `${text}${ending}`) >= 8, 'a chunk that ends with a line break');
    }
    // A non-ASCII literal is looked for as its UTF-8 bytes.
    const accented = rules('raise "x" if:\n    (out: ToolOutput)\n    "café —" in out.content\n');
    sameAsText(accented, [line([output('un café — noir')]), line([output('un cafe')]), line([output('café')])].join('\n'));
    assert.deepEqual(chunkReports(accented, Buffer.from(line([output('un café — noir')]))).reports.map((r) => r.errors.length), [1]);
  });

  it('reads a chunk that is not valid UTF-8 in full, as before', () => {
    const file = rules(flow);
    const bytes = Buffer.concat([Buffer.from(`${line([output('ls'), call('read_file')])}\n{"messages": [], "a\xff`, 'latin1'), Buffer.from([0xff]), Buffer.from('": 1}\n')]);
    assert.equal(settleDatasetLines(bytes, file.model, {}), undefined);
    const { reports: found } = chunkReports(file, bytes);
    assert.deepEqual(found, reports(file, bytes.toString('utf8'), true));
  });

  it('a scan that settled a line that can violate would be caught: every violation of the flow rule is found from the bytes', () => {
    const file = rules(flow);
    const lines = Array.from({ length: 200 }, (_, i) => line(i % 9 === 0 ? [output(`step ${i}: rm -rf /`), call('read_file')] : [output(`step ${i}`), call('read_file')]));
    const text = lines.join('\n');
    const { reports: found, settled } = chunkReports(file, Buffer.from(text));
    assert.equal(settled, 200 - 23);
    assert.deepEqual(found.flatMap((r) => (r.errors.length > 0 ? [r.line] : [])), lines.flatMap((_, i) => (i % 9 === 0 ? [i + 1] : [])));
    assert.deepEqual(found, reports(file, text, false));
  });

  it('runs a rule without a literal beside one that has it', () => {
    const file = rules(`${flow}\nraise "every output" if:\n    (out: ToolOutput)\n    out.content != "never"\n`);
    const text = [line([output('ls'), call('read_file')]), line([output('rm -rf'), call('read_file')])].join('\n');
    const filtered = reports(file, text, true);
    sameReports(filtered, reports(file, text, false), 'two rules');
    assert.deepEqual(filtered.map((r) => r.errors.map((e) => e.message)), [['every output'], ['a tool output that deletes files flows into a later call', 'every output']]);
  });

  it('reads a trace as the analyzer would, without building it: the same first problem as the full read', (t) => {
    if (!corpusOrSkip(t)) return;
    const traces = [...new Map(corpusTraces().map((c) => [JSON.stringify(c.trace), c.trace])).values()];
    const mutations = (trace: unknown[]): unknown[] => {
      const out: unknown[] = [trace, {}, [[]], [null], [3, {}], ['x', { role: 1 }]];
      trace.forEach((event, i) => {
        const at = (value: unknown) => trace.map((e, j) => (j === i ? value : e));
        out.push(at(3), at([]), at({}), at({ ...(event as object), metadata: 3 }), at({ ...(event as object), metadata: { server: 3 } }), at({ ...(event as object), server: 3 }));
        const e = event as Record<string, unknown>;
        for (const key of Object.keys(e)) {
          out.push(at({ ...e, [key]: 7 }), at({ ...e, [key]: null }), at({ ...e, [key]: [7] }), at(Object.fromEntries(Object.entries(e).filter(([k]) => k !== key))));
        }
        const calls = e.tool_calls;
        if (Array.isArray(calls) && calls.length > 0) {
          const first = calls[0] as Record<string, unknown>;
          const fn = first.function as Record<string, unknown>;
          for (const changed of [{ ...first, function: { ...fn, arguments: '{' } }, { ...first, function: { ...fn, arguments: '[1]' } }, { ...first, function: { ...fn, name: 3 } }, { ...first, id: 4 }, { ...first, type: null }, { ...first, server: 2 }, 5]) {
            out.push(at({ ...e, tool_calls: [changed, ...calls.slice(1)] }));
          }
        }
        if (typeof e.content === 'string') {
          for (const content of [[{ type: 'text', text: 'a' }], [{ type: 'text', text: 3 }], [{ type: 'image', image_url: { url: 3 } }], [{ type: 'text', text: 'a', metadata: 1 }], ['a'], { a: 1 }]) out.push(at({ ...e, content }));
        }
      });
      return out;
    };
    const thrown = (trace: unknown): string | null => {
      try {
        buildInput(trace);
        return null;
      } catch (e) {
        assert.ok(e instanceof PyError, String(e));
        return `${e.pyType}: ${e.detail}`;
      }
    };
    let checked = 0;
    let problems = 0;
    for (const trace of traces) {
      for (const variant of mutations(trace)) {
        const expected = thrown(variant);
        const problem = inputProblem(variant);
        assert.equal(problem && `${problem.pyType}: ${problem.detail}`, expected, JSON.stringify(variant).slice(0, 300));
        checked++;
        if (expected) problems++;
      }
    }
    assert.ok(checked > 10_000 && problems > 5_000, `${checked} traces checked, ${problems} with a problem`);
  });

  it('gives the same reports as the full evaluation for every policy of the evaluation corpus', (t) => {
    if (!corpusOrSkip(t)) return;
    const cases = corpusTraces();
    // Every policy on its own traces and on a shared sample of the others (where its literals are mostly absent),
    // and on the same lines written with \u escapes, beside lines that are not traces.
    const sample = cases.filter((_, i) => i % 80 === 0).map((c) => line(c.trace));
    const byPolicy = new Map<string, { policy: string; parameters: Record<string, unknown>; lines: string[] }>();
    for (const c of cases) {
      const key = `${c.policy}\u0000${JSON.stringify(c.parameters)}`;
      let entry = byPolicy.get(key);
      if (!entry) byPolicy.set(key, (entry = { policy: c.policy, parameters: c.parameters, lines: ['{"metadata": {}}', '{broken', ...sample] }));
      entry.lines.push(line(c.trace), line(c.trace).replaceAll('o', '\\u006f'));
    }
    let withLiterals = 0;
    let settled = 0;
    let violations = 0;
    for (const { policy, parameters, lines } of byPolicy.values()) {
      const file = rules(policy);
      if (file.model.syntaxProblems.length > 0) continue;
      if (literalsOf(policy).some((l) => l.length > 0)) withLiterals++;
      const text = lines.join('\n');
      const full = reports(file, text, false, parameters);
      sameReports(reports(file, text, true, parameters), full, policy.slice(0, 120));
      const { reports: fromBytes, settled: settledHere } = chunkReports(file, Buffer.from(text, 'utf8'), parameters);
      sameReports(fromBytes, full, `${policy.slice(0, 120)}, read from the bytes`);
      assert.deepEqual(fromBytes, reports(file, text, true, parameters), `${policy.slice(0, 120)}: the bytes give the text's reports`);
      settled += settledHere;
      violations += full.filter((r) => r.errors.length > 0).length;
    }
    assert.ok(byPolicy.size > 150 && withLiterals >= 20, `${byPolicy.size} policies, ${withLiterals} with a required literal`);
    assert.ok(settled > 300 && violations > 1000, `${settled} lines settled from the bytes, ${violations} traces with violations`);
  });
});

interface Case {
  policy: string;
  parameters: Record<string, unknown>;
  trace: unknown[];
}

function corpusTraces(): Case[] {
  const folders = ['cases', 'exceptions'].map((f) => path.join(corpus, 'evaluation', f)).filter(existsSync);
  return folders.flatMap((folder) => readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(folder, f), 'utf8')) as Case));
}
