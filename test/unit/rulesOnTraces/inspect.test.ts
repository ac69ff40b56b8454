import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { tracesInText } from '../../../server/src/rulesOnTraces/tracesInText';
import { convertText, outputText, startConversion, writeTraces } from '../../../server/src/conversion';
import { isConverted, traceLayoutOfFile, type TraceLayout } from '../../../server/src/traceFormats';
import { corpus, corpusOrSkip } from '../corpus';
import { agentLog, assistant, log, sample, user } from '../inspect/logs';

function rules(source: string): RuleFile {
  const uri = 'file:///w/rules/inspect.gr';
  return { uri, model: guardrailService.parse({ uri, version: 1, text: source }) as RuleModel };
}

function layoutOf(file: string, text: string): TraceLayout {
  const layout = traceLayoutOfFile(file, text);
  assert.ok(isConverted(layout), `${file} is read as a format that converts`);
  return layout;
}

function marked(file: string, text: string, source: string, layout: TraceLayout = layoutOf(file, text)): string[] {
  return evaluateRulesOnTrace([rules(source)], text, layout, { workBudget: 1_000_000, path: file }).violations.map((v) => text.slice(v.span.start, v.span.end));
}

const lsRule = 'raise "ls" if:\n    (call: ToolCall)\n    call is tool:bash\n    "ls" in call.function.arguments.cmd\n';
const outputRule = 'raise "readme" if:\n    (out: ToolOutput)\n    "README" in out.content\n';
const flowRule = 'raise "after a failure" if:\n    (out: ToolOutput) -> (call: ToolCall)\n    out.metadata.error is not None\n    call is tool:bash\n';

describe('Inspect AI logs under guardrail rules', () => {
  it('each sample is a trace of its own, starting where the sample starts', () => {
    const text = agentLog();
    const traces = [...tracesInText(text, layoutOf('/w/logs/run.json', text), '/w/logs/run.json')];
    assert.equal(traces.length, 2);
    assert.deepEqual(traces.map((found) => text.slice(found.start, found.start + 40).replace(/\s+/g, ' ').slice(0, 16)), ['{ "id": 1, "epoc', '{ "id": "two", "']);
    assert.deepEqual((traces[0].trace as { role: string }[]).map((event) => event.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it('places violations on the log\'s own characters: inside the arguments, inside a tool output, across a failed tool and a later call', () => {
    const text = agentLog();
    assert.deepEqual(marked('/w/logs/run.json', text, lsRule), ['ls']);
    assert.deepEqual(marked('/w/logs/run.json', text, outputRule), ['README']);
    // The failed `du` comes after the `ls` in sample 1; sample 2's parse error is answered by a failed tool before `cat`.
    assert.equal(marked('/w/logs/run.json', text, flowRule).length, 1);
  });

  it('gives the same violations on a log and on its conversion (one trace per sample, as JSON Lines)', () => {
    const text = agentLog();
    const conversion = convertText('/w/logs/run.json', text);
    assert.ok('traces' in conversion, 'the log converts');
    assert.equal(conversion.traces.length, 2);
    const lines = writeTraces(conversion, 'lines', undefined).text;
    assert.equal(lines.split('\n').filter(Boolean).length, 2);
    const datasetLayout = traceLayoutOfFile('/w/logs/run.trace.jsonl', lines)!;
    for (const rule of [lsRule, outputRule]) assert.deepEqual(marked('/w/logs/run.trace.jsonl', lines, rule, datasetLayout), marked('/w/logs/run.json', text, rule));
  });

  it('a log converts a sample at a time: two samples read to know the output\'s form, each written before the next is converted', () => {
    const text = log(Array.from({ length: 6 }, (_, i) => sample({ id: i + 1, messages: [user(`Task ${i + 1}`), assistant(`m_${i}`, `Answer ${i + 1}`)] })));
    const converting = startConversion('/w/logs/run.json', text);
    assert.ok(!('reason' in converting), 'the log converts');
    assert.equal(converting.several, true);
    assert.equal(converting.counts.traces, 2);
    const converted: number[] = [];
    const lines: string[] = [];
    for (const line of outputText(converting.traces, 'lines', undefined)) {
      lines.push(line);
      converted.push(converting.counts.traces);
    }
    // The first two were read at the start; every later sample is converted only when its line is asked for.
    assert.deepEqual(converted, [2, 2, 3, 4, 5, 6]);
    assert.deepEqual(lines.map((line) => (JSON.parse(line) as { content: string }[])[0].content), ['Task 1', 'Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6']);
    assert.equal(lines.join(''), writeTraces(convertText('/w/logs/run.json', text) as never, 'lines', undefined).text);
    assert.deepEqual([converting.counts.events, converting.counts.firstEvents], [12, 2]);
  });

  it('a .trace.json of a log of several samples holds the first, the others counted', () => {
    const text = log([1, 2, 3].map((id) => sample({ id, messages: [user(`Task ${id}`)] })));
    const converting = startConversion('/w/logs/run.json', text);
    assert.ok(!('reason' in converting));
    const pieces = [...outputText(converting.traces, 'trace', undefined)];
    assert.equal(pieces.length, 1);
    assert.deepEqual(JSON.parse(pieces[0]), [{ role: 'user', content: 'Task 1' }]);
    assert.equal(converting.counts.traces, 3);
  });

  it('the corpus logs convert, and the orphan tool messages of log_tool_call_error.json stay tool outputs a rule sees', (t) => {
    if (!corpusOrSkip(t)) return;
    const folder = path.join(corpus, 'formats/inspect');
    for (const name of ['log_formats.json', 'log_read_sample.json', 'log_tool_call_error.json']) {
      const text = readFileSync(path.join(folder, name), 'utf8');
      const conversion = convertText(path.join(folder, name), text);
      assert.ok('traces' in conversion && conversion.traces.length === 1, name);
    }
    const text = readFileSync(path.join(folder, 'log_tool_call_error.json'), 'utf8');
    const found = marked(path.join(folder, 'log_tool_call_error.json'), text, 'raise "limit" if:\n    (out: ToolOutput)\n    out.metadata.error is not None\n    out.metadata.error.type == "output_limit"\n');
    assert.equal(found.length, 1);
    assert.match(found[0], /^\{\n\s+"content": "\\nThe output of your call to bash was too long[^]*"tool_call_id": "bash_11",/);
  });
});
