/**
 * What the Anthropic Messages API's content blocks are and hold: the one copy of this knowledge, read by the
 * Anthropic conversation reader (this folder) and by the Claude Code session reader (whose messages are Anthropic
 * messages). Facts from the Messages API reference; the API adds block types over time, so an unknown one is a hint.
 */
import { lookup } from '../common/lookup';

/** What each content block type is. */
export const blockDocs: Record<string, string> = lookup({
  text: 'Text of the message.',
  thinking: 'The model\'s reasoning before it answers (extended thinking; not shown to the user by default). `signature` lets the API check it was not changed when it is sent back.',
  redacted_thinking: 'Reasoning the API returned encrypted (`data`); sent back as it is.',
  tool_use: 'A call of a tool: `id` (answered by a `tool_result` with that `tool_use_id`), `name`, `input` (the arguments, an object).',
  tool_result: 'The result of a tool call, sent back to the model in the next user message: `tool_use_id` names the call, `content` is what the tool returned, `is_error` says it failed.',
  image: 'An image (`source`: base64 data with its `media_type`, a URL, or a file id).',
  document: 'A document such as a PDF or plain text (`source`), with an optional `title`, `context` and `citations`.',
  search_result: 'A search result the caller supplies (`source`, `title`, `content`), which the model can cite.',
  server_tool_use: 'A call of a tool the API runs itself (web search, web fetch, code execution): `id`, `name`, `input`; its result follows in the same message.',
  mcp_tool_use: 'A call of a tool of an MCP server the API connects to (`server_name`, `name`, `input`); answered by an `mcp_tool_result`.',
  mcp_tool_result: 'The result of an `mcp_tool_use`, in the same message: `tool_use_id`, `content`, `is_error`.',
  web_search_tool_result: 'The result of the API\'s web search (`tool_use_id` names its `server_tool_use`): a list of results, or an error.',
  web_fetch_tool_result: 'The result of the API\'s web fetch (`tool_use_id` names its `server_tool_use`).',
  code_execution_tool_result: 'The result of the API\'s code execution (`tool_use_id` names its `server_tool_use`): stdout, stderr, return code.',
  bash_code_execution_tool_result: 'The result of a shell command the API\'s code execution ran (`tool_use_id` names its `server_tool_use`): stdout, stderr, return code.',
  text_editor_code_execution_tool_result: 'The result of a file operation of the API\'s code execution (`tool_use_id` names its `server_tool_use`).',
  container_upload: 'A file uploaded to the code execution container (`file_id`).',
});

/** The block types that call a tool, and those that answer a call (by `tool_use_id`). */
export const callBlockTypes: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

export function isOutputBlockType(type: string): boolean {
  return type === 'tool_result' || type.endsWith('_tool_result');
}

/** The keys each block type has (a block's `cache_control` is allowed on all of them). */
export const blockKeys: Record<string, readonly string[]> = lookup({
  text: ['type', 'text', 'citations', 'cache_control'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  image: ['type', 'source', 'cache_control'],
  document: ['type', 'source', 'title', 'context', 'citations', 'cache_control'],
  search_result: ['type', 'source', 'title', 'content', 'citations', 'cache_control'],
  server_tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  mcp_tool_use: ['type', 'id', 'name', 'server_name', 'input', 'cache_control'],
  mcp_tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  container_upload: ['type', 'file_id', 'cache_control'],
});

/** What the keys of content blocks hold. */
export const blockFieldDocs: Record<string, string> = lookup({
  type: 'The kind of block: `text`, `image`, `document`, `tool_use`, `tool_result`, `thinking`, …',
  text: 'The text.',
  citations: 'Where the text comes from in the documents or search results it cites.',
  cache_control: 'Marks the end of a prefix the API caches (`{"type": "ephemeral"}`, with an optional `ttl`).',
  thinking: 'The reasoning\'s text.',
  signature: 'The API\'s signature of the thinking: the block must be sent back unchanged in the next request.',
  data: 'The encrypted reasoning.',
  id: 'The call\'s id (`toolu_…`, `srvtoolu_…`): the `tool_result` answering it names it as its `tool_use_id`.',
  name: 'The tool called: one of the request\'s `tools`.',
  input: 'The arguments of the call, an object matching the tool\'s `input_schema`.',
  caller: 'Who made the call when it was made from code the API ran (programmatic tool calling).',
  server_name: 'The MCP server whose tool is called.',
  tool_use_id: 'The `id` of the `tool_use` this result answers. The API requires every tool_use of an assistant message to be answered in the user message right after it.',
  content: 'What the tool returned: a string, or a list of blocks (`text`, `image`, `document`, `search_result`).',
  is_error: 'True when the tool failed: `content` then says why, and the model is told the call did not succeed.',
  source: 'Where the data is: `{"type": "base64", "media_type", "data"}`, `{"type": "url", "url"}`, `{"type": "file", "file_id"}`, or text.',
  title: 'The document\'s title, given to the model.',
  context: 'Text about the document that is given to the model but not cited.',
  file_id: 'The id of a file uploaded with the Files API.',
});
