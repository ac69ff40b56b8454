import type { Line } from '../lines';
import { entryFacts } from './facts';

/** The tool an agentguard entry calls. */
export function agentguardCalledTool(line: Line): string | undefined {
  return entryFacts(line).toolName;
}
