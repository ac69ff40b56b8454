import { numberValue, property, stringValue } from '../../json/queries';
import type { JsonNode, JsonString } from '../../json/nodes';
import type { Line } from '../lines';
import { formatCost } from '../../../../shared/format';
import { isFailedStatus } from './schema';

/** The facts of one agentguard entry the outline, hover and graph show. */
export interface EntryFacts {
  call?: JsonNode;
  result?: JsonNode;
  callId?: JsonString;
  resultCallId?: JsonString;
  toolName?: string;
  toolNameNode?: JsonString;
  status?: string;
  failed: boolean;
  durationMs?: number;
  /** Source text of execution_time_ms, for display without rounding surprises. */
  durationRaw?: string;
  retries?: number;
  cost?: number | null;
  isLlm: boolean;
  model?: string;
  provider?: string;
  inputTokens?: string;
  outputTokens?: string;
  totalTokens?: string;
  exception?: string;
}

const cache = new WeakMap<Line, EntryFacts>();

export function entryFacts(line: Line): EntryFacts {
  let facts = cache.get(line);
  if (!facts) {
    facts = readFacts(line.root);
    cache.set(line, facts);
  }
  return facts;
}

function readFacts(root: JsonNode | undefined): EntryFacts {
  const call = property(root, 'call')?.value;
  const result = property(root, 'result')?.value;
  const callId = property(call, 'call_id')?.value;
  const resultCallId = property(result, 'call_id')?.value;
  const toolNameNode = property(call, 'tool_name')?.value;
  const toolName = stringValue(toolNameNode) ?? stringValue(property(result, 'tool_name')?.value);
  const status = stringValue(property(result, 'status')?.value);
  const duration = property(result, 'execution_time_ms')?.value;
  const costNode = property(result, 'cost')?.value;
  const usage = property(result, 'usage')?.value;
  const rawNumber = (node: JsonNode | undefined): string | undefined => (node?.type === 'number' ? node.raw : undefined);
  const costFromBreakdown = numberValue(property(property(result, 'cost_breakdown')?.value, 'total_cost_usd')?.value);
  return {
    call,
    result,
    callId: callId?.type === 'string' ? callId : undefined,
    resultCallId: resultCallId?.type === 'string' ? resultCallId : undefined,
    toolName,
    toolNameNode: toolNameNode?.type === 'string' ? toolNameNode : undefined,
    status,
    failed: isFailedStatus(status),
    durationMs: numberValue(duration),
    durationRaw: rawNumber(duration),
    retries: numberValue(property(result, 'retry_count')?.value),
    cost: costNode?.type === 'number' ? Number(costNode.raw) : costFromBreakdown ?? (costNode?.type === 'null' ? null : undefined),
    isLlm: toolName !== undefined && toolName.startsWith('llm.'),
    model: stringValue(property(result, 'model')?.value),
    provider: stringValue(property(result, 'provider')?.value),
    inputTokens: rawNumber(property(usage, 'input_tokens')?.value),
    outputTokens: rawNumber(property(usage, 'output_tokens')?.value),
    totalTokens: rawNumber(property(usage, 'total_tokens')?.value),
    exception: stringValue(property(result, 'exception')?.value),
  };
}

/** `gpt-4o, 1200 tokens, $0.0123` for LLM spend entries. */
export function llmSummary(facts: EntryFacts): string {
  const parts: string[] = [];
  if (facts.model) parts.push(facts.model);
  const tokens = facts.totalTokens ?? sumTokens(facts.inputTokens, facts.outputTokens);
  if (tokens !== undefined) parts.push(`${tokens} tokens`);
  if (typeof facts.cost === 'number') parts.push(formatCost(facts.cost));
  return parts.join(', ');
}

function sumTokens(input?: string, output?: string): string | undefined {
  if (input === undefined && output === undefined) return undefined;
  return (BigInt(input ?? '0') + BigInt(output ?? '0')).toString();
}
