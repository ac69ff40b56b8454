/**
 * Inlay labels for tool call links: after a `tool_call_id`, the call it answers (`← get_inbox #3`); after a call's
 * `id`, the outputs answering it (`→ #5`) or `unanswered`. Only the events inside the span are visited (found by
 * binary search), so a viewport of a 100,000-event trace costs what its few events cost.
 */
import type { ServiceContext } from '../common/languageService';
import { shorten } from '../common/text';
import type { InlayLabel, Span } from '../common/types';
import { field, type TraceEvent, type TraceModel } from './model';

const maxToolName = 40;
/** A call answered more often lists the first few outputs and counts the rest. */
const maxListedOutputs = 3;

export function inlayHints(model: TraceModel, span: Span, context: ServiceContext): InlayLabel[] {
  const { callTargets, callAnswers } = context.settings.inlayHints;
  const labels: InlayLabel[] = [];
  if (!callTargets && !callAnswers) return labels;
  const events = model.events;
  const within = (offset: number) => offset >= span.start && offset <= span.end;
  for (let i = firstEventEndingAfter(events, span.start); i < events.length && events[i].value.start <= span.end; i++) {
    const event = events[i];
    if (callTargets && event.kind === 'output' && !event.implicit && event.answers) {
      const id = field(event.fields, 'tool_call_id')?.value;
      if (id && within(id.end)) {
        const call = event.answers;
        const tool = call.name === undefined ? 'call' : shorten(call.name, maxToolName);
        labels.push({ offset: id.end, label: `← ${tool} #${call.event.index}` });
      }
    }
    if (!callAnswers) continue;
    for (const call of event.calls) {
      const id = call.idField?.value;
      if (call.id === undefined || !id || !within(id.end)) continue;
      const outputs = call.outputs;
      const listed = outputs.slice(0, maxListedOutputs).map((output) => `#${output.index}`).join(', ');
      const more = outputs.length > maxListedOutputs ? ` +${outputs.length - maxListedOutputs}` : '';
      labels.push({ offset: id.end, label: outputs.length === 0 ? 'unanswered' : `→ ${listed}${more}` });
    }
  }
  return labels;
}

/** The first event whose value ends at or after the offset. */
function firstEventEndingAfter(events: TraceEvent[], offset: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].value.end < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
