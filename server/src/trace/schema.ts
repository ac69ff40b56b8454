/** Which keys and values the trace format knows, per kind of object. Generous: real traces carry many extras. */

export const roleValues = ['user', 'assistant', 'system', 'tool', 'developer'] as const;

/** Keys of a message or tool output. */
export const eventKeys = new Set([
  'role', 'content', 'tool_calls', 'tool_call_id', 'name', 'metadata', 'refusal', 'annotations', 'audio',
  'function_call', 'reasoning_content', 'reasoning', 'reasoning_details', 'thinking', 'tool_name', 'id', 'timestamp',
  'created_at', 'model', 'usage', 'index', 'finish_reason', 'logprobs', 'prefix', 'status', 'error', 'is_error',
  'cache_control', 'extra', 'images', 'attachments',
]);

/** Keys of a top-level tool call event. */
export const topLevelCallKeys = new Set(['id', 'type', 'function', 'metadata', 'index', 'timestamp', 'name']);

export const toolsEventKeys = new Set(['tools', 'metadata']);

export const callKeys = new Set(['id', 'type', 'function', 'index', 'metadata', 'custom']);

export const functionKeys = new Set(['name', 'arguments', 'description', 'parsed_arguments']);

export const chunkKeys = new Set([
  'type', 'text', 'image_url', 'image', 'input_audio', 'file', 'refusal', 'annotations', 'cache_control', 'detail',
  'url', 'source', 'metadata', 'logprobs',
]);

export const imageKeys = new Set(['url', 'detail', 'format', 'media_type']);

/** Keys of a trace object: Explorer's upload format, and the fields its API and export add to a trace. */
export const rootObjectKeys = new Set([
  'messages', 'metadata', 'annotations', 'index', 'name', 'hierarchy_path', 'id', 'trace_id', 'tools',
  'dataset', 'user_id', 'user', 'extra_metadata', 'time_created',
]);

export const knownChunkTypes = new Set(['text', 'image_url', 'image', 'input_audio', 'file', 'refusal', 'input_text', 'output_text']);
