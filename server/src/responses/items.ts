/**
 * The items of the OpenAI Responses API (a request's `input`, a response's `output`, the Agents SDK's history, a
 * Codex rollout's `response_item` payloads): what each type and field is for, which fields a type has and of what
 * JSON kinds. One table drives the schema checks, the hover docs and the key completion of both formats.
 */
import { lookup } from '../common/lookup';

export type JsonKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface FieldSchema {
  kinds: readonly JsonKind[];
  /** A field the API requires of the item (its absence is reported). */
  required?: boolean;
  doc: string;
  /** The values the field takes, when they are few (completed after the key). */
  values?: readonly string[];
}

export interface ItemSchema {
  doc: string;
  fields: Record<string, FieldSchema>;
}

const status: FieldSchema = { kinds: ['string', 'null'], doc: 'Where the item stands: `in_progress`, `completed` or `incomplete`.', values: ['in_progress', 'completed', 'incomplete'] };
const itemId = (what: string): FieldSchema => ({ kinds: ['string', 'null'], doc: `The ${what}'s own id, given by the API (\`fc_…\`, \`msg_…\`). **Not** what an output names: outputs name their call by \`call_id\`.` });
const callId: FieldSchema = { kinds: ['string'], required: true, doc: 'The id that links a call and its output: the output item repeats the call\'s `call_id` (`call_…`). The item\'s own `id` is not the link.' };
const outputCallId: FieldSchema = { kinds: ['string'], required: true, doc: 'The `call_id` of the call this output answers (not that call\'s item `id`).' };
const type = (name: string): FieldSchema => ({ kinds: ['string'], required: true, doc: `The item's type: always \`${name}\` for this item.` });

/** Item types, by their `type`. `message` may be written without a type (an "easy" input message). */
export const itemSchemas: Record<string, ItemSchema> = lookup<ItemSchema>({
  message: {
    doc: 'A message of the conversation: the user\'s prompt, the assistant\'s reply, or `system`/`developer` instructions. Its `content` is a string or a list of parts (`input_text`, `input_image`, `output_text`, …).',
    fields: {
      type: { kinds: ['string'], doc: 'Always `message` (input messages may leave it out).' },
      id: itemId('message'),
      role: { kinds: ['string'], required: true, doc: 'Who speaks: `user`, `assistant`, `system` or `developer`.', values: ['user', 'assistant', 'system', 'developer'] },
      content: { kinds: ['string', 'array'], required: true, doc: 'The text, or a list of content parts (`input_text`, `input_image`, `input_file` from the user; `output_text`, `refusal` from the assistant).' },
      status,
      phase: { kinds: ['string', 'null'], doc: 'Codex: whether an assistant message is commentary while it works or its final answer.' },
    },
  },
  reasoning: {
    doc: 'The model\'s reasoning before it answered or called a tool: a `summary` of it, its raw `content` where the provider returns it, and `encrypted_content` to send back on the next request.',
    fields: {
      type: type('reasoning'),
      id: itemId('reasoning item'),
      summary: { kinds: ['array'], required: true, doc: 'Summary parts (`summary_text`) of the reasoning.' },
      content: { kinds: ['array', 'null'], doc: 'The raw reasoning (`reasoning_text` parts), where the provider returns it.' },
      encrypted_content: { kinds: ['string', 'null'], doc: 'The reasoning, encrypted, for a later request to continue from (returned when `include` asks for it).' },
      status,
    },
  },
  function_call: {
    doc: 'A call of a function tool the model made. Your code runs the function and answers with a `function_call_output` that names the same `call_id`.',
    fields: {
      type: type('function_call'),
      id: itemId('function call'),
      call_id: callId,
      name: { kinds: ['string'], required: true, doc: 'The function called.' },
      arguments: { kinds: ['string'], required: true, doc: 'The arguments, as a **JSON string** holding an object (`"{\\"city\\": \\"Paris\\"}"`).' },
      namespace: { kinds: ['string', 'null'], doc: 'The namespace of the tool (an MCP server), where the tool has one.' },
      status,
    },
  },
  function_call_output: {
    doc: 'The result of a function call, sent back to the model: `output` answers the `function_call` with the same `call_id`.',
    fields: {
      type: type('function_call_output'),
      id: itemId('output'),
      call_id: outputCallId,
      output: { kinds: ['string', 'array'], required: true, doc: 'What the function returned: text, or a list of parts (`input_text`, `input_image`, `input_file`).' },
      status,
    },
  },
  custom_tool_call: {
    doc: 'A call of a custom (free-form) tool: its `input` is plain text, not JSON (Codex\'s `apply_patch` writes its patch here). Answered by a `custom_tool_call_output` with the same `call_id`.',
    fields: {
      type: type('custom_tool_call'),
      id: itemId('custom tool call'),
      call_id: callId,
      name: { kinds: ['string'], required: true, doc: 'The custom tool called.' },
      input: { kinds: ['string'], required: true, doc: 'The input the model wrote for the tool, as free text.' },
      status,
    },
  },
  custom_tool_call_output: {
    doc: 'The result of a custom tool call, for the `custom_tool_call` with the same `call_id`.',
    fields: {
      type: type('custom_tool_call_output'),
      id: itemId('output'),
      call_id: outputCallId,
      output: { kinds: ['string', 'array'], required: true, doc: 'What the tool returned.' },
    },
  },
  local_shell_call: {
    doc: 'A shell command the model asks to run on your machine (the local shell tool Codex CLI uses): `action.command` is the argument vector. Codex answers it with a `function_call_output`; the API\'s own answer is a `local_shell_call_output`.',
    fields: {
      type: type('local_shell_call'),
      id: itemId('local shell call'),
      call_id: { ...callId, kinds: ['string', 'null'] },
      action: { kinds: ['object'], required: true, doc: 'What to run: `{"type": "exec", "command": [...], "working_directory", "timeout_ms", "env", "user"}`.' },
      status,
    },
  },
  local_shell_call_output: {
    doc: 'The output of a local shell command. It names its call by `id`, which the API sets to the call\'s `call_id` (a `call_id`, where written, is read first).',
    fields: {
      type: type('local_shell_call_output'),
      id: { kinds: ['string'], doc: 'The `call_id` of the `local_shell_call` this output answers.' },
      call_id: { ...outputCallId, required: false },
      output: { kinds: ['string'], required: true, doc: 'What the command printed (a JSON string of its result).' },
      status,
    },
  },
  shell_call: {
    doc: 'A call of the shell tool: `action.commands` are run in your environment and answered by a `shell_call_output` with the same `call_id`.',
    fields: {
      type: type('shell_call'),
      id: itemId('shell call'),
      call_id: callId,
      action: { kinds: ['object'], required: true, doc: 'What to run: `{"commands": [...], "timeout_ms", "max_output_length"}`.' },
      status,
      environment: { kinds: ['object', 'null'], doc: 'Where the commands run.' },
      created_by: { kinds: ['string', 'null'], doc: 'Who created the item.' },
    },
  },
  shell_call_output: {
    doc: 'What the commands of a `shell_call` printed, one entry per command with its stdout, stderr and outcome.',
    fields: {
      type: type('shell_call_output'),
      id: itemId('output'),
      call_id: outputCallId,
      output: { kinds: ['array'], required: true, doc: 'One entry per command: `stdout`, `stderr`, `outcome` (an exit code or a timeout).' },
      max_output_length: { kinds: ['number', 'null'], doc: 'The output length the model asked for, passed back as it was.' },
      status,
      created_by: { kinds: ['string', 'null'], doc: 'Who created the item.' },
    },
  },
  apply_patch_call: {
    doc: 'A call of the apply-patch tool: `operation` creates, updates or deletes a file; answered by an `apply_patch_call_output` with the same `call_id`.',
    fields: {
      type: type('apply_patch_call'),
      id: itemId('patch call'),
      call_id: callId,
      operation: { kinds: ['object'], required: true, doc: 'The change: `{"type": "create_file" | "update_file" | "delete_file", "path", "diff"}`.' },
      status,
      created_by: { kinds: ['string', 'null'], doc: 'Who created the item.' },
    },
  },
  apply_patch_call_output: {
    doc: 'Whether an `apply_patch_call` was applied (`status`), with a message in `output`.',
    fields: {
      type: type('apply_patch_call_output'),
      id: itemId('output'),
      call_id: outputCallId,
      status: { kinds: ['string'], doc: '`completed` or `failed`.', values: ['completed', 'failed'] },
      output: { kinds: ['string', 'null'], doc: 'What applying the patch said.' },
      created_by: { kinds: ['string', 'null'], doc: 'Who created the item.' },
    },
  },
  computer_call: {
    doc: 'An action of the computer-use tool (a click, typing, a screenshot): answered by a `computer_call_output` with a screenshot and the same `call_id`.',
    fields: {
      type: type('computer_call'),
      id: itemId('computer call'),
      call_id: callId,
      action: { kinds: ['object'], required: true, doc: 'The action: `{"type": "click" | "type" | "scroll" | "screenshot" | …, …}`.' },
      pending_safety_checks: { kinds: ['array'], doc: 'Safety checks to acknowledge before the action runs.' },
      status,
    },
  },
  computer_call_output: {
    doc: 'The screen after a computer action, for the `computer_call` with the same `call_id`.',
    fields: {
      type: type('computer_call_output'),
      id: itemId('output'),
      call_id: outputCallId,
      output: { kinds: ['object'], required: true, doc: 'A `computer_screenshot`: `{"type": "computer_screenshot", "image_url" | "file_id"}`.' },
      acknowledged_safety_checks: { kinds: ['array'], doc: 'The safety checks the user acknowledged.' },
      status,
    },
  },
  web_search_call: {
    doc: 'A web search the API ran itself (a built-in tool): no output item answers it; what it found shapes the next message.',
    fields: {
      type: type('web_search_call'),
      id: itemId('web search'),
      status: { ...status, values: ['in_progress', 'searching', 'completed', 'failed'] },
      action: { kinds: ['object'], doc: 'What was done: `{"type": "search", "query"}`, `open_page` or `find_in_page`.' },
    },
  },
  file_search_call: {
    doc: 'A search of your vector stores the API ran itself: `queries` and, where included, `results`.',
    fields: {
      type: type('file_search_call'),
      id: itemId('file search'),
      queries: { kinds: ['array'], required: true, doc: 'The queries searched.' },
      results: { kinds: ['array', 'null'], doc: 'What was found (returned when `include` asks for it).' },
      status,
    },
  },
  code_interpreter_call: {
    doc: 'Code the API ran in its own container (the code interpreter tool), with what it printed or made.',
    fields: {
      type: type('code_interpreter_call'),
      id: itemId('code run'),
      code: { kinds: ['string', 'null'], doc: 'The code run.' },
      container_id: { kinds: ['string'], doc: 'The container it ran in.' },
      outputs: { kinds: ['array', 'null'], doc: 'Logs and images it produced.' },
      status,
    },
  },
  image_generation_call: {
    doc: 'An image the API generated itself: `result` holds it, base64-encoded.',
    fields: {
      type: type('image_generation_call'),
      id: itemId('image generation'),
      result: { kinds: ['string', 'null'], doc: 'The image, base64-encoded.' },
      revised_prompt: { kinds: ['string', 'null'], doc: 'The prompt the image was made from.' },
      status,
    },
  },
  mcp_call: {
    doc: 'A call of a tool on a remote MCP server that the API made itself: the call and its result (`output` or `error`) are one item.',
    fields: {
      type: type('mcp_call'),
      id: itemId('MCP call'),
      server_label: { kinds: ['string'], required: true, doc: 'The MCP server, as the request\'s tool named it.' },
      name: { kinds: ['string'], required: true, doc: 'The tool called.' },
      arguments: { kinds: ['string'], required: true, doc: 'The arguments, as a JSON string.' },
      output: { kinds: ['string', 'null'], doc: 'What the tool returned.' },
      error: { kinds: ['string', 'null'], doc: 'Why the call failed, when it did.' },
      approval_request_id: { kinds: ['string', 'null'], doc: 'The `mcp_approval_request` this call was approved by.' },
      status,
    },
  },
  mcp_list_tools: {
    doc: 'The tools an MCP server offered, as the API listed them.',
    fields: {
      type: type('mcp_list_tools'),
      id: itemId('tool list'),
      server_label: { kinds: ['string'], required: true, doc: 'The MCP server.' },
      tools: { kinds: ['array'], required: true, doc: 'The tools, with their input schemas.' },
      error: { kinds: ['string', 'null'], doc: 'Why listing failed, when it did.' },
    },
  },
  mcp_approval_request: {
    doc: 'The API asks whether it may call an MCP tool; an `mcp_approval_response` naming this item\'s `id` answers.',
    fields: {
      type: type('mcp_approval_request'),
      id: { kinds: ['string'], required: true, doc: 'The request\'s id, named by the `approval_request_id` of its response.' },
      server_label: { kinds: ['string'], required: true, doc: 'The MCP server.' },
      name: { kinds: ['string'], required: true, doc: 'The tool it would call.' },
      arguments: { kinds: ['string'], required: true, doc: 'The arguments it would pass, as a JSON string.' },
    },
  },
  mcp_approval_response: {
    doc: 'Your answer to an `mcp_approval_request`.',
    fields: {
      type: type('mcp_approval_response'),
      id: itemId('approval'),
      approval_request_id: { kinds: ['string'], required: true, doc: 'The `id` of the request answered.' },
      approve: { kinds: ['boolean'], required: true, doc: 'Whether the call may go ahead.' },
      reason: { kinds: ['string', 'null'], doc: 'Why.' },
    },
  },
  item_reference: {
    doc: 'A reference to an item stored by the API (from an earlier response), sent instead of the item itself.',
    fields: {
      type: type('item_reference'),
      id: { kinds: ['string'], required: true, doc: 'The stored item\'s id.' },
    },
  },
  ghost_snapshot: {
    doc: 'Codex: a snapshot of the working tree (a git commit kept aside) taken before a turn changed files, so `/undo` can restore it. Not sent to the model.',
    fields: {
      type: type('ghost_snapshot'),
      ghost_commit: { kinds: ['object'], required: true, doc: 'The commit the snapshot is kept in, and the files it leaves out.' },
    },
  },
  compaction: {
    doc: 'The conversation so far, compacted by the API into an encrypted summary that the next request continues from.',
    fields: {
      type: type('compaction'),
      id: itemId('compaction'),
      encrypted_content: { kinds: ['string'], required: true, doc: 'The compacted history, encrypted.' },
    },
  },
  compaction_summary: {
    doc: 'An older name of `compaction`: the conversation so far, compacted into an encrypted summary.',
    fields: {
      type: type('compaction_summary'),
      encrypted_content: { kinds: ['string'], required: true, doc: 'The compacted history, encrypted.' },
    },
  },
});

/** Content parts of messages, outputs and reasoning, by their `type`. */
export const partSchemas: Record<string, ItemSchema> = lookup<ItemSchema>({
  input_text: { doc: 'Text the user (or a tool\'s output) gives the model.', fields: { type: type('input_text'), text: { kinds: ['string'], required: true, doc: 'The text.' } } },
  output_text: {
    doc: 'Text the model wrote.',
    fields: {
      type: type('output_text'),
      text: { kinds: ['string'], required: true, doc: 'The text.' },
      annotations: { kinds: ['array'], doc: 'Citations and file paths in the text.' },
      logprobs: { kinds: ['array'], doc: 'Log probabilities of its tokens, where asked for.' },
    },
  },
  input_image: {
    doc: 'An image given to the model: a URL (often a `data:` URL) or a stored file.',
    fields: {
      type: type('input_image'),
      image_url: { kinds: ['string', 'null'], doc: 'The image\'s URL, or a `data:` URL holding it.' },
      file_id: { kinds: ['string', 'null'], doc: 'A stored file holding the image.' },
      detail: { kinds: ['string'], doc: '`low`, `high` or `auto`.', values: ['low', 'high', 'auto'] },
    },
  },
  input_file: {
    doc: 'A file given to the model.',
    fields: {
      type: type('input_file'),
      file_id: { kinds: ['string', 'null'], doc: 'A stored file.' },
      file_data: { kinds: ['string'], doc: 'The file\'s content, base64-encoded.' },
      file_url: { kinds: ['string'], doc: 'Where the file is.' },
      filename: { kinds: ['string'], doc: 'Its name.' },
    },
  },
  input_audio: { doc: 'Audio given to the model.', fields: { type: type('input_audio'), input_audio: { kinds: ['object'], required: true, doc: '`{"data", "format"}`.' } } },
  refusal: { doc: 'The model declined to answer.', fields: { type: type('refusal'), refusal: { kinds: ['string'], required: true, doc: 'What it said.' } } },
  summary_text: { doc: 'A part of a reasoning summary.', fields: { type: type('summary_text'), text: { kinds: ['string'], required: true, doc: 'The text.' } } },
  reasoning_text: { doc: 'Raw reasoning text, where the provider returns it.', fields: { type: type('reasoning_text'), text: { kinds: ['string'], required: true, doc: 'The text.' } } },
  text: { doc: 'Text (raw reasoning content of some providers).', fields: { type: type('text'), text: { kinds: ['string'], required: true, doc: 'The text.' } } },
});

/** Item types that call a tool your code runs, answered by an output naming their `call_id`. */
export const clientCallTypes = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'shell_call', 'apply_patch_call', 'computer_call']);
/** Item types of tools the API runs itself: the call and its result are one item (or no output item at all). */
export const serverCallTypes = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call']);
/** Item types that answer a call, by its call id. */
export const outputTypes = new Set([
  'function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'shell_call_output', 'apply_patch_call_output', 'computer_call_output',
]);
