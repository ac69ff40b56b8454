import type { Target } from '../../common/types';
import { contains } from '../../json/queries';
import type { Line, LinesModel } from '../lines';
import { references } from '../../calls/references';
import { agentguardCalls } from './calls';
import { entryFacts } from './facts';

/** A call id's mentions (call and result); a tool name's calls across the log. */
export function agentguardReferences(model: LinesModel, line: Line, offset: number, includeDeclaration: boolean): Target[] {
  const linked = references(agentguardCalls(model), offset, includeDeclaration);
  if (linked.length > 0) return linked;
  const toolName = entryFacts(line).toolNameNode;
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
