import type { HoverResult } from '../../common/types';
import { escapeMarkdown, inlineCode, quote } from '../../common/markdown';
import { propertyValue, stringValue } from '../../json/queries';
import type { Place } from '../locate';
import { clip } from '../strings';
import { formatCost, formatDuration } from '../../../../shared/format';
import { entryFacts, llmSummary } from './facts';
import { STATUS_DOCS, VALIDATION_KIND_DOCS, describeFieldType, specAt, timestampKey } from './schema';

/** A field's type and meaning, a status or validation kind explained, a call's summary, its timing. */
export function agentguardHover(place: Place): HoverResult | null {
  const last = place.steps[place.steps.length - 1];
  const facts = entryFacts(place.line);
  const path = place.path;
  if (last.onKey && last.property) {
    const spec = specAt(path);
    if (!spec) return null;
    const span = { start: last.property.keyStart, end: last.property.keyEnd };
    const name = path.filter((p) => typeof p === 'string').join('.');
    const parts = [`**${escapeMarkdown(name)}**: ${describeFieldType(spec)}`, '', spec.doc];
    if (spec.values) parts.push('', `Values: ${spec.values.map((v) => inlineCode(v)).join(', ')}`);
    if (spec.type === 'number' && !spec.nullable) parts.push('', '_null here means the value was NaN or infinite when it was recorded._');
    if (facts.isLlm && (path[1] === 'usage' || path[1] === 'cost' || path[1] === 'model' || path[1] === 'cost_breakdown')) {
      parts.push('', `LLM spend: ${escapeMarkdown(llmSummary(facts) || 'no usage recorded')}`);
    }
    return { span, markdown: parts.join('\n') };
  }
  const node = last.node;
  if (node.type !== 'string') return null;
  const span = { start: node.start, end: node.end };
  const field = path[path.length - 1];
  if (path[0] === 'result' && field === 'status' && path.length === 2) {
    const doc = Object.hasOwn(STATUS_DOCS, node.value) ? STATUS_DOCS[node.value] : undefined;
    const failed = facts.failed ? ' — counts as a **failure**' : '';
    return { span, markdown: doc ? `**status ${inlineCode(node.value)}**${failed}\n\n${doc}${facts.exception ? `\n\n${quote(clip(facts.exception, 300))}` : ''}` : `Unknown status ${inlineCode(node.value)}` };
  }
  if (path[1] === 'validations' && field === 'kind') {
    const doc = Object.hasOwn(VALIDATION_KIND_DOCS, node.value) ? VALIDATION_KIND_DOCS[node.value] : undefined;
    return doc ? { span, markdown: `**validation kind ${inlineCode(node.value)}**\n\n${doc}` } : null;
  }
  if (field === 'tool_name' || field === 'call_id') return { span, markdown: entrySummary(place, facts) };
  if (field === 'timestamp' && path.length === 2) return timestampHover(place, span);
  return null;
}

/** When the call started or finished, and how long the whole call took from the caller's side. */
function timestampHover(place: Place, span: { start: number; end: number }): HoverResult | null {
  const root = place.line.root;
  const started = stringValue(propertyValue(propertyValue(root, 'call'), 'timestamp'));
  const finished = stringValue(propertyValue(propertyValue(root, 'result'), 'timestamp'));
  const startKey = started === undefined ? undefined : timestampKey(started);
  const finishKey = finished === undefined ? undefined : timestampKey(finished);
  const which = place.path[0] === 'call' ? 'Call started' : 'Result recorded';
  const lines = [`**${which}** ${escapeMarkdown(String(place.path[0] === 'call' ? started : finished))}`];
  if (startKey && finishKey) {
    const micros = (finishKey.ms - startKey.ms) * 1000 + (Number(finishKey.fraction.slice(0, 6)) - Number(startKey.fraction.slice(0, 6)));
    lines.push('', `${(micros / 1000).toFixed(3)} ms from call to result (wall clock, including guards and retries).`);
  }
  return { span, markdown: lines.join('\n') };
}

function entrySummary(place: Place, facts: ReturnType<typeof entryFacts>): string {
  const lines = [`**${facts.isLlm ? 'LLM call' : 'Tool call'} ${inlineCode(facts.toolName ?? '?')}** (line ${place.line.number + 1})`, ''];
  const status = facts.status ?? 'no status';
  lines.push(`- status: ${inlineCode(status)}${facts.failed ? ' (failed)' : ''}`);
  lines.push(`- duration: ${formatDuration(facts.durationMs)}`);
  if (facts.retries) lines.push(`- retries: ${facts.retries}`);
  if (typeof facts.cost === 'number') lines.push(`- cost: ${formatCost(facts.cost)}`);
  if (facts.isLlm) {
    if (facts.provider || facts.model) lines.push(`- model: ${escapeMarkdown([facts.provider, facts.model].filter(Boolean).join(' / '))}`);
    if (facts.inputTokens || facts.outputTokens || facts.totalTokens) {
      lines.push(`- tokens: ${facts.inputTokens ?? '?'} in, ${facts.outputTokens ?? '?'} out${facts.totalTokens ? `, ${facts.totalTokens} total` : ''}`);
    }
  }
  if (facts.exception) lines.push('', quote(clip(facts.exception, 300)));
  return lines.join('\n');
}
