import type { ServiceContext } from '../common/languageService';
import type { HoverResult } from '../common/types';
import { escapeMarkdown } from '../common/markdown';
import { decodeString, keySpan, valueSpan, type TraceModel } from './model';
import { locate } from './locate';
import { fieldDoc, renderFieldDoc, roleDocs } from './fieldDocs';
import { describeCall, idHover } from '../calls/hover';
import { traceCalls } from './calls';

export function hover(model: TraceModel, offset: number, _context: ServiceContext): HoverResult | null {
  const onId = idHover(traceCalls(model), offset);
  if (onId) return onId;

  const location = locate(model, offset);
  if (!location?.field) return null;
  const f = location.field;
  const options = { output: location.event?.kind === 'output', topLevelCall: location.event?.kind === 'call' && location.shape === 'event' };
  if (location.on === 'value' && location.event?.kind === 'output' && location.event.implicit && location.shape === 'event' && f.name === 'role' && f.value) {
    const call = location.event.answers;
    const text = call ? `This output has no tool_call_id: it answers ${describeCall(traceCalls(model), call)}` : 'This output has no tool_call_id and answers no call.';
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
