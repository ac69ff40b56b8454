/** Hover documentation for the fields of the trace format, per kind of object that holds them. */
import type { Shape } from './model';
import { lookup } from '../common/lookup';

export interface FieldDoc {
  type: string;
  required: boolean;
  meaning: string;
  example: string;
}

const doc = (type: string, required: boolean, meaning: string, example: string): FieldDoc => ({ type, required, meaning, example });

const eventDocs: Record<string, FieldDoc> = lookup({
  role: doc('string', true,
    'Who produced this event: `user` (the person prompting the agent), `assistant` (the agent), `system` or `developer` (instructions), or `tool` (the result of a tool call). Other role names are allowed.',
    '"role": "assistant"'),
  content: doc('string | null | list of chunks', false,
    'What the event says: a message text, the agent\'s reasoning, or for a `tool` event the result the tool returned. Either a plain string or a list of text and image chunks; a tool output may also hold an object.',
    '"content": "Checking your inbox..."'),
  tool_calls: doc('list of tool calls | null', false,
    'The tools the agent calls in this message. Each entry names a function and its arguments and has an `id` that later `tool` events answer with `tool_call_id`.',
    '"tool_calls": [{"id": "1", "type": "function", "function": {"name": "get_inbox", "arguments": {}}}]'),
  tool_call_id: doc('string', false,
    'On a `tool` event: the `id` of the earlier tool call this output answers. Without it, the output is taken to answer the most recent call before it.',
    '"tool_call_id": "1"'),
  name: doc('string', false, 'An optional name for the participant (OpenAI chat format), or the tool name on some tool outputs.', '"name": "alice"'),
  metadata: doc('object', false, 'Free-form data about the event (timestamps, model, server …). Tools ignore it when checking the trace.', '"metadata": {"model": "gpt-4o"}'),
  refusal: doc('string | null', false, 'The refusal text of a model that declined to answer (OpenAI chat format).', '"refusal": null'),
  annotations: doc('list', false, 'Annotations attached to the message by the model provider (e.g. URL citations).', '"annotations": []'),
  reasoning_content: doc('string', false, 'Reasoning text some models return next to the answer.', '"reasoning_content": "First, …"'),
  function_call: doc('object', false, 'The older, single-call form of `tool_calls` (OpenAI chat format).', '"function_call": {"name": "get_inbox", "arguments": "{}"}'),
  tools: doc('list of tool descriptions', true,
    'An MCP tool list: descriptions of the tools a server offers (`metadata.server` names the server).',
    '{"tools": [{"name": "get_inbox", "description": "…", "inputSchema": {…}}]}'),
});

const callDocs: Record<string, FieldDoc> = lookup({
  id: doc('string', true,
    'Identifies this tool call. A `tool` event answers it by repeating this value as its `tool_call_id`; ids should be unique in a trace.',
    '"id": "call_1"'),
  type: doc('string', true, 'The kind of tool call; always `"function"` in this format.', '"type": "function"'),
  function: doc('object {name, arguments}', true, 'Which function the agent calls, and with what arguments.',
    '"function": {"name": "get_inbox", "arguments": {"n": 10}}'),
});

const functionDocs: Record<string, FieldDoc> = lookup({
  name: doc('string', true, 'The name of the tool (function) called; guardrail rules match calls by this name.', '"name": "send_email"'),
  arguments: doc('object | string', true,
    'The arguments passed to the tool: a JSON object, or a string holding a JSON object (as the OpenAI API returns it).',
    '"arguments": {"to": "mom@mail.com", "subject": "Running late"}'),
});

const chunkDocs: Record<string, FieldDoc> = lookup({
  type: doc('string', true, 'The kind of chunk: `"text"` (with `text`) or `"image_url"` (with `image_url`); `"image"` also occurs.', '"type": "text"'),
  text: doc('string', true, 'The text of a `text` chunk.', '{"type": "text", "text": "Hello"}'),
  image_url: doc('object {url} | string', true, 'The image of an image chunk: an object whose `url` is an https: or data: URL (a bare URL string also occurs).',
    '{"type": "image_url", "image_url": {"url": "data:image/png;base64,…"}}'),
  image: doc('string | object', false, 'An image given directly on an `image` chunk.', '{"type": "image", "image_url": "https://…"}'),
});

const imageDocs: Record<string, FieldDoc> = lookup({
  url: doc('string', true, 'Where the image is: an https: URL or a data: URL with the image inline.', '"url": "https://example.com/cat.png"'),
  detail: doc('string', false, 'How closely the model looks at the image: `low`, `high` or `auto`.', '"detail": "auto"'),
});

const rootDocs: Record<string, FieldDoc> = lookup({
  messages: doc('list of events', true, 'The events of the trace, in order (the same list a trace file holds as its top-level array).',
    '{"messages": [{"role": "user", "content": "Hi"}]}'),
  metadata: doc('object', false, 'Free-form data about the whole trace (e.g. the agent, the task, a score).', '"metadata": {"task": "swe-bench"}'),
  annotations: doc('list of annotations', false,
    'Notes attached to parts of the trace: `{"content": …, "address": "messages.2.content:5-10"}`.',
    '"annotations": [{"content": "leaks a secret", "address": "messages.3.content"}]'),
});

const docsByShape: Partial<Record<Shape, Record<string, FieldDoc>>> = {
  event: eventDocs, call: callDocs, function: functionDocs, chunk: chunkDocs, image: imageDocs, root: rootDocs,
};

const outputDocs: Record<string, FieldDoc> = lookup({
  role: doc('string', true, 'Always `"tool"` for a tool output: the result of a tool call, given back to the agent.', '"role": "tool"'),
  content: doc('string | list of chunks | object', true, 'What the tool returned.', '"content": "1. Subject: Hello, From: Alice"'),
});

export function fieldDoc(shape: Shape, name: string, options: { output?: boolean; topLevelCall?: boolean } = {}): FieldDoc | undefined {
  if (shape === 'event' && options.output && outputDocs[name]) return outputDocs[name];
  if (shape === 'event' && options.topLevelCall && callDocs[name]) return callDocs[name];
  return docsByShape[shape]?.[name] ?? (name === 'metadata' ? eventDocs.metadata : undefined);
}

export function renderFieldDoc(name: string, d: FieldDoc): string {
  return [
    `**\`${name}\`** \`${d.type}\` — ${d.required ? 'required' : 'optional'}`,
    '',
    d.meaning,
    '',
    'Example:',
    '```json',
    d.example,
    '```',
  ].join('\n');
}

export const roleDocs: Record<string, string> = lookup({
  user: '**user** — the person prompting the agent: the task at the start, and feedback later in the trace.',
  assistant: '**assistant** — the agent itself: its answers and reasoning, and the tool calls it makes (`tool_calls`).',
  system: '**system** — instructions that set up the agent\'s behaviour, usually the first event.',
  developer: '**developer** — instructions from the application developer (newer OpenAI models use it instead of `system`).',
  tool: '**tool** — a tool output: what a tool returned for an earlier call, linked by `tool_call_id`.',
});
