/**
 * The problems of the links between calls and outputs, for every format: an output naming no call, or a call made
 * after it; an output that names none and answers the latest call (a hint); a call id used again; a call never
 * answered. Codes start with the format's prefix (`trace/unknown-call-id`).
 */
import type { Problem, Severity, Span } from '../common/types';
import type { LinkedCall, LinkedCalls, LinkedOutput } from './model';
import { spanOf } from '../common/spans';

export type AddProblem = (span: Span, severity: Severity, code: string, message: string, related?: Problem['related'], suggestion?: string) => void;

export function linkProblems(model: LinkedCalls, addProblem: AddProblem): void {
  const add: AddProblem = (span, severity, code, message, related, suggestion) =>
    addProblem(spanOf(span), severity, code, message, related?.map((info) => ({ span: spanOf(info.span), message: info.message })), suggestion);
  duplicateIds(model, add);
  const format = model.format;
  const code = (name: string) => `${format.codePrefix}/${name}`;
  const outputs = model.outputs;
  for (let i = 0; i < outputs.length; i++) {
    const output = outputs[i];
    // An answered output (most of them) is passed at once: this runs on every check.
    if (output.callId !== undefined && output.answers) continue;
    if (output.callId !== undefined && output.idSpan) {
      const named = model.callsById.get(output.callId);
      if (named && named.length > 0) {
        const later = named[0];
        add(output.idSpan, 'error', code('call-id-later'),
          `${format.outputIdKey} "${output.callId}" names a call made later, in ${format.stepName(later.step)} (${format.callLabel(model, later, 60)}); an output must come after its call`,
          [{ span: later.idSpan ?? later.span, message: `the call "${output.callId}"` }]);
      } else {
        const known = format.unknownCallId?.(model, output);
        const message = `${format.outputIdKey} "${output.callId}" names no ${format.callWord} in this ${format.whole}${known ? `: ${known.note}` : ''}`;
        add(output.idSpan, known?.severity ?? 'error', code('unknown-call-id'), message, known?.related, known?.suggestion);
      }
    } else if (output.implicit) {
      const call = output.answers;
      add(output.linkSpan, 'hint', code('implicit-output'), call
        ? `This ${format.outputWord} has no ${format.outputIdKey}, so it answers the latest call before it: ${format.callLabel(model, call, 60)}${call.id !== undefined ? ` (id "${call.id}")` : ''} in ${format.stepName(call.step)}`
        : `This ${format.outputWord} has no ${format.outputIdKey} and no ${format.callWord} comes before it, so it answers none`);
    }
  }
  const calls = model.calls;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (call.outputs.length > 0) continue;
    const how = format.unanswered ? format.unanswered(model, call) : undefined;
    if (how === null) continue;
    const at = call.idSpan ?? call.nameSpan;
    const span = at ?? { start: call.span.start, end: call.span.start + 1 };
    const tool = call.name !== undefined ? ` to "${call.name}"` : '';
    add(span, how?.severity ?? 'information', code('unanswered-call'),
      `No ${format.outputWord} answers this call${tool}${call.id !== undefined ? ` (id "${call.id}")` : ''}${how ? `: ${how.note}` : ''}`);
  }
}

/**
 * A repeated call id. The analyzer links an output to the latest call with its id, so a repeat is ambiguous (an
 * error) only when an output comes after two or more still-unanswered calls with that id; otherwise every link is
 * clear and the repeat is a warning (model providers reject repeated ids).
 */
function duplicateIds(model: LinkedCalls, add: AddProblem): void {
  // `add` copies the spans (see linkProblems).
  const format = model.format;
  const code = `${format.codePrefix}/duplicate-call-id`;
  // No id is used twice when the index has a key for every call with an id (nearly every trace): nothing to look at.
  let callsWithId = 0;
  for (let i = 0; i < model.calls.length; i++) if (model.calls[i].id !== undefined) callsWithId++;
  if (callsWithId === model.callsById.size) return;
  const ambiguousCalls = new Map<LinkedCall, LinkedOutput>();
  const outputs = model.outputs;
  for (let i = 0; i < outputs.length; i++) {
    const output = outputs[i];
    if (output.ambiguous) for (const call of output.ambiguous) if (!ambiguousCalls.has(call)) ambiguousCalls.set(call, output);
  }
  for (const calls of model.callsById.values()) {
    if (calls.length < 2) continue;
    const first = calls[0];
    for (let i = 1; i < calls.length; i++) {
      const call = calls[i];
      const span = call.idSpan!;
      const related = [{ span: first.idSpan!, message: `first use of "${first.id}"` }];
      const output = ambiguousCalls.get(call);
      if (output) {
        const pending = output.ambiguous!;
        add(span, 'error', code,
          `Duplicate ${format.callWord} id "${call.id}": the output in ${format.stepName(output.step)} comes after ${pending.length} unanswered calls with this id (${format.stepsName(pending.map((c) => c.step))}), so which one it answers is ambiguous (the analyzer links it to the latest, in ${format.stepName(pending[pending.length - 1].step)})`,
          [...related, { span: output.linkSpan, message: `the output naming "${call.id}"` }]);
      } else {
        add(span, 'warning', code,
          `Duplicate ${format.callWord} id "${call.id}": already used in ${format.stepName(first.step)}; model providers reject repeated ids (the analyzer links each output to the latest call with its id, so every link here is clear)`,
          related);
      }
    }
  }
}
