/** How a file of spans names its calls, outputs and spans in messages and hovers. */
import type { CallFormat, UnknownCallNote } from '../calls/model';
import { callLabel, spanName, valueText } from './text';
import type { SpanCall, SpanOutput, SpanTrace } from './types';

export const spansFormat: CallFormat = {
  codePrefix: 'otel',
  whole: 'trace',
  outputIdKey: 'tool call id',
  callWord: 'tool call',
  outputWord: 'tool result',
  stepWord: 'span',
  stepName: (step) => spanName(step as SpanTrace['steps'][number]),
  stepsName: (steps) => `spans ${steps.map((step) => `#${step.index}`).join(', ')}`,
  stepShort: (step) => `#${step.index}`,
  callLabel: (_model, call, max) => callLabel(call as SpanCall, max),
  outputText: (_model, output, max) => valueText((output as SpanOutput).result, max),
  renameRefusal: 'Tool call ids in spans are written by the agent framework: renaming them would make the spans disagree with what ran',
  unanswered: (_model, call) => unanswered(call as SpanCall),
  unknownCallId: (_model, output) => unknownCallId(output as SpanOutput),
};

/** A call of the model's history (made before the span that repeats it) may have been answered before the trace began. */
function unanswered(call: SpanCall): { severity: 'information'; note: string } | undefined {
  if (call.source === 'input') return { severity: 'information', note: 'the model span repeats it from its history; its result may have been recorded outside this trace' };
  return undefined;
}

function unknownCallId(output: SpanOutput): UnknownCallNote | undefined {
  if (output.source === 'input') return { note: 'the model span repeats it from its history, whose call may have been made before this trace began', severity: 'warning' };
  return undefined;
}
