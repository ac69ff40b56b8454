/** How a Responses document names its calls, outputs and items in messages and hovers. */
import type { CallFormat, UnknownCallNote } from '../calls/model';
import { callLabel, valueText } from './itemText';
import type { ItemCall, ItemOutput, ResponsesModel } from './types';

const itemName = (step: { index: number }) => `item #${step.index}`;

export const responsesFormat: CallFormat = {
  codePrefix: 'responses',
  whole: 'file',
  outputIdKey: 'call_id',
  callWord: 'call',
  outputWord: 'output',
  stepWord: 'item',
  stepName: itemName,
  stepsName: (steps) => `items ${steps.map((step) => `#${step.index}`).join(', ')}`,
  stepShort: (step) => `#${step.index}`,
  callLabel: (model, call, max) => callLabel(model.text, call as ItemCall, max),
  outputText: (model, output, max) => valueText(model.text, (output as ItemOutput).outputSpan, max),
  unanswered: (model, call) => unanswered(model as ResponsesModel, call as ItemCall),
  unknownCallId: (model, output) => unknownCallId(model as ResponsesModel, output as ItemOutput),
  totalUsage: (model) => (model as ResponsesModel).response?.usage,
};

/**
 * A call no output answers. At the end of a response, or of a list, it waits for your code to run it (information);
 * in a request's input the API refuses it ("No tool output found"); in a list that goes on without it, the next
 * request would be refused too (warnings). A tool the API runs itself needs no output item.
 */
function unanswered(model: ResponsesModel, call: ItemCall): { severity: 'information' | 'warning'; note: string } | null {
  if (call.facts.serverSide) return null;
  const later = model.steps.slice(model.steps.indexOf(call.step) + 1).find((step) => step.role !== 'call' && step.role !== 'reasoning');
  if (call.step.list === 'output' || (call.step.list === 'items' && !later)) {
    return { severity: 'information', note: `the ${call.step.list === 'output' ? 'response' : 'list'} ends with it: your code runs the tool and sends a ${outputTypeOf(call)} with call_id ${JSON.stringify(call.id ?? '')} in the next request's input` };
  }
  if (call.step.list === 'input') {
    return { severity: 'warning', note: 'the API refuses a request whose input holds a call without its output ("No tool output found for function call")' };
  }
  return { severity: 'warning', note: `the conversation goes on (${itemName(later!)}) without it; the API refuses a request whose input holds a call without its output` };
}

function outputTypeOf(call: ItemCall): string {
  const type = call.step.facts.type;
  return type === 'local_shell_call' ? 'function_call_output' : `${type}_output`;
}

/**
 * An output naming no call: the usual mistake is to name the call's item `id` (`fc_…`) instead of its `call_id`
 * (the quick fix puts the right one); a request that continues a stored conversation may answer a call made there.
 */
function unknownCallId(model: ResponsesModel, output: ItemOutput): UnknownCallNote | undefined {
  const id = output.callId;
  if (id === undefined) return undefined;
  const byItemId = model.callsByItemId.get(id)?.find((call) => call.id !== undefined);
  if (byItemId) {
    return {
      note: `it is the item id of the ${byItemId.step.facts.type} in ${itemName(byItemId.step)} (${byItemId.name ?? '?'}), whose call_id is ${JSON.stringify(byItemId.id)}. Did you mean ${JSON.stringify(byItemId.id)}? An output names its call by call_id, not by the item's id`,
      suggestion: byItemId.id,
      related: [{ span: byItemId.idSpan ?? byItemId.span, message: `the call_id of ${itemName(byItemId.step)}` }],
    };
  }
  const continues = model.response?.continues;
  if (continues !== undefined && output.step.list === 'input') {
    return { note: `this request continues "${continues}", whose stored items may hold the call; it is not in this file`, severity: 'information' };
  }
  return undefined;
}
