import { entryFacts } from '../agentguard/facts';
import type { LinesModel } from '../jsonl/lines';
import { isTraceLine, traceModelOf } from './traceBridge';

/** How often each tool is called in the file: agentguard entries by tool_name, dataset traces by their calls. */
export function calledTools(model: LinesModel): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string | undefined): void => {
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  for (const line of model.contentLines) {
    if (line.kind === 'agentguard') add(entryFacts(line).toolName);
    else if (isTraceLine(line) && line.errors.length === 0) for (const call of traceModelOf(model, line).calls) add(call.name);
  }
  return counts;
}
