/**
 * The preview of a file of spans: the spans of one trace in tree order (each under its parent, indented by its depth,
 * siblings by start time), a model span with the calls it made drawn inside it, a tool span as the output of the call
 * it answers (an edge from the call; a dashed one where the link is inferred), each node with its duration and
 * tokens, and the trace's totals in the header. A file with several traces offers them to choose from.
 */
import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import { firstLine } from '../common/text';
import type { GraphData, GraphNodeKind } from '../../../shared/protocol';
import { buildGraph, type GraphItem } from '../calls/graph';
import { graphTotals } from '../calls/stepGraph';
import { callLabel, spanDuration, spanFigures, valueText } from './text';
import { treeOrder } from './tree';
import type { SpanStep, SpansModel } from './types';

const maxDepth = 32;
const summaryLength = 120;

export function graph(model: SpansModel, options: GraphOptions, context: ServiceContext, problems: readonly Problem[]): GraphData {
  const traceIndex = Math.min(Math.max(0, options.traceIndex ?? 0), Math.max(0, model.traces.length - 1));
  const trace = model.traces[traceIndex];
  const max = context.settings.preview.maxTextLength;
  const items = trace ? treeOrder(trace.roots).map((step) => drawSpan(step, max)) : [];
  const omitted = model.omittedSpans + model.omittedLines;
  const data = buildGraph({
    uri: model.uri,
    version: model.version,
    format: 'otel-spans',
    error: trace ? undefined : 'This file holds no spans: OTLP/JSON (`resourceSpans`, one object per line as the collector\'s file exporter writes them) or any-agent\'s `{"spans": [...]}`.',
    notice: omitted > 0 ? `Spans past the limit of agentTraces.jsonl.maxLines are not read (${omitted} ${model.omittedLines > 0 ? 'lines' : 'spans'} left out).` : undefined,
    totals: trace ? graphTotals(trace) : undefined,
  }, items, { ...options, traceIndex }, context, problems);
  if (model.traces.length > 1) data.traces = model.traces.map((each) => ({ index: each.position, label: `Trace ${each.traceId?.slice(0, 8) ?? '(no id)'} · ${each.steps.length} spans` }));
  return data;
}

function drawSpan(step: SpanStep, max: number): GraphItem {
  const selection = step.nameNode ?? step.node;
  const figures = spanFigures(step);
  const item: GraphItem = {
    kind: kindOf(step),
    eventIndex: step.index,
    title: `#${step.index} ${step.name ?? '(unnamed span)'}`,
    summary: '',
    text: { text: '', length: 0 },
    span: step.span,
    selection: { start: selection.start, end: selection.end },
    outputs: step.heldOutputs.filter((output) => !output.ownCall),
  };
  const shown = shownText(step, max);
  item.text = shown;
  item.summary = [figures, firstLine(shown.text.slice(0, summaryLength * 4), summaryLength)].filter(Boolean).join(' · ');
  if (step.depth > 0) item.depth = Math.min(step.depth, maxDepth);
  const duration = spanDuration(step);
  if (duration !== undefined) item.durationMs = duration;
  if (step.usage) item.tokens = step.usage.total ?? (step.usage.input ?? 0) + (step.usage.output ?? 0);
  if (step.status === 'error' || step.heldOutputs.some((output) => output.isError)) item.failed = true;
  const ownCall = step.heldOutputs.find((output) => output.ownCall)?.answers;
  if (ownCall) {
    item.isCall = ownCall;
    if (ownCall.name !== undefined) item.toolName = ownCall.name;
    if (ownCall.id !== undefined) item.callId = ownCall.id;
    return item;
  }
  const calls = step.calls.filter((call) => call.source !== 'tool-span');
  if (calls.length > 0) {
    item.calls = calls.map((call) => {
      const args = valueText(call.args, max);
      return {
        call, title: `#${step.index} ${callLabel(call, 60)}`, summary: firstLine(args.text.slice(0, summaryLength * 4), summaryLength), text: args,
        selection: call.idSpan ?? call.nameSpan ?? { start: call.span.start, end: call.span.start },
      };
    });
  }
  const output = item.outputs?.[0];
  if (output?.answers?.name !== undefined) item.toolName = output.answers.name;
  const callId = output?.callId ?? output?.answers?.id;
  if (callId !== undefined) item.callId = callId;
  return item;
}

function kindOf(step: SpanStep): GraphNodeKind {
  switch (step.role) {
    case 'model':
      return 'assistant';
    case 'tool':
      return step.heldOutputs.some((output) => output.ownCall) ? 'call' : 'output';
    case 'agent':
      return 'system';
    default:
      return 'metadata';
  }
}

/** What the expanded node shows: a tool's result, a model's answer (else its last input message), else the span's attributes. */
function shownText(step: SpanStep, max: number): { text: string; length: number } {
  if (step.role === 'tool') return valueText(step.heldOutputs[0]?.result, max);
  if (step.role === 'model') {
    const answer = step.output.flatMap((message) => message.texts)[0];
    if (answer) return valueText(answer, max);
    const last = step.input[step.input.length - 1]?.texts[0];
    if (last) return valueText(last, max);
    return { text: '', length: 0 };
  }
  const lines = [...step.attributes.values()].slice(0, 40).map((attribute) => `${attribute.key}: ${valueText(attribute.value, 200).text}`);
  const text = lines.join('\n');
  return { text: text.slice(0, max), length: text.length };
}
