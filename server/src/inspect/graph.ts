/**
 * The preview of an Inspect log: one sample at a time (the one chosen in the preview's picker, else the one under
 * the cursor, else the first), drawn on the graph every format shares: its system prompt, user and assistant
 * messages with the calls inside them, each tool message as the output of its call (failed ones marked), with the
 * sample's calls, time and tokens in the header. The picker lists the samples with their scores.
 */
import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import type { GraphData, TraceChoice } from '../../../shared/protocol';
import { buildGraph, callWithArguments, type GraphCall, type GraphItem } from '../calls/graph';
import { graphTotals } from '../calls/stepGraph';
import { sampleTotals } from './sample';
import type { GraphTotals } from '../../../shared/protocol';
import { callDuration } from '../calls/timing';
import { emptyGraph } from '../preview/emptyGraph';
import { propertyValue } from '../json/queries';
import { callText, contentText, oneLine } from './content';
import { sampleAt, sampleName, traceOf } from './model';
import { scoresOf } from './symbols';
import type { InspectModel, MessageStep, SampleCall, SampleEntry, SampleTrace } from './types';

const summaryLength = 120;
/** Samples listed in the picker around the chosen one; the first and the last are always listed. */
const pickerWindow = 500;

export function graph(model: InspectModel, options: GraphOptions, context: ServiceContext, problems: readonly Problem[]): GraphData {
  const document = { uri: model.uri, version: model.version, format: 'inspect' as const };
  if (model.samples.length === 0) {
    return emptyGraph(document, context.settings.preview, model.root ? 'This log holds no samples (Inspect writes them when the evaluation logs samples).' : 'This file is not an Inspect log yet.');
  }
  let chosen = 0;
  if (options.traceIndex !== undefined && options.traceIndex >= 0 && options.traceIndex < model.samples.length) chosen = options.traceIndex;
  else if (options.cursorOffset !== undefined) chosen = sampleAt(model, options.cursorOffset)?.index ?? 0;
  const sample = model.samples[chosen];
  const trace = traceOf(model, sample);
  const maxText = context.settings.preview.maxTextLength;
  const inSample = problems.filter((problem) => problem.span.start >= sample.span.start && problem.span.start <= sample.span.end);
  const data = buildGraph(
    { ...document, totals: sampleGraphTotals(trace), ...(trace.steps.length === 0 ? { error: `${sampleName(sample)} has no messages.` } : {}) },
    trace.steps.map((step) => item(model, trace, step, maxText)), { ...options, traceIndex: chosen }, context, inSample,
  );
  data.traceIndex = chosen;
  data.traces = pickerChoices(model, chosen);
  return data;
}

/** The shared totals, with the time the sample ran (`total_time`) where it records it. */
function sampleGraphTotals(trace: SampleTrace): GraphTotals {
  const totals = graphTotals(trace);
  const duration = sampleTotals(trace).durationMs;
  if (duration !== undefined) totals.durationMs = duration;
  else delete totals.durationMs;
  return totals;
}

function pickerChoices(model: InspectModel, chosen: number): TraceChoice[] {
  const count = model.samples.length;
  const from = Math.max(0, Math.min(chosen - pickerWindow / 2, count - pickerWindow));
  const to = Math.min(count, from + pickerWindow);
  const choice = (sample: SampleEntry): TraceChoice => {
    const scores = sample.node.type === 'object' ? scoresOf(propertyValue(sample.node, 'scores')) : undefined;
    return { index: sample.index, label: `${sampleName(sample)}${scores ? ` · ${scores}` : ''}` };
  };
  const choices: TraceChoice[] = [];
  if (from > 0) choices.push(choice(model.samples[0]));
  for (let index = from; index < to; index++) choices.push(choice(model.samples[index]));
  if (to < count) choices.push(choice(model.samples[count - 1]));
  return choices;
}

function item(model: InspectModel, trace: SampleTrace, step: MessageStep, maxText: number): GraphItem {
  const text = contentText(model.text, step.content, maxText, trace.attachments);
  const summary = oneLine(text.text.slice(0, summaryLength * 2), summaryLength);
  const role = propertyValue(step.node, 'role');
  const selection = role ? { start: role.start, end: role.end } : { start: step.span.start, end: step.span.start };
  const base = { eventIndex: step.index, span: { ...step.span }, selection, text, summary };
  const at = `#${step.index}`;
  if (step.role === 'system') return { ...base, kind: 'system', role: 'system', title: `${at} system` };
  if (step.role === 'tool') {
    const output = step.heldOutputs[0];
    const call = output?.answers;
    const failed = output?.isError === true;
    const tool = call?.name ?? output?.tool ?? '?';
    const errorText = output?.error ? `${output.error.type ?? 'error'}: ${output.error.message ?? ''}` : '';
    const shown = errorText && !text.text ? { text: errorText, length: errorText.length } : text;
    const graphItem: GraphItem = {
      ...base, kind: 'output', role: 'tool', title: `${at} ${failed ? `error (${output?.error?.type ?? 'error'})` : 'result'} ← ${tool}`,
      text: shown, summary: oneLine(shown.text.slice(0, summaryLength * 2), summaryLength), outputs: step.heldOutputs, failed,
      ...(output ? { selection: output.linkSpan } : {}),
    };
    if (tool !== '?') graphItem.toolName = tool;
    if (output?.callId !== undefined) graphItem.callId = output.callId;
    const duration = call && call.outputs[0] === output ? callDuration(call) : undefined;
    if (duration !== undefined) graphItem.durationMs = duration;
    return graphItem;
  }
  const kind = step.role === 'assistant' ? 'assistant' : step.role === 'user' ? 'user' : 'message';
  const graphItem: GraphItem = { ...base, kind, title: `${at} ${step.role ?? 'message'}`, calls: step.calls.map((call) => graphCall(model, call, maxText)) };
  if (step.role !== undefined) graphItem.role = step.role;
  if (step.usage) graphItem.tokens = step.usage.total ?? (step.usage.input ?? 0) + (step.usage.output ?? 0);
  return graphItem;
}

function graphCall(model: InspectModel, call: SampleCall, maxText: number): GraphCall {
  return callWithArguments(model.text, call, call.args, `${call.parseError ? '✗ ' : ''}${callText(model.text, call.name, call.args, 60)}`, maxText, summaryLength);
}
