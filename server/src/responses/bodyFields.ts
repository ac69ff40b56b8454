/** The top-level fields of a Responses request body and response object that a reader of a conversation meets. */
import { lookup } from '../common/lookup';
import type { FieldSchema } from './items';

export const bodyFields: Record<string, FieldSchema> = lookup<FieldSchema>({
  model: { kinds: ['string'], doc: 'The model asked (a request) or that answered (a response, with its dated version).' },
  input: { kinds: ['array', 'string'], doc: 'A request\'s conversation so far: a prompt as a string, or a list of items (messages, calls, their outputs).' },
  output: { kinds: ['array'], doc: 'What the model produced in this response: messages, reasoning and calls, as items.' },
  instructions: { kinds: ['string', 'null'], doc: 'The system (developer) instructions, given before the input.' },
  object: { kinds: ['string'], doc: 'Always `response` for a response object.' },
  id: { kinds: ['string'], doc: 'The response\'s id (`resp_…`); a next request names it in `previous_response_id` to continue from it.' },
  status: { kinds: ['string'], doc: 'Where the response stands: `completed`, `incomplete`, `failed`, `in_progress`, `queued` or `cancelled`.', values: ['completed', 'incomplete', 'failed', 'in_progress', 'queued', 'cancelled'] },
  usage: { kinds: ['object', 'null'], doc: 'The tokens of this response: `input_tokens` (with `cached_tokens`), `output_tokens` (with `reasoning_tokens`), `total_tokens`.' },
  created_at: { kinds: ['number'], doc: 'When the response was created, in seconds since the epoch.' },
  completed_at: { kinds: ['number', 'null'], doc: 'When it completed, in seconds since the epoch.' },
  tools: { kinds: ['array'], doc: 'The tools the model may call: functions (name, description, JSON Schema of parameters), custom tools, and built-in ones.' },
  tool_choice: { kinds: ['string', 'object'], doc: 'Whether and which tool the model must call: `auto`, `required`, `none`, or a named tool.' },
  previous_response_id: { kinds: ['string', 'null'], doc: 'The response this request continues: the API adds its items (calls included) before this input.' },
  conversation: { kinds: ['string', 'object', 'null'], doc: 'The stored conversation this request continues and adds to.' },
  error: { kinds: ['object', 'null'], doc: 'Why the response failed, when it did.' },
  incomplete_details: { kinds: ['object', 'null'], doc: 'Why the response stopped short (`max_output_tokens`, `content_filter`).' },
  parallel_tool_calls: { kinds: ['boolean'], doc: 'Whether the model may make several calls at once.' },
  reasoning: { kinds: ['object', 'null'], doc: 'The reasoning effort and summary asked of a reasoning model.' },
  temperature: { kinds: ['number', 'null'], doc: 'Sampling temperature.' },
  top_p: { kinds: ['number', 'null'], doc: 'Nucleus sampling.' },
  max_output_tokens: { kinds: ['number', 'null'], doc: 'The most tokens the response may write.' },
  stream: { kinds: ['boolean', 'null'], doc: 'Whether the response is streamed as events.' },
  store: { kinds: ['boolean', 'null'], doc: 'Whether the API keeps the response (for `previous_response_id`).' },
  include: { kinds: ['array', 'null'], doc: 'Extra data to return (`reasoning.encrypted_content`, file search results, …).' },
  metadata: { kinds: ['object', 'null'], doc: 'Your own key-value pairs.' },
  text: { kinds: ['object'], doc: 'The form of the text output (plain, or JSON following a schema).' },
  truncation: { kinds: ['string', 'null'], doc: 'What to do when the input exceeds the context window.' },
  user: { kinds: ['string', 'null'], doc: 'An end-user id (deprecated; `safety_identifier` replaces it).' },
});
