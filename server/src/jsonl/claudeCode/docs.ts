/**
 * What Claude Code writes in a session, for hovers and for the hints on record types and fields the known versions
 * do not have. The record types and their fields are those of Claude Code up to 2.1.144 (the reverse-engineered
 * schema of the corpus, `claude-code-session-2.1.144.schema.json`, and the sessions of earlier versions); the
 * format changes with every release, so an unknown one is a hint, never an error.
 */
import { lookup } from '../../common/lookup';

/** The fields each record type has in the known versions. */
export const knownFields: Record<string, readonly string[]> = lookup({
  'user': ['type', 'uuid', 'parentUuid', 'sessionId', 'timestamp', 'version', 'cwd', 'gitBranch', 'isSidechain', 'userType', 'message', 'thinkingMetadata', 'todos', 'isMeta', 'isCompactSummary', 'isVisibleInTranscriptOnly', 'agentId', 'slug', 'toolUseResult', 'sourceToolAssistantUUID', 'permissionMode', 'teamName', 'imagePasteIds', 'planContent', 'promptId', 'origin', 'sessionKind', 'mcpMeta', 'sourceToolUseID', 'sidechainParentUuid', 'entrypoint'],
  'assistant': ['type', 'uuid', 'parentUuid', 'sessionId', 'timestamp', 'version', 'cwd', 'gitBranch', 'isSidechain', 'userType', 'requestId', 'message', 'agentId', 'slug', 'isApiErrorMessage', 'error', 'teamName', 'sessionKind', 'advisorModel', 'attributionAgent', 'attributionPlugin', 'attributionSkill', 'origin', 'apiErrorStatus', 'errorDetails', 'sidechainParentUuid', 'entrypoint'],
  'system': ['type', 'uuid', 'parentUuid', 'sessionId', 'timestamp', 'version', 'cwd', 'gitBranch', 'isSidechain', 'userType', 'subtype', 'content', 'level', 'durationMs', 'isMeta', 'agentId', 'slug', 'hookCount', 'hookInfos', 'hookErrors', 'preventedContinuation', 'stopReason', 'hasOutput', 'toolUseID', 'logicalParentUuid', 'compactMetadata', 'microcompactMetadata', 'teamName', 'error', 'url', 'cause', 'retryInMs', 'retryAttempt', 'maxRetries', 'entrypoint', 'sessionKind', 'messageCount'],
  'summary': ['type', 'summary', 'leafUuid'],
  'file-history-snapshot': ['type', 'messageId', 'snapshot', 'isSnapshotUpdate'],
  'queue-operation': ['type', 'operation', 'timestamp', 'sessionId', 'content'],
  'progress': ['type', 'uuid', 'sessionId', 'parentUuid', 'timestamp', 'version', 'cwd', 'gitBranch', 'isSidechain', 'userType', 'slug', 'agentId', 'toolUseID', 'parentToolUseID', 'data'],
  'pr-link': ['type', 'sessionId', 'prNumber', 'prUrl', 'prRepository', 'timestamp'],
  'agent-name': ['type', 'agentName', 'sessionId'],
  'custom-title': ['type', 'customTitle', 'sessionId'],
  'last-prompt': ['type', 'lastPrompt', 'sessionId', 'leafUuid'],
  'attachment': ['type', 'uuid', 'parentUuid', 'sessionId', 'timestamp', 'version', 'cwd', 'gitBranch', 'isSidechain', 'userType', 'entrypoint', 'slug', 'agentId', 'attachment', 'sessionKind'],
  'permission-mode': ['type', 'permissionMode', 'sessionId'],
  'ai-title': ['type', 'aiTitle', 'sessionId'],
  'agent-setting': ['type', 'agentSetting', 'sessionId'],
  'bridge-session': ['type', 'sessionId', 'bridgeSessionId', 'lastSequenceNum'],
  'worktree-state': ['type', 'sessionId', 'worktreeSession'],
});

/** What each record type is for. */
export const recordTypeDocs: Record<string, string> = lookup({
  user: 'A message on the user\'s side of the conversation: a prompt typed by the user, the results of tool calls (`tool_result` blocks), or text Claude Code adds (a command\'s output, a reminder, a compaction summary).',
  assistant: 'One content block of the model\'s reply. A reply with several blocks (thinking, text, tool calls) is written over several lines that share `message.id`.',
  system: 'An event of Claude Code itself: a compaction boundary, a hook\'s summary, a local command, the duration of a turn, an API error and its retry.',
  summary: 'A title Claude Code wrote for a conversation: `leafUuid` names the last record of the conversation it summarises.',
  'file-history-snapshot': 'The state of the files Claude Code edited, kept so that a rewind can restore them. Not part of the conversation.',
  'queue-operation': 'A prompt the user typed while the model was working, queued (or taken off the queue) until the turn ends.',
  progress: 'Progress of something running: a hook, a shell command\'s output, or a subagent\'s messages echoed while its `Task` call runs. Not the conversation\'s own messages.',
  'pr-link': 'A pull request Claude Code opened or referred to.',
  'agent-name': 'The name given to this session\'s agent.',
  'custom-title': 'A title the user gave the session.',
  'last-prompt': 'The last prompt, kept to resume the session.',
  attachment: 'Context Claude Code attached to the conversation out of band (a hook\'s output, a file, a reminder).',
  'permission-mode': 'The user changed the permission mode (ask, accept edits, plan, bypass).',
  'ai-title': 'A title the model wrote for the session.',
  'agent-setting': 'The agent the session runs as.',
  'bridge-session': 'The remote session (claude.ai) that mirrors this one.',
  'worktree-state': 'The git worktree the session works in, and where it started.',
});

/** What the common fields hold. */
export const fieldDocs: Record<string, string> = lookup({
  type: 'The kind of record (`user`, `assistant`, `system`, `progress`, …).',
  uuid: 'This record\'s id. Other records name it as their `parentUuid`.',
  parentUuid: 'The record this one follows. The records form a tree: the conversation is the chain of parents from the newest record; a rewind or a fork leaves other branches in the file. `null` starts a chain (the session\'s start, or a compaction boundary).',
  logicalParentUuid: 'At a compaction boundary: the last record before the compaction (the new chain starts here, with `parentUuid` null).',
  leafUuid: 'The last record of the conversation this record is about.',
  sessionId: 'The session this record belongs to; the file is named after it (a subagent\'s file shares its parent session\'s id).',
  timestamp: 'When the record was written (UTC).',
  version: 'The Claude Code version that wrote the record.',
  cwd: 'The working folder of the session when the record was written.',
  gitBranch: 'The git branch checked out in `cwd`.',
  isSidechain: 'True in a subagent\'s records: a side chain run by a `Task` call, not the main conversation.',
  userType: 'Who runs Claude Code (`external` for a user).',
  message: 'The API message: `role` and `content` (a string, or blocks: `text`, `thinking`, `tool_use`, `tool_result`, `image`); an assistant\'s also has the model, its `id` and the token usage.',
  requestId: 'The id of the API request that produced this reply.',
  toolUseResult: 'The tool\'s structured result as Claude Code keeps it (the `tool_result` block holds what the model was sent).',
  agentId: 'The subagent that wrote this record, or whose messages this progress record echoes: its own file is `subagents/agent-<agentId>.jsonl` beside the session.',
  toolUseID: 'The tool call this progress record reports on.',
  parentToolUseID: 'The tool call (a `Task` call for a subagent) that this progress belongs to.',
  data: 'What the progress is: `hook_progress`, `bash_progress`, `agent_progress` (a subagent\'s message), …',
  subtype: 'The kind of system event (`compact_boundary`, `turn_duration`, `stop_hook_summary`, `local_command`, …).',
  compactMetadata: 'Why the conversation was compacted (`auto` or `manual`) and how many tokens it held before.',
  isMeta: 'Text Claude Code added to the conversation itself (a command caveat, a reminder), not typed by the user.',
  isCompactSummary: 'The summary that replaces the conversation before a compaction boundary.',
  slug: 'The session\'s short name.',
  snapshot: 'The tracked files and their backups at this point.',
  messageId: 'The message the snapshot was taken for.',
  summary: 'The summary\'s text.',
  content: 'The event\'s text.',
  operation: 'What happened to the queue (`enqueue`, `dequeue`, `remove`).',
  todos: 'The todo list at this point.',
  thinkingMetadata: 'The thinking settings of the request.',
  permissionMode: 'The permission mode when the prompt was sent.',
});

/** What Claude Code's own tools do. */
export const toolDocs: Record<string, string> = lookup({
  Bash: 'Runs a shell command in the session\'s working folder (`command`; `run_in_background` starts it and returns at once).',
  BashOutput: 'Reads the new output of a shell command started in the background.',
  KillShell: 'Stops a shell command started in the background.',
  Read: 'Reads a file (`file_path`), or part of it (`offset`, `limit`); also images and PDFs.',
  Write: 'Writes a whole file (`file_path`, `content`).',
  Edit: 'Replaces `old_string` by `new_string` in a file (`replace_all` for every occurrence).',
  MultiEdit: 'Several edits of one file, applied in order.',
  NotebookEdit: 'Edits a cell of a Jupyter notebook.',
  Glob: 'Finds files by a glob `pattern`.',
  Grep: 'Searches file contents with a regular expression (ripgrep).',
  LS: 'Lists a folder.',
  WebFetch: 'Fetches a URL and has a model answer `prompt` about it.',
  WebSearch: 'Searches the web for `query`.',
  Task: 'Runs a subagent on a task (`description`, `prompt`, `subagent_type`); its messages are echoed in `progress` records and kept in its own file under `subagents/`.',
  Agent: 'Runs a subagent on a task; its messages are kept in its own file under `subagents/`.',
  TaskOutput: 'Reads the output of a background task.',
  TodoWrite: 'Replaces the session\'s todo list.',
  AskUserQuestion: 'Asks the user questions with options, and waits for the answers.',
  ExitPlanMode: 'Presents the plan and asks the user to leave plan mode.',
  EnterPlanMode: 'Enters plan mode.',
  Skill: 'Runs a skill.',
  SlashCommand: 'Runs a slash command.',
});
