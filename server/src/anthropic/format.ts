/** How an Anthropic conversation names its calls, outputs and messages in messages and hovers. */
import type { CallFormat, LinkedCalls } from '../calls/model';
import type { TextSource } from '../common/textSource';
import { resultText, toolCallLabel } from './content';
import type { Conversation, ConversationCall, ConversationOutput, MessageStep } from './types';

export const conversationFormat: CallFormat = {
  codePrefix: 'anthropic',
  whole: 'conversation',
  outputIdKey: 'tool_use_id',
  callWord: 'tool_use',
  outputWord: 'tool_result',
  stepWord: 'message',
  stepName: (step) => (step as MessageStep).name,
  stepsName: (steps) => steps.map((step) => (step as MessageStep).name).join(', '),
  stepShort: (step) => (step as MessageStep).short,
  callLabel: (model, call, max) => callLabel(model.text, call as ConversationCall, max),
  outputText: (model, output, max) => resultText(model.text, (output as ConversationOutput).content, max),
  renameRefusal: 'The ids of an Anthropic conversation are written by the API, not chosen by you: they are not renamed here',
  unanswered: (model, call) => unanswered(model as Conversation, call as ConversationCall),
};

/** `get_weather(location="Paris")`: the tool and its input, at most max characters. */
export function callLabel(text: TextSource, call: ConversationCall, max: number): string {
  return toolCallLabel(text, call.name, call.input, max);
}

/**
 * A call of the last assistant message is what the caller runs next (information); a call that a later message
 * leaves unanswered is refused by the API (a warning); a server tool's call without its result is a paused turn.
 */
function unanswered(model: LinkedCalls, call: ConversationCall): { severity: 'information' | 'warning'; note: string } {
  const conversation = model as Conversation;
  if (call.server) return { severity: 'information', note: 'the API had not finished this server tool when the message ended (a `pause_turn` stop: send the message back to let it go on)' };
  const next = conversation.steps.slice(call.step.index + 1).find((step) => !step.system);
  if (!next) return { severity: 'information', note: 'the conversation ends here: the caller runs the tool and sends its tool_result in the next request' };
  return { severity: 'warning', note: `the conversation goes on (${next.name}) without it; the API refuses a tool_use that the next user message does not answer` };
}
