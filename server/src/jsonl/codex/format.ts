/** How a Codex rollout names its calls, outputs and records in messages and hovers. */
import type { CallFormat } from '../../calls/model';
import { callLabel, valueText } from '../../responses/itemText';
import type { RolloutCall, RolloutModel, RolloutOutput, RolloutStep } from './types';

const lineOf = (step: { index: number }) => step.index + 1;

export const codexFormat: CallFormat = {
  codePrefix: 'codex',
  whole: 'rollout',
  outputIdKey: 'call_id',
  callWord: 'call',
  outputWord: 'output',
  stepWord: 'record',
  stepName: (step) => `line ${lineOf(step)}`,
  stepsName: (steps) => `lines ${steps.map(lineOf).join(', ')}`,
  stepShort: (step) => `L${lineOf(step)}`,
  callLabel: (model, call, max) => callLabel(model.text, call as RolloutCall, max),
  outputText: (model, output, max) => valueText(model.text, (output as RolloutOutput).outputSpan, max),
  renameRefusal: 'The call ids of a Codex rollout are written by the model\'s API, not chosen by you: they are not renamed here (convert the rollout to a trace to edit it as a fixture)',
  unanswered: (model, call) => unanswered(model as RolloutModel, call as RolloutCall),
  unknownCallId: () => ({ note: 'Codex drops an output whose call is missing when it loads this session again, so the model never saw it' }),
  totalUsage: (model) => (model as RolloutModel).totalUsage,
};

/**
 * A call no output answers. Codex, when it loads a session again, answers every such call with an "aborted"
 * output (and drops outputs whose call is missing), so the message says so. The turn was aborted (a `turn_aborted`
 * event, or the next prompt came first) or the rollout ends there: information. The model went on without the
 * output in the same turn: a warning, since the model then answered without seeing it.
 */
function unanswered(model: RolloutModel, call: RolloutCall): { severity: 'information' | 'warning'; note: string } | null {
  if (call.facts.serverSide) return null;
  const reload = 'when Codex loads this session again it inserts an "aborted" output for this call';
  let outputsSince = false;
  for (let i = model.steps.indexOf(call.step) + 1; i < model.steps.length; i++) {
    const step = model.steps[i];
    if (step.role === 'marker' && step.facts.payloadType === 'turn_aborted') {
      const reason = step.facts.event?.reason;
      return { severity: 'information', note: `the turn was aborted (${codexFormat.stepName(step)}${reason ? `: ${reason}` : ''}) before its output was written; ${reload}` };
    }
    if (step.role === 'prompt') {
      return { severity: 'information', note: `the next prompt (${codexFormat.stepName(step)}) came before it, so the turn was interrupted; ${reload}` };
    }
    if (step.role === 'output') outputsSince = true;
    else if (outputsSince && (step.role === 'call' || step.role === 'reasoning' || (step.role === 'message' && step.facts.item?.role === 'assistant'))) {
      return { severity: 'warning', note: `the model went on (${codexFormat.stepName(step)}) without its output; ${reload}` };
    }
  }
  return { severity: 'information', note: `the rollout ends before its output was written (the session stopped, or is still running); ${reload}` };
}

/** The record a step's echo repeats, said for a hover. */
export function describeStep(step: RolloutStep): string {
  return `${step.facts.type ?? 'record'}${step.facts.payloadType ? ` ${step.facts.payloadType}` : ''} on ${codexFormat.stepName(step)}`;
}
