/** What the parts of an Inspect AI log mean, for hovers and completion (from Inspect's log schema). */

export const logFieldDocs: Record<string, string> = {
  version: 'The version of the log format (2 for current logs).',
  status: 'How the evaluation ended: `started` (still running, or killed), `success`, `cancelled` or `error`.',
  eval: 'The evaluation that was run: the task, its dataset, the model and its configuration, the code revision and packages.',
  plan: 'The solvers the task ran, in order, with their parameters.',
  results: 'The scores: each scorer with its metrics (accuracy, stderr, …) over the completed samples.',
  stats: 'When the evaluation started and completed, and the tokens each model used.',
  error: 'Why the evaluation failed: its message and traceback.',
  samples: 'The samples that were run: each with its input, its messages (the trace of the run), its output, scores and events.',
  reductions: 'Scores reduced over the epochs of each sample (when a sample ran several times).',
  location: 'Where the log was read from.',
  tags: 'Tags given to the evaluation.',
  invalidated: 'Whether some samples were invalidated after the run.',
};

export const sampleFieldDocs: Record<string, string> = {
  id: 'The sample\'s id in its dataset (a number or a string); with `epoch`, it names one run of the sample.',
  epoch: 'Which run of the sample this is (from 1), when the task runs each sample several times.',
  input: 'The sample\'s input: a prompt, or a list of messages.',
  choices: 'The choices of a multiple-choice sample.',
  target: 'The answer the scorers compare the output with.',
  sandbox: 'The sandbox the sample\'s tools ran in.',
  files: 'Files copied into the sandbox before the sample ran.',
  setup: 'A setup script run in the sandbox before the sample.',
  messages: 'The conversation of the run: system, user, assistant and tool messages, in order. Assistant messages hold `tool_calls`; a `tool` message answers one by its `tool_call_id`.',
  output: 'The model\'s last output: its choices, stop reason, usage and time.',
  scores: 'The scores each scorer gave the sample: its value, the answer it extracted and its explanation.',
  metadata: 'Metadata of the sample, from its dataset.',
  store: 'What the solvers and tools stored while the sample ran.',
  events: 'Everything that happened while the sample ran, in order: model requests (with their usage and time), tool calls, state changes, scoring, spans.',
  model_usage: 'Tokens used by each model during the sample (scorers\' model calls included).',
  total_time: 'Seconds from the sample\'s start to its end.',
  working_time: 'Seconds the sample spent working (waiting for rate limits and retries left out).',
  uuid: 'A unique id of this run of the sample.',
  error: 'Why the sample failed: its message and traceback.',
  error_retries: 'Errors the sample met before a retry succeeded.',
  attachments: 'Long texts and images moved out of the messages and events: content written `attachment://<hash>` stands for the attachment with that hash.',
  limit: 'The limit that stopped the sample (messages, tokens, time), when one did.',
  transcript: 'The events of the sample, as older versions of Inspect wrote them.',
  started_at: 'When the sample started.',
  completed_at: 'When the sample completed.',
};

export const messageFieldDocs: Record<string, string> = {
  id: 'The message\'s id: a `model` event names the assistant message it produced by it.',
  role: 'Who speaks: `system`, `user`, `assistant` or `tool`.',
  content: 'What the message says: a string, or a list of parts (`text`, `reasoning`, `image`, `audio`, `video`, …).',
  source: 'Where the message came from: `input` (the sample) or `generate` (the model).',
  metadata: 'Metadata of the message.',
  model: 'The model that wrote this assistant message.',
  tool_calls: 'The tools the assistant calls: each with its `id`, the tool (`function`) and its `arguments`. The `tool` messages that answer them name the `id` as `tool_call_id`.',
  tool_call_id: 'The `id` of the tool call this tool message answers (in an assistant message\'s `tool_calls` before it).',
  function: 'The tool that produced this message.',
  error: 'The tool\'s error, when it failed: its `type` (`timeout`, `parsing`, `permission`, …) and `message`. Rules see it as the tool output\'s `metadata.error` (`out.metadata.error.type == "timeout"`).',
  internal: 'Provider data Inspect keeps to replay the message; not shown to the model.',
};

export const toolCallFieldDocs: Record<string, string> = {
  id: 'The call\'s id: the `tool` message answering it names it as `tool_call_id`.',
  function: 'The name of the tool called.',
  arguments: 'The arguments, as an object (Inspect has already parsed the model\'s JSON).',
  parse_error: 'The model\'s arguments could not be read (broken JSON, or not what the tool takes): the error, shown to the model in the tool message. The `arguments` are what could be salvaged.',
  type: 'The kind of call: `function`.',
  view: 'How Inspect\'s viewer shows the call (a title and the content in a format such as markdown).',
  internal: 'Provider data Inspect keeps to replay the call.',
  internal_name: 'The provider\'s own name of the tool, when it differs (older logs).',
};

export const toolErrorFieldDocs: Record<string, string> = {
  type: 'The kind of failure: `parsing`, `timeout`, `unicode_decode`, `permission`, `file_not_found`, `is_a_directory`, `limit`, `approval`, `output_limit` or `unknown`.',
  message: 'The error as the tool reported it (and as the model saw it).',
};

export const toolErrorTypeDocs: Record<string, string> = {
  parsing: 'The model\'s arguments could not be parsed or did not fit the tool\'s parameters.',
  timeout: 'The tool ran past its time limit.',
  unicode_decode: 'The tool\'s output was not valid text.',
  permission: 'The tool was refused access (a file or a command it may not use).',
  file_not_found: 'The tool was asked for a file that does not exist.',
  is_a_directory: 'The tool was given a folder where it takes a file.',
  limit: 'A limit of the sample (tokens, messages, time) was reached while the tool ran.',
  approval: 'The call was not approved (by a human or an approval policy), so the tool did not run.',
  output_limit: 'The tool\'s output was larger than Inspect accepts.',
  unknown: 'The tool failed in a way Inspect does not classify.',
};

export const roleDocs: Record<string, string> = {
  system: 'The system prompt.',
  user: 'A user message: the sample\'s input, or what a solver added.',
  assistant: 'A model\'s message; its `tool_calls` are the calls it makes.',
  tool: 'A tool\'s output, answering the call named by its `tool_call_id`; `error` when the tool failed.',
};

export const contentTypeDocs: Record<string, string> = {
  text: 'Text (`text`).',
  reasoning: 'The model\'s reasoning (`reasoning`), possibly redacted.',
  image: 'An image (`image`: a URL or a data URL).',
  audio: 'Audio (`audio`, with its `format`).',
  video: 'Video (`video`, with its `format`).',
  data: 'Provider data (`data`).',
  tool_use: 'A tool the provider ran itself (web search, code execution), with its result.',
  document: 'A document (`document`).',
};

export const statusDocs: Record<string, string> = {
  started: 'The evaluation was still running when the log was written (or it was killed): samples may be missing.',
  success: 'The evaluation completed.',
  cancelled: 'The evaluation was cancelled.',
  error: 'The evaluation failed: the log\'s `error` says why.',
};
