/** How a Claude Code session names its calls, outputs and records in messages and hovers. */
import type { CallFormat } from '../../calls/model';
import { resultText, toolCallLabel } from '../../anthropic/content';
import type { TextSource } from '../../common/textSource';
import { shorten } from '../../common/text';
import { messageHeadOf, type RecordStep, type SessionCall, type SessionModel, type SessionOutput } from './types';

const lineOf = (step: { index: number }) => step.index + 1;

export const sessionFormat: CallFormat = {
  codePrefix: 'claude-code',
  whole: 'session',
  outputIdKey: 'tool_use_id',
  callWord: 'tool_use',
  outputWord: 'tool_result',
  stepWord: 'record',
  stepName: (step) => `line ${lineOf(step)}`,
  stepsName: (steps) => `lines ${steps.map(lineOf).join(', ')}`,
  stepShort: (step) => `L${lineOf(step)}`,
  callLabel: (model, call, max) => callLabel(model.text, call as SessionCall, max),
  outputText: (model, output, max) => resultText(model.text, (output as SessionOutput).contentSpan, max),
  renameRefusal: 'The ids of a Claude Code session are written by the model\'s API, not chosen by you: they are not renamed here (convert the session to a trace to edit it as a fixture)',
  unanswered: (model, call) => unanswered(model as SessionModel, call as SessionCall),
};

/** `Bash(command="npm test")`: the tool and its input, at most max characters. */
export function callLabel(text: TextSource, call: SessionCall, max: number): string {
  return toolCallLabel(text, call.name, call.inputSpan, max);
}

/** `Bash: npm test`: the tool and what it works on, as the outline and the preview title a call. */
export function callTitle(call: SessionCall, max: number): string {
  const name = call.name ?? '?';
  const key = call.tool.keyArgument;
  return shorten(key ? `${name}: ${key}` : name, max);
}

/**
 * An unanswered call is the session's normal end or an interruption (information, said why), a fault when the
 * conversation went on without its result (a warning: the model's API refuses a tool_use without its tool_result),
 * and nothing to report on an abandoned branch.
 */
function unanswered(model: SessionModel, call: SessionCall): { severity: 'information' | 'warning'; note: string } | null {
  if (call.step.abandoned) return null;
  const message = messageHeadOf(call.step);
  for (let i = model.steps.indexOf(call.step) + 1; i < model.steps.length; i++) {
    const step = model.steps[i];
    const type = step.facts.type;
    if (step.abandoned || (type !== 'user' && type !== 'assistant')) continue;
    // The other lines of the same message, and the results of its other calls, come before the next turn.
    if (messageHeadOf(step) === message) continue;
    if (type === 'user' && step.heldOutputs.length > 0 && step.heldOutputs.length === step.facts.message?.blocks.length) continue;
    if (interruption(step)) return { severity: 'information', note: `the run was interrupted (${sessionFormat.stepName(step)}) before it finished` };
    return { severity: 'warning', note: `the conversation went on (${sessionFormat.stepName(step)}) without it; the model's API refuses a tool_use that no tool_result answers` };
  }
  return { severity: 'information', note: 'the session ends before its tool_result was written (it was still running, or stopped)' };
}

/** A user record Claude Code writes when the user stops a run. */
export function interruption(step: RecordStep): boolean {
  const message = step.facts.message;
  if (step.facts.type !== 'user' || !message) return false;
  const text = message.text ?? message.blocks.find((block) => block.type === 'text')?.preview;
  return text !== undefined && text.startsWith('[Request interrupted');
}

