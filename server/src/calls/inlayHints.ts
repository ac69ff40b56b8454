/**
 * Inlay labels for call links: after an output's id, the call it answers (`← get_inbox #3`); after a call's id,
 * the outputs answering it (`→ #5`) or `unanswered`; after a call, how long it took (`⏱ 1.20 s`, when enabled and
 * the format records times). Only the steps inside the span are visited (found by binary
 * search), so a viewport of a 100,000-event trace costs what its few steps cost.
 */
import type { ServiceContext } from '../common/languageService';
import { shorten } from '../common/text';
import type { InlayLabel, Span } from '../common/types';
import type { LinkedCalls } from './model';
import { callDuration } from './timing';
import { formatDuration } from '../../../shared/format';

const maxToolName = 40;
/** A call answered more often lists the first few outputs and counts the rest. */
const maxListedOutputs = 3;

export function inlayHints(model: LinkedCalls, span: Span, context: ServiceContext): InlayLabel[] {
  const { callTargets, callAnswers, durations } = context.settings.inlayHints;
  const labels: InlayLabel[] = [];
  if (!callTargets && !callAnswers && !durations) return labels;
  const { steps, format } = model;
  const within = (offset: number) => offset >= span.start && offset <= span.end;
  for (let i = firstStepEndingAtOrAfter(model, span.start); i < steps.length && steps[i].span.start <= span.end; i++) {
    const step = steps[i];
    if (callTargets) {
      for (const output of step.heldOutputs) {
        const call = output.answers;
        if (output.implicit || !call || !output.idSpan || !within(output.idSpan.end)) continue;
        const tool = call.name === undefined ? 'call' : shorten(call.name, maxToolName);
        labels.push({ offset: output.idSpan.end, label: `← ${tool} ${format.stepShort(call.step)}` });
      }
    }
    if (durations) {
      for (const call of step.calls) {
        const duration = callDuration(call);
        if (duration !== undefined && within(call.span.end)) labels.push({ offset: call.span.end, label: `⏱ ${formatDuration(duration)}` });
      }
    }
    if (!callAnswers) continue;
    for (const call of step.calls) {
      const id = call.idSpan;
      if (call.id === undefined || !id || !within(id.end)) continue;
      const outputs = call.outputs;
      const listed = outputs.slice(0, maxListedOutputs).map((output) => format.stepShort(output.step)).join(', ');
      const more = outputs.length > maxListedOutputs ? ` +${outputs.length - maxListedOutputs}` : '';
      labels.push({ offset: id.end, label: outputs.length === 0 ? 'unanswered' : `→ ${listed}${more}` });
    }
  }
  return labels;
}

/** The first step whose span ends at or after the offset. */
function firstStepEndingAtOrAfter(model: LinkedCalls, offset: number): number {
  const steps = model.steps;
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].span.end < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
