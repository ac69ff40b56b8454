/** How a sample of an Inspect log names its calls, outputs and messages in problems and hovers. */
import type { CallFormat, LinkedCalls, UnknownCallNote } from '../calls/model';
import { callText, contentText } from './content';
import type { MessageStep, SampleCall, SampleOutput, SampleTrace } from './types';

export const inspectFormat: CallFormat = {
  codePrefix: 'inspect',
  whole: 'sample',
  outputIdKey: 'tool_call_id',
  callWord: 'tool call',
  outputWord: 'tool message',
  stepWord: 'message',
  stepName: (step) => `messages[${step.index}]`,
  stepsName: (steps) => steps.map((step) => `messages[${step.index}]`).join(', '),
  stepShort: (step) => `#${step.index}`,
  callLabel: (model, call, max) => callText(model.text, call.name, (call as SampleCall).args, max),
  outputText: (model, output, max) => contentText(model.text, (output as SampleOutput).content, max, (model as SampleTrace).attachments),
  renameRefusal: 'The ids of an Inspect log are written by the model and Inspect, not chosen by you: they are not renamed here',
  unanswered: (model, call) => unanswered(model, call as SampleCall),
  unknownCallId: (_model, output) => unknownCall(output as SampleOutput),
  totalUsage: (model) => (model as SampleTrace).usage,
};

/** A call of the sample's last message is where the run stopped (a limit, an error); one the run went past was never answered. */
function unanswered(model: LinkedCalls, call: SampleCall): { severity: 'information' | 'warning'; note: string } {
  const last = model.steps[model.steps.length - 1] as MessageStep | undefined;
  if (last === call.step) return { severity: 'information', note: 'the sample ends here (a message limit, a token limit or an error stopped it before the tool ran)' };
  return { severity: 'warning', note: 'the sample goes on without it; Inspect answers every call it runs with a tool message' };
}

function unknownCall(output: SampleOutput): UnknownCallNote {
  return { note: `the message says it comes from ${output.tool !== undefined ? `the tool "${output.tool}"` : 'a tool'}, but the assistant message that called it is not in the sample's messages (trimmed, or written by hand)` };
}
