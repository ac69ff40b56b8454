/**
 * Small Claude Code sessions written by the tests, record by record, in the shape Claude Code 2.1 writes them (see
 * `../shared/corpus/formats/claude-code/short.jsonl`: compact JSON, `parentUuid` first, one content block per line).
 */
export interface RecordOptions {
  parent?: string | null;
  time?: string;
  extra?: Record<string, unknown>;
}

let clock = Date.parse('2026-02-12T16:00:00.000Z');

function base(type: string, uuid: string, options: RecordOptions): Record<string, unknown> {
  clock += 1000;
  return {
    parentUuid: options.parent === undefined ? null : options.parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/user/project',
    sessionId: 'test-session',
    version: '2.1.39',
    gitBranch: 'main',
    type,
    uuid,
    timestamp: options.time ?? new Date(clock).toISOString(),
    ...options.extra,
  };
}

/** A prompt typed by the user. */
export function prompt(uuid: string, text: string, options: RecordOptions = {}): string {
  return JSON.stringify({ ...base('user', uuid, options), message: { role: 'user', content: text } });
}

/** One line of an assistant message (`id` shared by the lines of one message). */
export function reply(uuid: string, id: string, block: Record<string, unknown>, options: RecordOptions = {}): string {
  return JSON.stringify({ ...base('assistant', uuid, options), message: { model: 'claude-opus-4-6', id, type: 'message', role: 'assistant', content: [block] } });
}

export const text = (value: string) => ({ type: 'text', text: value });
export const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });

/** A user record answering a call. */
export function result(uuid: string, toolUseId: string, content: unknown, options: RecordOptions & { error?: boolean } = {}): string {
  const block: Record<string, unknown> = { tool_use_id: toolUseId, type: 'tool_result', content };
  if (options.error) block.is_error = true;
  return JSON.stringify({ ...base('user', uuid, options), message: { role: 'user', content: [block] }, toolUseResult: { stdout: String(content) } });
}

export function snapshot(messageId: string): string {
  return JSON.stringify({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: {}, timestamp: new Date(clock).toISOString() }, isSnapshotUpdate: false });
}

export const session = (...records: string[]) => `${records.join('\n')}\n`;
