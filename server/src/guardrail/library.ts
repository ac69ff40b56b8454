import { lookup } from '../common/lookup';

/**
 * What the rule language knows without the user declaring it: event types and their fields, built-in functions,
 * the standard-library modules, operators and keywords. Descriptions are written for this extension.
 *
 * Types are written as strings: a type name (`Message`, `str`), `list<T>` for a list of T, or `unknown`.
 */

export interface FieldInfo {
  name: string;
  type: string;
  doc: string;
}

export interface TypeInfo {
  name: string;
  doc: string;
  fields: FieldInfo[];
  /** Attribute access on this type is whitelisted at run time, so an unknown field is worth a warning. */
  closed: boolean;
}

export interface ParamInfo {
  name: string;
  optional?: boolean;
}

export interface FunctionInfo {
  name: string;
  params: ParamInfo[];
  /** Accepts any number of further positional arguments. */
  varargs?: boolean;
  /** Accepts keyword arguments beyond its named parameters. */
  varkw?: boolean;
  returns: string;
  doc: string;
  /** Used as a block (`count(min=2):`), not as a value. */
  quantifier?: boolean;
}

export interface ModuleInfo {
  name: string;
  doc: string;
  /** Names the module provides; functions and types are described in FUNCTIONS / TYPES. */
  members: string[];
  /** Whether `from module import x` is checked against `members` (only for modules whose contents are fully known). */
  checked: boolean;
}

const EVENT_FIELDS: FieldInfo[] = [
  { name: 'metadata', type: 'dict', doc: 'Free-form metadata attached to the event.' },
  { name: 'server', type: 'str', doc: 'Name of the MCP server the event came from, when known.' },
];

function type(name: string, doc: string, fields: FieldInfo[], closed = true, event = true): TypeInfo {
  return { name, doc, fields: event ? [...fields, ...EVENT_FIELDS] : fields, closed };
}

const STR = 'str';

export const TYPES: Record<string, TypeInfo> = lookup({
  // Not closed: an Event variable also ranges over messages, calls and outputs, whose fields are all readable.
  Event: type('Event', 'Any event of a trace: a message, a tool call or a tool output.', [], false),
  Message: type('Message', 'A chat message from the user, the assistant or the system.', [
    { name: 'role', type: STR, doc: '"user", "assistant", "system" or "tool".' },
    { name: 'content', type: 'unknown', doc: 'The message text, a list of content chunks, or None.' },
    { name: 'tool_calls', type: 'list<ToolCall>', doc: 'Tool calls the assistant made in this message (may be empty or None).' },
  ]),
  ToolCall: type('ToolCall', 'A request by the agent to run a tool; it comes after the message that carries it.', [
    { name: 'id', type: STR, doc: 'Identifier that links the call to its output (optional).' },
    { name: 'type', type: STR, doc: 'Kind of call, usually "function".' },
    { name: 'function', type: 'Function', doc: 'The tool name and the arguments of the call.' },
  ]),
  Function: type('Function', 'The tool and arguments named by a tool call.', [
    { name: 'name', type: STR, doc: 'Name of the tool being called.' },
    { name: 'arguments', type: 'dict', doc: 'Arguments of the call, by parameter name.' },
  ], true, false),
  ToolOutput: type('ToolOutput', 'The result a tool returned to the agent.', [
    { name: 'role', type: STR, doc: 'Always "tool".' },
    { name: 'content', type: 'unknown', doc: 'The returned text, content chunks, a dictionary, or None.' },
    { name: 'tool_call_id', type: STR, doc: 'Identifier of the tool call this output answers.' },
  ]),
  TextChunk: type('TextChunk', 'A text part of a message whose content is a list of chunks.', [
    { name: 'type', type: STR, doc: 'Always "text".' },
    { name: 'text', type: STR, doc: 'The text of the chunk.' },
  ], true, false),
  Image: type('Image', 'An image part of a message whose content is a list of chunks.', [
    { name: 'type', type: STR, doc: 'Always "image_url".' },
    { name: 'image_url', type: 'dict', doc: 'Holds the image address under "url" (often a data: URL).' },
  ], true, false),
  Tool: type('Tool', 'A tool an MCP server offers to the agent.', [
    { name: 'name', type: STR, doc: 'Name of the tool.' },
    { name: 'description', type: STR, doc: 'Description shown to the model.' },
    { name: 'inputSchema', type: 'list<ToolParameter>', doc: 'The parameters the tool accepts.' },
    { name: 'server', type: STR, doc: 'Name of the MCP server offering the tool.' },
  ], true, false),
  ToolParameter: type('ToolParameter', 'One parameter in a tool\'s input schema.', [
    { name: 'type', type: STR, doc: 'JSON-schema type of the parameter.' },
    { name: 'name', type: STR, doc: 'Parameter name.' },
    { name: 'description', type: STR, doc: 'Description shown to the model.' },
    { name: 'required', type: 'bool', doc: 'Whether the parameter must be given.' },
    { name: 'properties', type: 'dict', doc: 'Nested properties of an object parameter.' },
    { name: 'additionalProperties', type: 'unknown', doc: 'Whether (or which) extra properties are allowed.' },
    { name: 'items', type: 'unknown', doc: 'Schema of the elements of an array parameter.' },
    { name: 'enum', type: 'list', doc: 'The allowed values, when restricted.' },
  ], true, false),
  LLM: type('LLM', 'Information about the model behind the agent.', [], false, false),
  Input: type('Input', 'The parameters passed to the analysis (read them through input.<name>).', [], false, false),
  str: type('str', 'A string. Methods: strip, lower, upper, splitlines, split, format, join. Member access on a JSON string reads its parsed fields.', [], false, false),
  int: type('int', 'An integer.', [], false, false),
  float: type('float', 'A floating-point number.', [], false, false),
  bool: type('bool', 'True or False.', [], false, false),
  list: type('list', 'A list; `(x: T) in some_list` iterates over it.', [], false, false),
  dict: type('dict', 'A dictionary. Methods: keys, values, items, get; fields can also be read as members.', [], false, false),
  PythonDetectorResult: type('PythonDetectorResult', 'Facts the python_code detector found in a piece of Python code.', [
    { name: 'imports', type: 'list<str>', doc: 'Modules the code imports.' },
    { name: 'builtins', type: 'list<str>', doc: 'Built-in functions the code uses.' },
    { name: 'syntax_error', type: 'bool', doc: 'Whether the code fails to parse.' },
    { name: 'syntax_error_exception', type: STR, doc: 'The parse error, when there is one.' },
    { name: 'function_calls', type: 'list', doc: 'Functions the code calls.' },
  ], false, false),
  CodeIssue: type('CodeIssue', 'A finding of the semgrep detector.', [
    { name: 'description', type: STR, doc: 'What the finding is about.' },
    { name: 'severity', type: STR, doc: 'How serious it is (e.g. "warning", "error").' },
  ], false, false),
  File: type('File', 'A file of the agent workspace (invariant.files).', [
    { name: 'path', type: STR, doc: 'Path of the file.' },
    { name: 'content', type: STR, doc: 'Text of the file.' },
  ], false, false),
});

/** Result constructors usable after `raise`. */
export const RESULT_TYPES: Record<string, string> = lookup({
  Violation: 'A result reported when the rule matches.',
  PolicyViolation: 'The usual result of a rule: PolicyViolation("message", key=value, ...) reports the message with the given details.',
  UpdateMessage: 'A result that asks to change a message (append, prepend or replace its content).',
  UpdateMessageHandler: 'Applies an UpdateMessage to a message.',
  AccessDenied: 'A result meaning the action is not allowed.',
});

function fn(name: string, params: (string | ParamInfo)[], returns: string, doc: string, extra: Partial<FunctionInfo> = {}): FunctionInfo {
  return {
    name,
    params: params.map((p) => (typeof p === 'string' ? (p.endsWith('?') ? { name: p.slice(0, -1), optional: true } : { name: p }) : p)),
    returns,
    doc,
    ...extra,
  };
}

/** Functions available in every rule without an import. */
export const BUILTIN_FUNCTIONS: Record<string, FunctionInfo> = lookup({
  any: fn('any', ['iterable'], 'bool', 'True when at least one element is true (a non-empty detector result counts).'),
  empty: fn('empty', ['iterable'], 'bool', 'True when the collection has no elements.'),
  len: fn('len', ['value'], 'int', 'Number of elements or characters.'),
  min: fn('min', [], 'unknown', 'Smallest of the arguments or of one collection.', { varargs: true, varkw: true }),
  max: fn('max', [], 'unknown', 'Largest of the arguments or of one collection.', { varargs: true, varkw: true }),
  sum: fn('sum', [], 'unknown', 'Sum of a collection of numbers.', { varargs: true, varkw: true }),
  tuple: fn('tuple', [], 'unknown', 'Builds a tuple from its arguments.', { varargs: true }),
  print: fn('print', [], 'bool', 'Prints its arguments while the rule is evaluated; always counts as true.', { varargs: true, varkw: true }),
  match: fn('match', ['pattern', 's'], 'bool', 'True when the regular expression matches at the start of the string.'),
  find: fn('find', ['pattern', 's'], 'list<str>', 'All matches of the regular expression in the string (and marks them in the trace).'),
  json_loads: fn('json_loads', ['s'], 'unknown', 'Parses a JSON string into dictionaries and lists.'),
  text: fn('text', ['data'], 'list<str>', 'The text chunks of a message content (plain strings are returned as one chunk).', { varargs: true, varkw: true }),
  image: fn('image', ['data'], 'list<str>', 'The image URLs found in a message content.', { varargs: true, varkw: true }),
  tool_call: fn('tool_call', ['output'], 'ToolCall', 'The tool call that a tool output answers.'),
  server: fn('server', ['event'], 'str', 'Name of the MCP server an event came from.'),
});

/** Standard-library functions, by name (shared between the modules that re-export them). */
export const LIBRARY_FUNCTIONS: Record<string, FunctionInfo> = lookup({
  count: fn('count', ['min?', 'max?'], 'bool', 'Block quantifier: holds when the number of ways to satisfy its body lies between min and max (inclusive).', { quantifier: true }),
  forall: fn('forall', [], 'bool', 'Block quantifier: holds when every way to bind its typed variables satisfies its body.', { quantifier: true }),
  llm: fn('llm', ['prompt'], 'str', 'Asks a language model and returns its answer.', { varargs: true, varkw: true }),
  llm_confirm: fn('llm_confirm', ['property_description'], 'bool', 'Asks a language model a yes/no question about the data.', { varargs: true, varkw: true }),
  pii: fn('pii', ['data', 'entities?'], 'list<str>', 'Kinds of personal information found (e.g. EMAIL_ADDRESS, PERSON).', { varkw: true }),
  secrets: fn('secrets', ['data'], 'list<str>', 'Kinds of secret tokens found (GitHub, AWS, Azure, Slack...).', { varkw: true }),
  moderated: fn('moderated', ['data', 'model?', 'default_threshold?', 'cat_thresholds?'], 'bool', 'True when a moderation model flags the content.', { varkw: true }),
  prompt_injection: fn('prompt_injection', ['data', 'model?', 'threshold?'], 'bool', 'True when a classifier sees a prompt-injection attempt.', { varkw: true }),
  unicode: fn('unicode', ['data', 'categories?'], 'list<str>', 'Unicode categories of unusual characters found (e.g. Cf, Co).', { varkw: true }),
  copyright: fn('copyright', ['data', 'threshold?'], 'list<str>', 'Licence or copyright notices found in the text.', { varkw: true }),
  is_similar: fn('is_similar', ['data', 'target', 'threshold?'], 'bool', 'True when the text is semantically close to one of the targets.', { varkw: true }),
  embedding_similarity: fn('embedding_similarity', ['data', 'target'], 'float', 'Similarity score of two texts from sentence embeddings.', { varkw: true }),
  fuzzy_contains: fn('fuzzy_contains', ['search_text', 'query', 'query_similarity_threshold?', 'use_semantic?'], 'bool', 'True when the text contains something close to the query, tolerating typos.', { varkw: true }),
  python_code: fn('python_code', ['data', 'ipython_mode?'], 'PythonDetectorResult', 'Analyses Python code: imports, built-ins used, function calls, syntax errors.', { varkw: true }),
  ipython_code: fn('ipython_code', ['data'], 'PythonDetectorResult', 'Like python_code, for IPython cells.', { varkw: true }),
  semgrep: fn('semgrep', ['data', 'lang?'], 'list<CodeIssue>', 'Runs semgrep on the code and returns its findings.', { varkw: true }),
  html_code: fn('html_code', ['data'], 'unknown', 'Hidden content of HTML (alt texts, links) in the data.', { varkw: true }),
  links: fn('links', ['data'], 'list<str>', 'Addresses of the links found in HTML in the data.', { varkw: true }),
  ocr: fn('ocr', ['image'], 'list<str>', 'Text recognised in the image.', { varkw: true }),
  should_allow_rbac: fn('should_allow_rbac', ['data', 'scope', 'user', 'user_roles', 'role_grants'], 'bool', 'Role-based access check: whether the user\'s roles grant access to the scope.'),
  get_files: fn('get_files', ['workspace_path', 'path?', 'pattern?'], 'list<str>', 'Files directly in a folder of the agent workspace.'),
  get_tree_files: fn('get_tree_files', ['workspace_path', 'path?', 'pattern?'], 'list<str>', 'Files anywhere below a folder of the agent workspace.'),
  get_file_content: fn('get_file_content', ['workspace_path', 'file_path'], 'File', 'One workspace file with its text.'),
  get_file_contents: fn('get_file_contents', ['workspace_path', 'path?', 'pattern?', 'tree?'], 'list<File>', 'Workspace files with their text.'),
  is_sensitive: fn('is_sensitive', ['file', 'func'], 'bool', 'True when the check function flags the file\'s content.'),
  is_sensitive_dir: fn('is_sensitive_dir', ['workspace_path', 'funcs', 'path?', 'pattern?', 'tree?'], 'bool', 'True when any of the check functions flags any file of the folder.'),
});

const NODE_TYPES = ['Event', 'Message', 'ToolCall', 'Function', 'ToolOutput', 'TextChunk', 'Image', 'Tool', 'ToolParameter', 'LLM', 'Input'];
const DETECTORS = ['pii', 'secrets', 'moderated', 'prompt_injection', 'unicode', 'copyright', 'is_similar', 'embedding_similarity', 'fuzzy_contains', 'python_code', 'ipython_code', 'semgrep', 'CodeIssue', 'PythonDetectorResult'];

function mod(name: string, doc: string, members: string[], checked = false): ModuleInfo {
  return { name, doc, members, checked };
}

export const MODULES: Record<string, ModuleInfo> = lookup(Object.fromEntries([
  mod('invariant', 'Core of the standard library: event types, results, quantifiers and LLM helpers.',
    [...NODE_TYPES, 'PolicyViolation', 'Violation', 'ErrorInformation', 'UpdateMessage', 'UpdateMessageHandler', 'AccessDenied', 'count', 'forall', 'Quantifier', 'llm', 'llm_confirm'], true),
  mod('invariant.detectors', 'Detectors for personal data, secrets, harmful content, prompt injection, code and more.', DETECTORS, true),
  mod('invariant.detectors.code', 'Code analysis detectors (Python facts, semgrep).', ['python_code', 'ipython_code', 'semgrep', 'CodeIssue', 'PythonDetectorResult']),
  mod('invariant.detectors.pii', 'Personal-information detector.', ['pii']),
  mod('invariant.detectors.secrets', 'Secret-token detector.', ['secrets']),
  mod('invariant.detectors.moderation', 'Content-moderation detector.', ['moderated']),
  mod('invariant.detectors.prompt_injection', 'Prompt-injection and Unicode detectors.', ['prompt_injection', 'unicode']),
  mod('invariant.detectors.copyright', 'Copyright and licence detector.', ['copyright']),
  mod('invariant.detectors.sentence_similarity', 'Semantic similarity detectors.', ['is_similar', 'embedding_similarity']),
  mod('invariant.detectors.fuzzy_matching', 'Fuzzy substring search.', ['fuzzy_contains']),
  mod('invariant.detectors.image', 'Image detectors.', []),
  mod('invariant.parsers', 'Parsers that extract structure from content.', []),
  mod('invariant.parsers.html', 'Reads hidden HTML content and links.', ['html_code', 'links']),
  mod('invariant.parsers.ocr', 'Optical character recognition.', ['ocr']),
  mod('invariant.access_control', 'Access-control helpers.', ['should_allow_rbac']),
  mod('invariant.files', 'Helpers that read the agent workspace.',
    ['File', 'get_files', 'get_tree_files', 'get_file_content', 'get_file_contents', 'is_sensitive', 'is_sensitive_dir', 'filter_path', 'join_paths'], true),
  mod('invariant.builtins', 'The functions every rule can use without an import.', Object.keys(BUILTIN_FUNCTIONS)),
  mod('invariant.errors', 'Result types of rules.', ['PolicyViolation', 'ErrorInformation', 'UpdateMessage', 'UpdateMessageHandler', 'AccessDenied']),
  mod('invariant.nodes', 'Event types.', NODE_TYPES),
  mod('invariant.message', 'Message helpers.', []),
  mod('invariant.quantifiers', 'Block quantifiers.', ['count', 'forall']),
  mod('invariant.llm', 'LLM helpers.', ['llm', 'llm_confirm']),
].map((m) => [m.name, m])));

export const VALUE_TYPES = ['EMAIL_ADDRESS', 'LOCATION', 'PHONE_NUMBER', 'PERSON', 'MODERATED'];

export const OPERATOR_DOCS: Record<string, string> = lookup({
  '->': '`a -> b`: `a` happens before `b` in the trace (a tool call inside a message comes after that message). Operands may be declared inline: `(call: ToolCall) -> (out: ToolOutput)`.',
  '~>': '`a ~> b`: `a` comes immediately before `b` in the trace.',
  is: '`x is tool:name` matches a tool call of that tool (the name is a regular expression that must match fully), or a tool output answering such a call. `x is None` tests for None; `x is not None` is understood as its negation.',
  in: '`a in b`: membership or substring test. `(x: T) in list` makes `x` range over the elements of the list. There is no `not in`: write `not (a in b)`.',
  contains_only: '`a contains_only b`: every element of `a` is one of the elements of `b`.',
  and: '`a and b`: both conditions hold. Lines of a rule body are joined with `and` as well.',
  or: '`a or b`: at least one condition holds.',
  not: '`not x`: negation. It binds tighter than any other operator: `not a in b` means `(not a) in b`, so write `not (a in b)`.',
  ':=': '`name := value` declares a constant (top level) or a variable (inside a rule or predicate).',
});

export const KEYWORD_DOCS: Record<string, string> = lookup({
  raise: '`raise <message> if:` declares a rule. The message is a string, a name, or a result such as `PolicyViolation("…", key=value)`; the conditions follow on indented lines and must all hold for the rule to fire.',
  if: 'Ends a rule header: the indented lines after `if:` are the rule\'s conditions, all of which must hold.',
  import: '`import module` or `from module import name` makes standard-library (`invariant.…`) or Python names available to the rules.',
  from: '`from module import name, other as alias` imports names from a standard-library (`invariant.…`) or Python module.',
  def: '`def Name(...):` groups statements; the rule engine ignores such definitions.',
});

export function functionSignature(f: FunctionInfo): string {
  const params = f.params.map((p) => (p.optional ? `${p.name}=…` : p.name));
  if (f.varargs) params.push('*args');
  if (f.varkw) params.push('**options');
  const call = f.quantifier && f.params.length === 0 ? f.name : `${f.name}(${params.join(', ')})`;
  return f.quantifier ? `${call}: <block>` : `${call} -> ${displayType(f.returns)}`;
}

export function displayType(t: string): string {
  return t.startsWith('list<') ? `list[${t.slice(5, -1)}]` : t;
}

export function typeInfo(t: string | undefined): TypeInfo | undefined {
  if (!t) return undefined;
  if (t.startsWith('list<')) return TYPES.list;
  return Object.prototype.hasOwnProperty.call(TYPES, t) ? TYPES[t] : undefined;
}

export function fieldOf(t: string | undefined, field: string): FieldInfo | undefined {
  const info = typeInfo(t);
  if (!info) return undefined;
  for (const f of info.fields) if (f.name === field) return f;
  return undefined;
}

export function elementType(t: string | undefined): string {
  return t && t.startsWith('list<') ? t.slice(5, -1) : 'unknown';
}

export function has<T>(record: Record<string, T>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** A close match for a misspelt name, if one exists. */
export function suggest(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
