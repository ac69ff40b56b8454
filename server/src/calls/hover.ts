/** Hover on an id: the call as `name(args)`, where it is, its outputs, and who answers whom. */
import type { HoverResult } from '../common/types';
import { codeBlock, inlineCode } from '../common/markdown';
import { firstLines } from '../common/text';
import type { LinkedCall, LinkedCalls, LinkedOutput } from './model';
import { callsFor, linkAt, type LinkEnd } from './locate';
import { callDuration } from './timing';
import { formatDuration } from '../../../shared/format';
import { spanOf } from '../common/spans';

const outputLines = 6;
const outputChars = 600;
const listedOutputs = 3;

/** `` `name(args)` — event #3, id `x` `` */
export function describeCall(model: LinkedCalls, call: LinkedCall): string {
  const format = model.format;
  return `${inlineCode(format.callLabel(model, call, 120))} — ${format.stepName(call.step)}${call.id !== undefined ? `, id ${inlineCode(call.id)}` : ''}`;
}

function describeOutput(model: LinkedCalls, output: LinkedOutput): string {
  const format = model.format;
  const { text } = format.outputText(model, output, outputChars + 200);
  const how = output.inferred !== undefined ? ` (the link is ${output.inferred})` : output.implicit ? ` (implicit: it has no ${format.outputIdKey})` : '';
  const failed = output.isError ? ' (the tool reports an error)' : '';
  const where = format.stepName(output.step);
  return `Output in ${where}${how}${failed}:\n${codeBlock(firstLines(text, outputLines, outputChars) || '(empty)')}`;
}

/** The hover on a call's id or on an output's id, or null elsewhere. */
export function idHover(model: LinkedCalls, offset: number): HoverResult | null {
  const end = linkAt(model, offset);
  return end ? linkHover(model, end) : null;
}

/** The hover on one end of a link: the call and its outputs, or the output and the call it answers. */
export function linkHover(model: LinkedCalls, end: LinkEnd): HoverResult {
  const format = model.format;
  const parts: string[] = [];
  if (end.kind === 'output') {
    const output = end.output;
    const calls = callsFor(model, output);
    if (calls.length === 0) parts.push(`**${format.outputIdKey}** ${inlineCode(output.callId ?? '')} names no ${format.callWord} in this ${format.whole}.`);
    for (const call of calls) {
      const later = call.step.index > output.step.index ? ' (made later: an output must come after its call)' : '';
      const duration = call.outputs[0] === output ? callDuration(call) : undefined;
      const took = duration === undefined ? '' : call.durationMs !== undefined ? `, ran ${formatDuration(duration)}` : `, ${formatDuration(duration)} before`;
      parts.push(`**Answers** ${describeCall(model, call)}${later}${took}`);
    }
    parts.push(describeOutput(model, output));
  } else {
    const call = end.call;
    const duration = callDuration(call);
    parts.push(`**Tool call** ${describeCall(model, call)}${duration !== undefined ? ` · took ${formatDuration(duration)}` : ''}`);
    if (call.outputs.length === 0) parts.push(`No ${format.outputWord} answers this call.`);
    for (const output of call.outputs.slice(0, listedOutputs)) parts.push(describeOutput(model, output));
    if (call.outputs.length > listedOutputs) parts.push(`… and ${call.outputs.length - listedOutputs} more outputs.`);
  }
  return { span: spanOf(end.span), markdown: parts.join('\n\n') };
}
