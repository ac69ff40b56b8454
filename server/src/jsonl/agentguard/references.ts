import type { Target } from '../../common/types';
import { contains } from '../../json/queries';
import type { Line, LinesModel } from '../lines';
import { entryFacts } from './facts';

/** A call id's two mentions (call and result); a tool name's calls across the log. */
export function agentguardReferences(model: LinesModel, line: Line, offset: number, includeDeclaration: boolean): Target[] {
  const facts = entryFacts(line);
  const { callId, resultCallId } = facts;
  if (callId && resultCallId && (contains(callId, offset) || contains(resultCallId, offset))) {
    const targets: Target[] = [];
    if (includeDeclaration) targets.push({ span: { start: callId.start, end: callId.end } });
    targets.push({ span: { start: resultCallId.start, end: resultCallId.end } });
    return targets;
  }
  const toolName = facts.toolNameNode;
  if (toolName && contains(toolName, offset)) {
    const targets: Target[] = [];
    for (const other of model.contentLines) {
      if (other.kind !== 'agentguard') continue;
      const otherName = entryFacts(other).toolNameNode;
      if (otherName && otherName.value === toolName.value) targets.push({ span: { start: otherName.start, end: otherName.end } });
    }
    return targets;
  }
  return [];
}
