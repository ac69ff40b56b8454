/** How a Claude Code session names its calls, outputs and records in messages and hovers. */
import type { CallFormat } from '../../calls/model';
import { compactObject } from '../../calls/labels';
import { decodeJsonString } from '../../json/strings';
import { parseJsonValue } from '../../json/readJson';
import { property } from '../../json/queries';
import type { Span } from '../../common/types';
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
  const name = call.name ?? '?';
  const input = call.inputSpan;
  const room = Math.max(8, max - name.length - 2);
  const args = input ? compactObject(text.slice(input.start, Math.min(input.end, input.start + room * 8)), room) : '';
  return `${name}(${args})`;
}

/** `Bash: npm test`: the tool and what it works on, as the outline and the preview title a call. */
export function callTitle(call: SessionCall, max: number): string {
  const name = call.name ?? '?';
  const key = call.tool.keyArgument;
  return shorten(key ? `${name}: ${key}` : name, max);
}

/** The text of a tool_result's content: a string decoded, or its text blocks joined (`[image]` for images). */
export function resultText(text: TextSource, content: Span | undefined, max: number): { text: string; length: number } {
  if (!content) return { text: '', length: 0 };
  if (text.charCodeAt(content.start) === 0x22) {
    const decoded = decodeJsonString(text, content.start + 1, content.end - 1, max);
    return { text: decoded, length: decoded.length < max ? decoded.length : content.end - content.start - 2 };
  }
  const { root } = parseJsonValue(text.toString(), content.start, content.end);
  if (root?.type !== 'array') return { text: text.slice(content.start, Math.min(content.end, content.start + max)), length: content.end - content.start };
  const parts: string[] = [];
  let length = 0;
  for (const item of root.items) {
    const type = property(item, 'type')?.value;
    const kind = type?.type === 'string' ? type.value : '';
    const value = property(item, 'text')?.value;
    const part = kind === 'text' && value?.type === 'string' ? value.value : kind === 'image' ? '[image]' : kind ? `[${kind}]` : '';
    parts.push(part);
    length += part.length + 1;
  }
  const joined = parts.join('\n');
  return { text: joined.length > max ? joined.slice(0, max) : joined, length: Math.max(0, length - 1) };
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

