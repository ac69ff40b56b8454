import type { TraceModel } from './model';

/** How often each tool is called in the trace, for the workspace's tool index (`tool:` in rule files). */
export function calledTools(model: TraceModel, into = new Map<string, number>()): Map<string, number> {
  for (const call of model.calls) {
    if (call.name !== undefined) into.set(call.name, (into.get(call.name) ?? 0) + 1);
  }
  return into;
}
