/** Short descriptions of a session's records and where a subagent's file is, for hovers and navigation. */
import { escapeMarkdown, inlineCode } from '../../common/markdown';
import { shorten } from '../../common/text';
import { callTitle } from './format';
import type { RecordStep, SessionModel } from './types';

/** `` the `user` record on line 7 (16:02:25): Work on bead… `` */
export function recordSummary(session: SessionModel, step: RecordStep): string {
  const facts = step.facts;
  const when = facts.time !== undefined ? ` (${new Date(facts.time).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')})` : '';
  const what = recordText(step);
  return `the ${inlineCode(facts.type ?? 'record')} record on line ${step.index + 1}${when}${what ? `: ${escapeMarkdown(shorten(what, 160))}` : ''}`;
}

/** What a record says, in one line: a prompt's text, a reply's text or calls, a result, an event. */
export function recordText(step: RecordStep): string {
  const facts = step.facts;
  const message = facts.message;
  if (message?.text !== undefined) return message.text;
  if (message) {
    const parts: string[] = [];
    for (const call of step.calls) parts.push(callTitle(call, 80));
    for (const output of step.heldOutputs) parts.push(`${output.isError ? 'error' : 'result'}: ${output.result.preview}`);
    for (const block of message.blocks) if ((block.type === 'text' || block.type === 'thinking') && block.preview) parts.push(block.type === 'thinking' ? `(thinking) ${block.preview}` : block.preview);
    return parts.join(' · ');
  }
  if (facts.subtype) return facts.text ? `${facts.subtype}: ${facts.text}` : facts.subtype;
  return facts.text ?? facts.progress?.dataType ?? '';
}

/** A subagent's own file: `<session>/subagents/agent-<id>.jsonl` beside the session (or beside a subagent's file). */
export function subagentFile(sessionUri: string, agentId: string): { uri: string; name: string } {
  const name = `agent-${agentId}.jsonl`;
  const cut = sessionUri.search(/[?#]/);
  const path = cut < 0 ? sessionUri : sessionUri.slice(0, cut);
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash);
  const file = path.slice(slash + 1);
  if (/\/subagents$/.test(folder)) return { uri: `${folder}/${name}`, name: `subagents/${name}` };
  const stem = file.replace(/\.jsonl$/i, '');
  return { uri: `${folder}/${stem}/subagents/${name}`, name: `${decodeURIComponentSafe(stem)}/subagents/${name}` };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
