/**
 * Hover in a Claude Code session: on a tool_use id or a tool_use_id, the call and its result (the shared hover);
 * on a record id, the record it names and who follows it; on a record or block type, a tool's name and a field,
 * what Claude Code uses it for; on an agentId, the subagent's run.
 */
import type { HoverResult, Span } from '../../common/types';
import { escapeMarkdown, inlineCode } from '../../common/markdown';
import { ownEntry } from '../../common/lookup';
import { idHover, describeCall } from '../../calls/hover';
import type { Place } from '../locate';
import type { LinesModel } from '../lines';
import { fieldDocs, recordTypeDocs, toolDocs } from './docs';
import { blockDocs } from '../../anthropic/blocks';
import { blockAsEvents } from '../../calls/anthropicEvents';
import { recordSummary, subagentFile } from './describe';
import { sessionOf, stepOfLine } from './session';
import type { RecordStep, SessionModel } from './types';

/** Keys whose value names another record by its uuid. */
const uuidKeys = new Set(['parentUuid', 'logicalParentUuid', 'leafUuid', 'uuid']);

export function sessionHover(model: LinesModel, place: Place, offset: number): HoverResult | null {
  const session = sessionOf(model);
  const onId = idHover(session, offset);
  if (onId) return onId;
  const step = stepOfLine(session, place.line);
  const last = place.steps[place.steps.length - 1];
  const path = place.path;
  if (last.onKey && last.property) {
    const span = { start: last.property.keyStart, end: last.property.keyEnd };
    const doc = path.length === 1 ? ownEntry(fieldDocs, last.property.key) : undefined;
    if (!doc) return null;
    const type = step?.facts.type;
    return { span, markdown: `**${escapeMarkdown(last.property.key)}**${type ? ` (Claude Code ${inlineCode(type)} record)` : ''}\n\n${doc}` };
  }
  const node = last.node;
  if (node.type !== 'string' || !step) return null;
  const span: Span = { start: node.start, end: node.end };
  const key = path[path.length - 1];
  if (path.length === 1 && typeof key === 'string' && uuidKeys.has(key)) return uuidHover(session, step, key, node.value, span);
  if (path.length === 1 && key === 'type') {
    const doc = ownEntry(recordTypeDocs, node.value);
    return { span, markdown: doc ? `**${escapeMarkdown(node.value)}** record\n\n${doc}` : `**${escapeMarkdown(node.value)}**: a record type the known versions of Claude Code do not write.` };
  }
  if (path[0] === 'message' && path[1] === 'content' && key === 'type' && path.length === 4) {
    const doc = ownEntry(blockDocs, node.value);
    // Rules see the live conversation's messages: a block of an abandoned branch or a side chain's echo is not seen.
    const seen = step.abandoned ? 'Rules do not see it: its record is on an abandoned branch, not the live conversation.' : blockAsEvents(place.steps[place.steps.length - 2].node);
    return doc ? { span, markdown: `**${escapeMarkdown(node.value)}** block\n\n${doc}${seen ? `\n\n${seen}` : ''}` } : null;
  }
  if (path[0] === 'message' && path[1] === 'content' && key === 'name' && path.length === 4) return toolHover(session, node.value, span);
  if (key === 'agentId') return agentHover(session, node.value, span);
  if (path.length === 1 && (key === 'toolUseID' || key === 'parentToolUseID')) {
    const call = session.callsById.get(node.value)?.[0];
    return call ? { span, markdown: `**${key}**: ${describeCall(session, call)}` } : null;
  }
  return null;
}

function uuidHover(session: SessionModel, step: RecordStep, key: string, uuid: string, span: Span): HoverResult {
  const parts: string[] = [];
  if (key === 'uuid') {
    parts.push(`**uuid** of this ${inlineCode(step.facts.type ?? 'record')} record.`);
    const children = session.children.get(uuid) ?? [];
    if (children.length > 0) parts.push(`Followed by ${children.length === 1 ? 'the record' : `${children.length} records`} on line${children.length === 1 ? '' : 's'} ${children.slice(0, 8).map((child) => child.index + 1).join(', ')}${children.length > 8 ? ', …' : ''}.`);
  } else {
    const named = session.byUuid.get(uuid);
    const what = key === 'parentUuid' ? 'Follows' : key === 'leafUuid' ? 'Summarises the conversation ending at' : 'Continues, after a compaction,';
    parts.push(named ? `**${key}**: ${what} ${recordSummary(session, named)}` : `**${key}** ${inlineCode(uuid)}: no record of this session has this id${key === 'logicalParentUuid' ? ' (the record before the compaction was not kept in the file)' : ''}.`);
  }
  if (step.abandoned) parts.push('_This record is on an abandoned branch: the conversation went on from another record._');
  return { span, markdown: parts.join('\n\n') };
}

function toolHover(session: SessionModel, name: string, span: Span): HoverResult {
  const doc = ownEntry(toolDocs, name) ?? (name.startsWith('mcp__') ? `A tool of the MCP server ${inlineCode(name.split('__')[1] ?? '')}.` : 'A tool this session\'s agent was given.');
  const calls = session.calls.filter((call) => call.name === name);
  const failed = calls.filter((call) => call.outputs.some((output) => output.isError)).length;
  const counts = `${calls.length} call${calls.length === 1 ? '' : 's'} in this session${failed > 0 ? `, ${failed} failed` : ''}.`;
  return { span, markdown: `**${escapeMarkdown(name)}** (tool)\n\n${doc}\n\n${counts}` };
}

function agentHover(session: SessionModel, agentId: string, span: Span): HoverResult {
  const run = [...session.subagents.values()].find((candidate) => candidate.agentId === agentId);
  const parts = [`**Subagent** ${inlineCode(agentId)}: its own records are in ${inlineCode(subagentFile(session.lines.uri, agentId).name)}.`];
  if (run) parts.push(`Started by ${describeCall(session, run.call)}; ${run.echoes.length} of its messages are echoed in this file.`);
  return { span, markdown: parts.join('\n\n') };
}
