/** Small builders of Invariant events for the diff tests. */

export const user = (content: string) => ({ role: 'user', content });
export const assistant = (content: string) => ({ role: 'assistant', content });

export interface CallSpec {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** An assistant message making these calls (arguments as a JSON string, as OpenAI writes them). */
export function calls(...specs: CallSpec[]) {
  return {
    role: 'assistant',
    content: null,
    tool_calls: specs.map(({ id, name, args }) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
  };
}

export const call = (id: string, name: string, args: Record<string, unknown> = {}) => calls({ id, name, args });
export const output = (id: string, content: string, extra: Record<string, unknown> = {}) => ({ role: 'tool', tool_call_id: id, content, ...extra });

/** A top-level call event (no role), as the Invariant docs write them. */
export const callEvent = (id: string, name: string, args: Record<string, unknown> = {}) => ({ id, type: 'function', function: { name, arguments: args } });

/** The same events with every call id (and the tool_call_id naming it) replaced, as a new run regenerates them. */
export function regenerateIds(events: unknown[], prefix = 'run2_'): unknown[] {
  const renamed = (id: unknown) => (typeof id === 'string' ? `${prefix}${id}` : id);
  return JSON.parse(JSON.stringify(events), function (key, value) {
    if ((key === 'id' && (this.type === 'function' || this.function)) || key === 'tool_call_id') return renamed(value);
    return value;
  });
}

/** A trace of `turns` search-and-answer turns: user, call, output, assistant text. */
export function longTrace(turns: number, seed = ''): unknown[] {
  const events: unknown[] = [];
  for (let t = 0; t < turns; t++) {
    events.push(user(`question ${t}${seed}`), call(`c${t}`, t % 3 === 0 ? 'search' : 'lookup', { query: `q${t}` }), output(`c${t}`, `result ${t}`), assistant(`answer ${t}`));
  }
  return events;
}
