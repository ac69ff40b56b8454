/**
 * What Codex CLI writes in a rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-…jsonl`), for hovers, completion and
 * the schema checks: the record types and their payloads' fields, and the UI events (`event_msg`) it keeps.
 * `response_item` payloads are OpenAI Responses items (responses/items.ts).
 */
import { lookup } from '../../common/lookup';
import type { FieldSchema } from '../../responses/items';

export interface RecordSchema {
  doc: string;
  /** The payload's fields (besides its `type`, for events). */
  payload: Record<string, FieldSchema>;
}

/** The fields of every record. */
export const recordFields: Record<string, FieldSchema> = lookup<FieldSchema>({
  timestamp: { kinds: ['string'], required: true, doc: 'When Codex wrote the record (ISO 8601, UTC, milliseconds): the time a step took is read from these.' },
  type: { kinds: ['string'], required: true, doc: 'What the record holds: `session_meta`, `turn_context`, `response_item`, `event_msg` or `compacted`.', values: ['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted'] },
  payload: { kinds: ['object'], required: true, doc: 'The record\'s content; its shape depends on `type`.' },
});

export const recordTypes: Record<string, RecordSchema> = lookup<RecordSchema>({
  session_meta: {
    doc: 'The first record of a rollout: the session\'s id, where and with which Codex it ran, and the git state of the folder.',
    payload: {
      id: { kinds: ['string'], required: true, doc: 'The session\'s id (a UUID, also in the file\'s name); `codex resume <id>` continues it.' },
      timestamp: { kinds: ['string'], doc: 'When the session started.' },
      cwd: { kinds: ['string'], doc: 'The folder Codex worked in.' },
      originator: { kinds: ['string'], doc: 'What started Codex: `codex_cli_rs`, `codex_vscode`, `codex_exec`, …' },
      cli_version: { kinds: ['string'], doc: 'The version of Codex CLI that wrote the rollout.' },
      instructions: { kinds: ['string', 'null'], doc: 'The user\'s instructions (AGENTS.md and the like) as given to the model.' },
      base_instructions: { kinds: ['object', 'string', 'null'], doc: 'The system instructions Codex started the session with.' },
      source: { kinds: ['string', 'object'], doc: 'Where the session came from: `cli`, `vscode`, `exec`, a subagent of another session, …' },
      model_provider: { kinds: ['string', 'null'], doc: 'The model provider configured (`openai`, …).' },
      git: { kinds: ['object', 'null'], doc: 'The folder\'s git state at the start: `commit_hash`, `branch`, `repository_url`.' },
      forked_from_id: { kinds: ['string', 'null'], doc: 'The session this one was forked from.' },
    },
  },
  turn_context: {
    doc: 'The settings of a turn, written before it starts: the model, the folder, the approval and sandbox policies.',
    payload: {
      cwd: { kinds: ['string'], doc: 'The folder the turn works in.' },
      approval_policy: { kinds: ['string', 'object'], doc: 'When Codex asks before running a command: `untrusted`, `on-failure`, `on-request`, `never`.' },
      sandbox_policy: { kinds: ['object', 'string'], doc: 'What commands may touch: read-only, the workspace, or everything.' },
      model: { kinds: ['string'], doc: 'The model of the turn.' },
      effort: { kinds: ['string', 'null'], doc: 'The reasoning effort asked of the model.' },
      summary: { kinds: ['string', 'null'], doc: 'The kind of reasoning summary asked for.' },
      turn_id: { kinds: ['string'], doc: 'The turn\'s id, repeated by its `task_started` and `task_complete` events.' },
      user_instructions: { kinds: ['string', 'null'], doc: 'The user\'s instructions for the turn.' },
      developer_instructions: { kinds: ['string', 'null'], doc: 'Developer instructions for the turn.' },
      final_output_json_schema: { kinds: ['object', 'null'], doc: 'The schema the final answer must follow (`codex exec --output-schema`).' },
      truncation_policy: { kinds: ['object', 'null'], doc: 'How long tool outputs are cut before the model reads them.' },
    },
  },
  response_item: {
    doc: 'An item of the conversation, as the OpenAI Responses API has it: a message, a reasoning, a tool call or a tool\'s output. These records are the conversation the model saw; an output answers the call with its `call_id`.',
    payload: {},
  },
  event_msg: {
    doc: 'An event Codex showed in its UI. Most repeat what a `response_item` already holds (`user_message`, `agent_message`, `agent_reasoning`) or report a call (`exec_command_end`); they are not the conversation, and are never counted as its messages or calls here. `token_count` counts a model request\'s tokens; `turn_aborted` says a turn was stopped.',
    payload: {},
  },
  compacted: {
    doc: 'The conversation was compacted: the model continues from `message`, a summary of what came before, instead of the whole history.',
    payload: {
      message: { kinds: ['string'], required: true, doc: 'The summary the conversation continues from.' },
      replacement_history: { kinds: ['array', 'null'], doc: 'The history that replaced the conversation (items repeated from before: not counted again).' },
    },
  },
});

/** The UI events Codex keeps in rollouts, by `payload.type`. */
export const eventTypes: Record<string, RecordSchema> = lookup<RecordSchema>({
  user_message: {
    doc: 'The prompt as the UI showed it: a repeat of the `response_item` user message that holds it.',
    payload: { message: { kinds: ['string'], doc: 'The prompt\'s text.' }, images: { kinds: ['array', 'null'], doc: 'Images attached to it.' }, kind: { kinds: ['string', 'null'], doc: 'What kind of input it was.' } },
  },
  agent_message: { doc: 'The assistant\'s answer as the UI showed it: a repeat of the assistant `response_item` message.', payload: { message: { kinds: ['string'], doc: 'The text.' } } },
  agent_reasoning: { doc: 'A part of the reasoning summary as the UI showed it: a repeat of a `reasoning` item.', payload: { text: { kinds: ['string'], doc: 'The text.' } } },
  agent_reasoning_raw_content: { doc: 'Raw reasoning as the UI showed it: a repeat of a `reasoning` item\'s content.', payload: { text: { kinds: ['string'], doc: 'The text.' } } },
  token_count: {
    doc: 'Tokens after a model request: the running total and the last request\'s own. Codex writes it again unchanged when rate limits change; a repeat is counted once.',
    payload: {
      info: { kinds: ['object', 'null'], doc: '`total_token_usage` (since the session started), `last_token_usage` (the last request) and `model_context_window`.' },
      rate_limits: { kinds: ['object', 'null'], doc: 'How much of the plan\'s rate limits is used.' },
    },
  },
  turn_aborted: { doc: 'The turn was stopped before it finished (the user interrupted it, or a new prompt replaced it): calls it made may have no output.', payload: { reason: { kinds: ['string'], doc: 'Why: `interrupted`, `replaced`, `review_ended`, …' }, turn_id: { kinds: ['string', 'null'], doc: 'The turn.' } } },
  task_started: { doc: 'A turn started.', payload: { turn_id: { kinds: ['string'], doc: 'The turn.' }, model_context_window: { kinds: ['number', 'null'], doc: 'The model\'s context window, in tokens.' } } },
  turn_started: { doc: 'A turn started.', payload: { turn_id: { kinds: ['string'], doc: 'The turn.' }, model_context_window: { kinds: ['number', 'null'], doc: 'The model\'s context window, in tokens.' } } },
  task_complete: { doc: 'A turn finished.', payload: { turn_id: { kinds: ['string'], doc: 'The turn.' }, last_agent_message: { kinds: ['string', 'null'], doc: 'The turn\'s last answer.' } } },
  turn_complete: { doc: 'A turn finished.', payload: { turn_id: { kinds: ['string'], doc: 'The turn.' }, last_agent_message: { kinds: ['string', 'null'], doc: 'The turn\'s last answer.' } } },
  exec_command_end: {
    doc: 'A command finished, as the UI reported it: a report of the call with this `call_id` (its output is the `function_call_output`), with the exit code and how long it ran.',
    payload: {
      call_id: { kinds: ['string'], doc: 'The call that ran the command.' },
      exit_code: { kinds: ['number'], doc: 'The command\'s exit code.' },
      duration: { kinds: ['object'], doc: 'How long it ran: `{secs, nanos}`.' },
      aggregated_output: { kinds: ['string'], doc: 'What it printed (cut in the middle when long).' },
      stdout: { kinds: ['string'], doc: 'Its standard output.' },
      stderr: { kinds: ['string'], doc: 'Its standard error.' },
      formatted_output: { kinds: ['string'], doc: 'The output as shown to the model.' },
      command: { kinds: ['array'], doc: 'The command.' },
      cwd: { kinds: ['string'], doc: 'Where it ran.' },
    },
  },
  patch_apply_end: {
    doc: 'A patch was applied (or not), as the UI reported it: a report of the call with this `call_id`.',
    payload: { call_id: { kinds: ['string'], doc: 'The call.' }, success: { kinds: ['boolean'], doc: 'Whether it applied.' }, stdout: { kinds: ['string'], doc: 'What applying it printed.' }, stderr: { kinds: ['string'], doc: 'Its errors.' } },
  },
  mcp_tool_call_end: {
    doc: 'An MCP tool call finished, as the UI reported it: a report of the call with this `call_id`.',
    payload: { call_id: { kinds: ['string'], doc: 'The call.' }, invocation: { kinds: ['object'], doc: 'The server, tool and arguments.' }, duration: { kinds: ['object', 'string'], doc: 'How long it ran.' }, result: { kinds: ['object'], doc: 'What it returned.' } },
  },
  web_search_end: { doc: 'A web search finished, as the UI reported it.', payload: { call_id: { kinds: ['string'], doc: 'The search.' }, query: { kinds: ['string'], doc: 'What was searched.' } } },
  view_image_tool_call: { doc: 'The model looked at an image file, as the UI reported it.', payload: { call_id: { kinds: ['string'], doc: 'The call.' }, path: { kinds: ['string'], doc: 'The image.' } } },
  context_compacted: { doc: 'The conversation was compacted (see the `compacted` record).', payload: {} },
  entered_review_mode: { doc: 'A code review started (`/review`).', payload: {} },
  exited_review_mode: { doc: 'The code review ended, with its findings.', payload: {} },
  undo_completed: { doc: 'An `/undo` restored the files from a ghost snapshot.', payload: {} },
  thread_rolled_back: { doc: 'The conversation was rolled back to an earlier turn.', payload: {} },
  item_completed: { doc: 'An item of the turn finished (rollouts keep plan items).', payload: {} },
  error: { doc: 'An error Codex reported.', payload: { message: { kinds: ['string'], doc: 'The error.' } } },
});
