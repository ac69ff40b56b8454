/**
 * Inspect AI logs written for the tests, in the shape of the corpus's `inspect/log_read_sample.json` (a version 2
 * log with its eval, plan, results and stats; samples with message ids, events, model_usage and total_time), with
 * what the corpus's logs lack: agentic samples whose assistant messages call tools.
 */

export interface ToolCallSpec { id: string; fn: string; args: Record<string, unknown>; parse_error?: string }

export const system = (content: string, id = 'sys') => ({ id, role: 'system', content });
export const user = (content: unknown, id = 'usr') => ({ id, role: 'user', source: 'input', content });
export const assistant = (id: string, content: unknown, calls: ToolCallSpec[] = []) => ({
  id, role: 'assistant', source: 'generate', content,
  ...(calls.length > 0 ? { tool_calls: calls.map((call) => ({ id: call.id, function: call.fn, arguments: call.args, type: 'function', ...(call.parse_error ? { parse_error: call.parse_error } : {}) })) } : {}),
  model: 'gpt-4o',
});
export const tool = (id: string, callId: string | undefined, fn: string, content: unknown, error?: { type: string; message: string }) => ({
  id, role: 'tool', content, ...(callId !== undefined ? { tool_call_id: callId } : {}), function: fn, ...(error ? { error } : {}),
});

/** A model event that produced the assistant message `messageId`, completed at `completed`. */
export const modelEvent = (messageId: string, completed: string, usage: { input_tokens: number; output_tokens: number }) => ({
  event: 'model', timestamp: completed, completed, model: 'openai/gpt-4o', input: [], tools: [], tool_choice: 'auto', config: {},
  output: { model: 'gpt-4o', choices: [{ message: { id: messageId, role: 'assistant', content: '' }, stop_reason: 'tool_calls' }], usage: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens }, time: 1.5 },
});
export const toolEvent = (callId: string, fn: string, timestamp: string, completed: string) => ({
  event: 'tool', type: 'function', id: callId, function: fn, arguments: {}, result: '', timestamp, completed, working_time: 0.5,
});

export interface SampleSpec {
  id: number | string;
  epoch?: number;
  messages: unknown[];
  events?: unknown[];
  score?: string;
  total_time?: number;
  model_usage?: Record<string, { input_tokens: number; output_tokens: number; total_tokens: number }>;
  extra?: Record<string, unknown>;
}

export function sample(spec: SampleSpec): Record<string, unknown> {
  return {
    id: spec.id, epoch: spec.epoch ?? 1, input: 'List the files.', target: 'C', messages: spec.messages,
    output: { model: 'gpt-4o', choices: [], usage: {} },
    scores: { includes: { value: spec.score ?? 'C', answer: 'done', explanation: 'ok' } },
    metadata: {}, store: {}, events: spec.events ?? [],
    ...(spec.model_usage ? { model_usage: spec.model_usage } : {}),
    ...(spec.total_time !== undefined ? { total_time: spec.total_time } : {}),
    ...spec.extra,
  };
}

export function log(samples: Record<string, unknown>[]): string {
  return JSON.stringify({
    version: 2, status: 'success',
    eval: {
      eval_id: 'E1', run_id: 'R1', created: '2025-07-05T09:59:40-04:00', task: 'file_agent', task_id: 'T1', task_version: 0,
      dataset: { name: 'files', samples: samples.length }, model: 'openai/gpt-4o', config: {}, packages: { inspect_ai: '0.3.95' },
    },
    plan: { name: 'plan', steps: [{ solver: 'basic_agent', params: {} }], config: {} },
    results: { total_samples: samples.length, completed_samples: samples.length, scores: [{ name: 'includes', scorer: 'includes', metrics: { accuracy: { name: 'accuracy', value: 0.5 } } }] },
    stats: { started_at: '2025-07-05T09:59:40-04:00', completed_at: '2025-07-05T10:00:43-04:00', model_usage: {} },
    samples,
  }, null, 2);
}

/** Two samples: the first calls `bash` twice (one call fails with a timeout), the second has a broken call and an orphan. */
export function agentLog(): string {
  return log([
    sample({
      id: 1, total_time: 12.5,
      model_usage: { 'openai/gpt-4o': { input_tokens: 300, output_tokens: 40, total_tokens: 340 } },
      messages: [
        system('You are a careful agent.'),
        user('List the files.'),
        assistant('a1', '', [{ id: 'call_ls', fn: 'bash', args: { cmd: 'ls -la' } }]),
        tool('t1', 'call_ls', 'bash', 'README.md\nsrc'),
        assistant('a2', [{ type: 'reasoning', reasoning: 'Now the size.' }, { type: 'text', text: 'Checking sizes.' }], [{ id: 'call_du', fn: 'bash', args: { cmd: 'du -sh .' } }]),
        tool('t2', 'call_du', 'bash', '', { type: 'timeout', message: 'Command timed out before completing.' }),
        assistant('a3', 'The folder holds README.md and src.'),
      ],
      events: [
        modelEvent('a1', '2025-07-05T14:00:01.000Z', { input_tokens: 100, output_tokens: 10 }),
        toolEvent('call_ls', 'bash', '2025-07-05T14:00:01.000Z', '2025-07-05T14:00:03.500Z'),
        modelEvent('a2', '2025-07-05T14:00:05.000Z', { input_tokens: 120, output_tokens: 20 }),
        toolEvent('call_du', 'bash', '2025-07-05T14:00:05.000Z', '2025-07-05T14:00:10.000Z'),
        modelEvent('a3', '2025-07-05T14:00:12.000Z', { input_tokens: 80, output_tokens: 10 }),
      ],
    }),
    sample({
      id: 'two', epoch: 2, score: 'I',
      messages: [
        user('Read the config.'),
        assistant('b1', '', [{ id: 'call_cat', fn: 'read_file', args: {}, parse_error: 'Expecting value: line 1 column 10 (char 9)' }]),
        tool('u1', 'call_cat', 'read_file', 'Error parsing the arguments', { type: 'parsing', message: 'Expecting value: line 1 column 10 (char 9)' }),
        tool('u2', 'call_gone', 'bash', 'stale output'),
        assistant('b2', '', [{ id: 'call_last', fn: 'bash', args: { cmd: 'cat config.toml' } }]),
      ],
    }),
  ]);
}

/**
 * A 100 MB Inspect log in the shape of the corpus's `inspect/log_read_sample.json` (messages with ids, events,
 * model usage), made agentic and heavy the way real ones are: every sample's prompt holds a screenshot inline (a
 * 400 KB data URL) and its tool calls and events repeat it in their outputs.
 */
export function browserAgentLog(targetBytes: number): { text: string; samples: number } {
  const image = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAA'.repeat(400 * 1024 / 24)}`;
  const samples: Record<string, unknown>[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const calls = [0, 1, 2].map((n) => `call_${i}_${n}`);
    const one = sample({
      id: i + 1, total_time: 30 + i,
      model_usage: { 'openai/gpt-4o': { input_tokens: 5000, output_tokens: 300, total_tokens: 5300 } },
      messages: [
        system('You operate a browser.'),
        user([{ type: 'text', text: `Task ${i + 1}: find the settings page.` }, { type: 'image', image }]),
        ...calls.flatMap((id, n) => [
          assistant(`m_${i}_${n}`, `Step ${n}`, [{ id, fn: 'browser', args: { action: 'click', x: n * 10, y: 20 } }]),
          tool(`t_${i}_${n}`, id, 'browser', [{ type: 'text', text: 'clicked' }, { type: 'image', image }]),
        ]),
        assistant(`m_${i}_end`, 'Done.'),
      ],
      events: calls.flatMap((id, n) => [
        modelEvent(`m_${i}_${n}`, `2025-07-05T14:0${n}:00.000Z`, { input_tokens: 1000, output_tokens: 100 }),
        toolEvent(id, 'browser', `2025-07-05T14:0${n}:00.000Z`, `2025-07-05T14:0${n}:02.000Z`),
      ]),
    });
    bytes += image.length * 4;
    samples.push(one);
  }
  return { text: log(samples), samples: samples.length };
}
