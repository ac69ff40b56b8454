import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { OutlineItem } from '../../../server/src/common/types';
import { jsonlService, type LinesModel } from '../../../server/src/jsonl';

export { corpus, corpusOrSkip } from '../corpus';

export const context: ServiceContext = { settings: defaultSettings };

export function parse(text: string, uri = 'file:///rollout-2025-01-04T09-00-00-golden.jsonl'): LinesModel {
  return jsonlService.parse({ uri, version: 1, text });
}

/** The outline as indented lines `name | detail`, easy to compare exactly. */
export function outlineLines(items: OutlineItem[], depth = 0): string[] {
  return items.flatMap((item) => [`${'  '.repeat(depth)}${item.name}${item.detail ? ` | ${item.detail}` : ''}`, ...outlineLines(item.children ?? [], depth + 1)]);
}

/** One rollout record as Codex writes it: `{timestamp, type, payload}` on one line. */
export function record(second: number, type: string, payload: Record<string, unknown>): string {
  const time = new Date(Date.UTC(2025, 0, 4, 9, 0, second)).toISOString();
  return JSON.stringify({ timestamp: time, type, payload });
}

export const meta = (id = 'generated-001') => record(0, 'session_meta', {
  id, timestamp: '2025-01-04T09:00:00.000Z', cwd: '/home/testuser/project', originator: 'codex_cli_rs', cli_version: '0.77.0', source: 'cli', model_provider: 'openai',
});
export const user = (second: number, text: string) => record(second, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
export const assistant = (second: number, text: string) => record(second, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
export const shellCall = (second: number, callId: string, command: string) =>
  record(second, 'response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }), call_id: callId });
export const output = (second: number, callId: string, text: string) => record(second, 'response_item', { type: 'function_call_output', call_id: callId, output: text });
export const tokens = (second: number, total: number, last: number) => record(second, 'event_msg', {
  type: 'token_count',
  info: { total_token_usage: { input_tokens: total - 10, output_tokens: 10, total_tokens: total }, last_token_usage: { input_tokens: last - 5, output_tokens: 5, total_tokens: last }, model_context_window: 128000 },
});
