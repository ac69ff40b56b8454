/** What the fields of a Messages API request, response, message and tool definition hold, for hovers and completion. */
import { lookup } from '../common/lookup';

export const requestFieldDocs: Record<string, string> = lookup({
  model: 'The model that answers (`claude-sonnet-4-5`, …).',
  max_tokens: 'The most tokens the model may generate before it stops (`stop_reason: "max_tokens"`).',
  messages: 'The conversation so far, alternating `user` and `assistant` messages; the model writes the next assistant message.',
  system: 'The system prompt: a string, or a list of `text` blocks. It comes before the messages (Invariant\'s gateway makes it the first event, with role `system`).',
  tools: 'The tools the model may call: `name`, `description` and `input_schema` for a tool of yours, or a `type` for a tool the API defines (web search, code execution, memory, …).',
  tool_choice: 'Whether the model must call a tool: `{"type": "auto"}`, `"any"`, `"none"`, or `{"type": "tool", "name"}`.',
  thinking: 'Extended thinking: `{"type": "enabled", "budget_tokens"}` lets the model reason before it answers.',
  temperature: 'Randomness of the answer, 0 to 1.',
  top_p: 'Nucleus sampling: only the most likely tokens up to this probability are drawn.',
  top_k: 'Only the k most likely tokens are drawn.',
  stop_sequences: 'Texts at which the model stops (`stop_reason: "stop_sequence"`).',
  stream: 'Whether the answer is sent as server-sent events.',
  metadata: 'About the request: `user_id`, an opaque id of the end user.',
  container: 'The code execution container to reuse.',
  mcp_servers: 'MCP servers the API connects to and whose tools the model may call.',
  service_tier: 'Which capacity serves the request (`auto`, `standard_only`).',
  context_management: 'How the API trims the context (clearing old tool results, thinking).',
});

export const responseFieldDocs: Record<string, string> = lookup({
  id: 'The message\'s id (`msg_…`).',
  type: 'Always `message` for a response of the Messages API.',
  role: 'Always `assistant` in a response.',
  model: 'The model that answered.',
  content: 'The blocks the model wrote: `text`, `thinking`, `tool_use` (calls the caller runs), server tool calls and their results.',
  stop_reason: 'Why the model stopped: `end_turn`, `tool_use` (it waits for tool results), `max_tokens`, `stop_sequence`, `pause_turn`, `refusal`.',
  stop_sequence: 'The stop sequence that ended the answer, if one did.',
  stop_details: 'More about why the model stopped.',
  usage: 'Tokens read and written: `input_tokens`, `output_tokens`, cache reads and writes.',
  container: 'The code execution container the answer used, and when it expires.',
  context_management: 'What the API trimmed from the context.',
});

export const messageFieldDocs: Record<string, string> = lookup({
  role: 'Who speaks: `user` (the caller: prompts and tool results) or `assistant` (the model: text and tool calls).',
  content: 'A string, or a list of content blocks (`text`, `image`, `document`, `tool_use`, `tool_result`, `thinking`, …).',
});

export const toolFieldDocs: Record<string, string> = lookup({
  name: 'The tool\'s name, as the model calls it in `tool_use.name`.',
  description: 'What the tool does, for the model to decide when to call it.',
  input_schema: 'The JSON Schema of the tool\'s `input`.',
  type: 'For a tool the API defines: its type and version (`web_search_20250305`, `code_execution_20250825`, `memory_20250818`, …).',
  cache_control: 'Marks the end of a prefix the API caches.',
  max_uses: 'The most times the model may use this server tool in one request.',
});

export const roleDocs: Record<string, string> = lookup({
  user: 'The caller\'s side: prompts, images, documents, and the results of the tools the model called.',
  assistant: 'The model\'s side: text, thinking, and tool calls.',
});

export const stopReasonDocs: Record<string, string> = lookup({
  end_turn: 'The model finished its answer.',
  tool_use: 'The model called tools and waits: the caller runs them and sends their `tool_result` blocks in the next request.',
  max_tokens: 'The answer reached `max_tokens` and was cut.',
  stop_sequence: 'The model wrote one of the `stop_sequences`.',
  pause_turn: 'The API paused a long turn of server tools; send the response back to let it go on.',
  refusal: 'The model declined to answer.',
  model_context_window_exceeded: 'The answer reached the model\'s context window.',
});

/** The block types a message of each role holds (those the API accepts there). */
export const blockTypesByRole: Record<string, readonly string[]> = lookup({
  user: ['text', 'image', 'document', 'search_result', 'tool_result', 'container_upload'],
  assistant: ['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result',
    'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'mcp_tool_use', 'mcp_tool_result'],
});
