import type { ServiceContext } from '../common/languageService';
import type { HoverResult } from '../common/types';
import { codeBlock, escapeMarkdown, inlineCode } from '../common/markdown';
import { decodeString, keySpan, valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { callsFor, locate, referenceAt } from './locate';
import { fieldDoc, renderFieldDoc, roleDocs } from './fieldDocs';
import { callLabel, contentText, firstLines } from './text';

const outputLines = 6;
const outputChars = 600;

function describeCall(model: TraceModel, call: ToolCall): string {
  return `${inlineCode(callLabel(model, call, 120))} — event #${call.event.index}${call.id !== undefined ? `, id ${inlineCode(call.id)}` : ''}`;
}

function describeOutput(model: TraceModel, output: TraceEvent): string {
  const { text } = contentText(model, output, outputChars + 200);
  const how = output.implicit ? ' (implicit: it has no tool_call_id)' : '';
  return `Output in event #${output.index}${how}:\n${codeBlock(firstLines(text, outputLines, outputChars) || '(empty)')}`;
}

export function hover(model: TraceModel, offset: number, _context: ServiceContext): HoverResult | null {
  const ref = referenceAt(model, offset);
  if (ref) {
    const parts: string[] = [];
    if (ref.kind === 'tool-call-id') {
      const calls = callsFor(model, ref.event);
      if (calls.length === 0) parts.push(`**tool_call_id** ${inlineCode(ref.event.callId ?? '')} names no tool call in this trace.`);
      for (const call of calls) {
        const later = call.event.index > ref.event.index ? ' (made later: an output must come after its call)' : '';
        parts.push(`**Answers** ${describeCall(model, call)}${later}`);
      }
      parts.push(describeOutput(model, ref.event));
    } else if (ref.call) {
      const call = ref.call;
      parts.push(`**Tool call** ${describeCall(model, call)}`);
      if (call.outputs.length === 0) parts.push('No tool output answers this call.');
      for (const output of call.outputs.slice(0, 3)) parts.push(describeOutput(model, output));
      if (call.outputs.length > 3) parts.push(`… and ${call.outputs.length - 3} more outputs.`);
    }
    return { span: ref.span, markdown: parts.join('\n\n') };
  }

  const location = locate(model, offset);
  if (!location?.field) return null;
  const f = location.field;
  const options = { output: location.event?.kind === 'output', topLevelCall: location.event?.kind === 'call' && location.shape === 'event' };
  if (location.on === 'value' && location.event?.kind === 'output' && location.event.implicit && location.shape === 'event' && f.name === 'role' && f.value) {
    const call = location.event.answers;
    const text = call ? `This output has no tool_call_id: it answers ${describeCall(model, call)}` : 'This output has no tool_call_id and answers no call.';
    return { span: valueSpan(f.value), markdown: `${roleDocs.tool}\n\n${text}` };
  }
  if (location.on === 'value' && location.shape === 'event' && f.name === 'role' && f.value?.kind === 'string') {
    const role = decodeString(model.text, f.value, 40);
    const text = Object.hasOwn(roleDocs, role) ? roleDocs[role] : `**${escapeMarkdown(role)}** — a role this format does not define; tools treat it as an ordinary message.`;
    return { span: valueSpan(f.value), markdown: text };
  }
  if (location.on !== 'key') return null;
  const d = fieldDoc(location.shape, f.name, options);
  if (!d) return null;
  return { span: keySpan(f), markdown: renderFieldDoc(f.name, d) };
}
