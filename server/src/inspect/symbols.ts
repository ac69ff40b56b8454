/**
 * The outline of an Inspect log: the evaluation (task, model, status, the results' metrics), then one entry per
 * sample with its scores and totals (calls, time, tokens), holding the sample's turns: the system prompt, each user
 * message with the calls made until the next one nested under it (`bash(cmd="ls")`, failed ones marked ✗).
 */
import { spend, type Budget } from '../common/budget';
import type { OutlineItem } from '../common/types';
import { turnOutline } from '../calls/outline';
import { describeTotals } from '../calls/timing';
import { sampleTotals } from './sample';
import { property, propertyValue } from '../json/queries';
import type { JsonNode } from '../json/nodes';
import { contentText, callText, oneLine } from './content';
import { roundMetric, sampleName, traceOf } from './model';
import type { InspectModel, MessageStep, SampleCall, SampleEntry, SampleTrace } from './types';

const titleLength = 80;

export function symbols(model: InspectModel, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = [];
  const log = model.log;
  if (log.evalProperty) {
    items.push({
      name: `Eval: ${log.task ?? '?'}${log.model ? ` · ${log.model}` : ''}`,
      detail: [log.status, log.metrics, `${model.samples.length} sample${model.samples.length === 1 ? '' : 's'}`].filter(Boolean).join(' · '),
      kind: 'metadata',
      span: { start: log.evalProperty.start, end: log.evalProperty.end },
      selection: { start: log.evalProperty.keyStart, end: log.evalProperty.keyEnd },
    });
  }
  const max = model.maxOutlineEntries;
  let steps = 0;
  for (const sample of model.samples) {
    steps = spend(budget, steps);
    if (sample.index >= max) {
      const rest = model.samples.length - sample.index;
      items.push({
        name: `… ${rest} more sample${rest === 1 ? '' : 's'}`, detail: 'setting agentTraces.jsonl.maxOutlineEntries', kind: 'trace',
        span: { start: sample.span.start, end: model.samples[model.samples.length - 1].span.end }, selection: { start: sample.span.start, end: sample.span.start },
      });
      break;
    }
    items.push(sampleItem(model, sample, budget));
  }
  return items;
}

function sampleItem(model: InspectModel, sample: SampleEntry, budget?: Budget): OutlineItem {
  const name = sampleName(sample);
  const selection = sampleSelection(sample);
  if (sample.node.type !== 'object') return { name: name[0].toUpperCase() + name.slice(1), kind: 'trace', span: { ...sample.span }, selection };
  const trace = traceOf(model, sample);
  const prompt = trace.steps.find((step) => step.role === 'user');
  const said = prompt ? oneLine(contentText(model.text, prompt.content, titleLength * 2, trace.attachments).text, titleLength) : '';
  const detail = [
    scoresOf(propertyValue(sample.node, 'scores')),
    describeTotals(sampleTotals(trace)),
    propertyValue(sample.node, 'error')?.type === 'object' ? 'error' : undefined,
  ].filter(Boolean).join(' · ');
  const children = turnOutline<MessageStep, SampleCall>(trace, {
    entry: (step) => entryOf(model, trace, step),
    leadingEntry: (step) => ({ name: `${step.role ?? 'message'} ${trace.format.stepName(step)}`, kind: 'message', selection: roleSelection(step) }),
    callTitle: (call) => callText(model.text, call.name, call.args, titleLength),
  }, model.maxOutlineEntries, budget);
  return { name: `${name[0].toUpperCase()}${name.slice(1)}${said ? `: ${said}` : ''}`, detail, kind: 'trace', span: { ...sample.span }, selection, children };
}

function entryOf(model: InspectModel, trace: SampleTrace, step: MessageStep) {
  if (step.role !== 'system' && step.role !== 'user') return undefined;
  const said = oneLine(contentText(model.text, step.content, titleLength * 2, trace.attachments).text, titleLength);
  return {
    name: step.role === 'system' ? `System: ${said}` : said || '[user message]',
    detail: trace.format.stepName(step),
    kind: step.role === 'system' ? 'metadata' as const : 'message' as const,
    selection: roleSelection(step),
    standalone: step.role === 'system',
  };
}

function roleSelection(step: MessageStep) {
  const role = property(step.node, 'role');
  return role ? { start: role.keyStart, end: role.end } : { start: step.span.start, end: step.span.start };
}

function sampleSelection(sample: SampleEntry) {
  const id = property(sample.node, 'id');
  return id ? { start: id.keyStart, end: id.end } : { start: sample.span.start, end: sample.span.start };
}

/** `match: C` or `accuracy: 0.5, judge: I`: each scorer's value (its name left out when it is the only one). */
export function scoresOf(scores: JsonNode | undefined): string | undefined {
  if (scores?.type !== 'object' || scores.properties.length === 0) return undefined;
  const parts = scores.properties.slice(0, 6).map((entry) => `${entry.key}: ${scoreValue(propertyValue(entry.value, 'value'))}`);
  return parts.join(', ');
}

function scoreValue(value: JsonNode | undefined): string {
  if (!value) return '?';
  if (value.type === 'string') return oneLine(value.value, 24);
  if (value.type === 'number') return roundMetric(Number(value.raw));
  if (value.type === 'boolean') return String(value.value);
  if (value.type === 'object') return value.properties.slice(0, 3).map((entry) => `${entry.key}=${scoreValue(entry.value)}`).join(' ');
  if (value.type === 'array') return `[${value.items.slice(0, 3).map(scoreValue).join(', ')}]`;
  return 'null';
}
