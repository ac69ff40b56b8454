/** The trace as the model of linked calls (calls/model.ts): its events are the steps, outputs are tool events. */
import type { CallFormat, LinkedCalls } from '../calls/model';
import type { ToolCall, TraceEvent, TraceModel } from './model';
import { callLabel, contentText } from './text';

export const traceFormat: CallFormat = {
  codePrefix: 'trace',
  whole: 'trace',
  outputIdKey: 'tool_call_id',
  callWord: 'tool call',
  outputWord: 'tool output',
  stepWord: 'event',
  stepName: (step) => `event #${step.index}`,
  stepsName: (steps) => `events ${steps.map((step) => `#${step.index}`).join(', ')}`,
  stepShort: (step) => `#${step.index}`,
  callLabel: (model, call, max) => callLabel(model, call as ToolCall, max),
  outputText: (model, output, max) => contentText(model, output as TraceEvent, max),
};

/** The trace's calls and outputs, for the features shared by every format. */
export function traceCalls(model: TraceModel): LinkedCalls {
  return {
    text: model.text,
    steps: model.events,
    calls: model.calls,
    outputs: model.outputs,
    callsById: model.callsById,
    outputsByCallId: model.outputsByCallId,
    format: traceFormat,
  };
}
