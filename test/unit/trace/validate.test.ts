import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, problems } from './helpers';

/** A trace with one of nearly every structural mistake, each on its own event. */
const broken = lines(
  "[",
  "  {\"role\": 7, \"content\": \"x\"},",
  "  {\"content\": \"no role\"},",
  "  \"just a string\",",
  "  {\"role\": \"user\", \"content\": 42},",
  "  {\"role\": \"user\", \"content\": [5, {\"type\": \"text\"}, {\"type\": \"text\", \"text\": 1}, {\"type\": \"image_url\"}, {\"type\": \"image_url\", \"image_url\": {}}, {\"type\": \"video\"}, {\"text\": \"x\"}]},",
  "  {\"role\": \"assistant\", \"tool_calls\": {\"id\": \"x\"}},",
  "  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": 5, \"function\": {\"name\": \"a\", \"arguments\": {}}}, {\"id\": \"c2\", \"type\": \"function\"}, {\"id\": \"c3\", \"type\": \"function\", \"function\": {\"arguments\": 3}}, {\"id\": \"c4\", \"type\": \"function\", \"function\": {\"name\": 9, \"arguments\": \"{\\\"a\\\": 1 \\\"b\\\": 2}\"}}]},",
  "  {\"role\": \"tool\", \"tool_call_id\": 12, \"content\": \"x\"},",
  "  {\"role\": \"tool\", \"tool_call_id\": \"nope\", \"content\": \"x\"},",
  "  {\"role\": \"tool\", \"tool_call_id\": \"c9\", \"content\": true},",
  "  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c9\", \"type\": \"function\", \"function\": {\"name\": \"late\", \"arguments\": \"[1]\"}}], \"colour\": \"red\"},",
  "  {\"role\": \"tool\", \"content\": \"implicit\"},",
  "  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c4\", \"type\": \"function\", \"function\": {\"name\": \"again\", \"arguments\": {}}}]},",
  "  {\"role\": \"tool\", \"tool_call_id\": \"c4\", \"content\": \"ok\"}",
  "]",
);

test('each structural mistake gets its code, the narrowest span and a message saying what is expected', () => {
  assert.deepEqual(problems(broken), [
    "error trace/role-type 1:11-1:12 \"7\": \"role\" must be a string such as \"user\", \"assistant\", \"system\" or \"tool\", not a number",
    "error trace/missing-role 2:2-2:3 \"{\": Event #1 has no \"role\": add \"role\": \"user\", \"assistant\", \"system\" or \"tool\" (or \"type\": \"function\" for a tool call)",
    "error trace/event-not-object 3:2-3:17 \"\\\"just a string\\\"\": Event #2 is a string; every event must be a JSON object such as {\"role\": \"user\", \"content\": \"…\"}",
    "error trace/content-type 4:30-4:32 \"42\": \"content\" must be a string, null or a list of chunks like {\"type\": \"text\", \"text\": \"…\"}, not a number",
    "error trace/chunk-invalid 5:31-5:32 \"5\": content[0] is a number; a content chunk must be an object like {\"type\": \"text\", \"text\": \"…\"}",
    "error trace/chunk-invalid 5:43-5:49 \"\\\"text\\\"\": A \"text\" chunk needs a string \"text\"",
    "error trace/chunk-invalid 5:77-5:78 \"1\": A text chunk's \"text\" must be a string, not a number",
    "error trace/chunk-invalid 5:90-5:101 \"\\\"image_url\\\"\": An \"image_url\" chunk needs \"image_url\": {\"url\": \"…\"} (or the URL as a string)",
    "error trace/chunk-invalid 5:126-5:137 \"\\\"image_url\\\"\": \"image_url\" needs a string \"url\" (an https: or data: URL)",
    "warning trace/chunk-invalid 5:153-5:160 \"\\\"video\\\"\": Unknown chunk type \"video\": the trace format knows \"text\" and \"image_url\"",
    "error trace/chunk-invalid 5:163-5:164 \"{\": This content chunk has no \"type\": use \"text\" (with \"text\") or \"image_url\" (with \"image_url\": {\"url\": …})",
    "error trace/tool-calls-type 6:38-6:49 \"{\\\"id\\\": \\\"x\\\"}\": \"tool_calls\" must be a list of tool calls (or null), not an object",
    // the object is still read as the call it holds, and its own faults are its own
    "error trace/call-missing-type 6:38-6:39 \"{\": This tool call has no \"type\": add \"type\": \"function\"",
    "error trace/call-missing-function 6:38-6:39 \"{\": This tool call has no \"function\": add \"function\": {\"name\": \"…\", \"arguments\": {…}}",
    "information trace/unanswered-call 6:45-6:48 \"\\\"x\\\"\": No tool output answers this call (id \"x\")",
    "error trace/call-missing-type 7:39-7:40 \"{\": This tool call has no \"type\": add \"type\": \"function\"",
    "error trace/tool-call-id-type 7:46-7:47 \"5\": A tool call's \"id\" must be a string, not a number",
    "information trace/unanswered-call 7:46-7:47 \"5\": No tool output answers this call to \"a\"",
    "error trace/call-missing-function 7:94-7:95 \"{\": This tool call has no \"function\": add \"function\": {\"name\": \"…\", \"arguments\": {…}}",
    "information trace/unanswered-call 7:101-7:105 \"\\\"c2\\\"\": No tool output answers this call (id \"c2\")",
    "information trace/unanswered-call 7:135-7:139 \"\\\"c3\\\"\": No tool output answers this call (id \"c3\")",
    "error trace/function-name 7:161-7:171 \"\\\"function\\\"\": \"function\" has no \"name\": add the name of the tool called",
    "error trace/arguments-type 7:187-7:188 \"3\": \"arguments\" must be an object or a JSON string encoding one, not a number",
    "information trace/unanswered-call 7:199-7:203 \"\\\"c4\\\"\": No tool output answers this call (id \"c4\")",
    "error trace/function-name 7:246-7:247 \"9\": The function \"name\" must be a string, not a number",
    "error trace/arguments-json 7:273-7:275 \"\\\\\\\"\": arguments: the JSON in this string breaks here: Expected comma",
    "error trace/tool-call-id-type 8:35-8:37 \"12\": \"tool_call_id\" must be a string naming an earlier tool call's \"id\", not a number",
    "error trace/unknown-call-id 9:35-9:41 \"\\\"nope\\\"\": tool_call_id \"nope\" names no tool call in this trace",
    "error trace/call-id-later 10:35-10:39 \"\\\"c9\\\"\": tool_call_id \"c9\" names a call made later, in event #10 (late([1])); an output must come after its call",
    "error trace/content-type 10:52-10:56 \"true\": A tool output's \"content\" must be a string, a list of chunks or an object, not a boolean",
    "error trace/arguments-json 11:114-11:119 \"\\\"[1]\\\"\": arguments: this string encodes an array, but the arguments must be a JSON object",
    "hint trace/unknown-key 11:124-11:132 \"\\\"colour\\\"\": Unknown key \"colour\" in event #10; the trace format does not define it",
    "hint trace/implicit-output 12:11-12:17 \"\\\"tool\\\"\": This tool output has no tool_call_id, so it answers the latest call before it: late([1]) (id \"c9\") in event #10",
    "error trace/duplicate-call-id 13:46-13:50 \"\\\"c4\\\"\": Duplicate tool call id \"c4\": the output in event #13 comes after 2 unanswered calls with this id (events #6, #12), so which one it answers is ambiguous (the analyzer links it to the latest, in event #12)",
  ]);
});

/** A trace using every allowed variant: nothing but hints on truly unknown keys. */
const variants = lines(
  "[",
  "  {\"metadata\": {\"session\": 1}},",
  "  {\"role\": \"tool\", \"content\": \"orphan\"},",
  "  {\"tools\": [{\"name\": \"get_inbox\"}], \"metadata\": {\"server\": \"mail\"}},",
  "  {\"id\": \"t1\", \"type\": \"function\", \"function\": {\"name\": \"send\", \"arguments\": {\"to\": \"bob\"}}, \"extra\": 1},",
  "  {\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": {\"status\": \"sent\"}},",
  "  {\"metadata\": {\"late\": true}},",
  "  {\"role\": \"assistant\", \"content\": null, \"tool_calls\": null, \"refusal\": null, \"reasoning_content\": \"hm\"},",
  "  {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"look\"}, {\"type\": \"image_url\", \"image_url\": {\"url\": \"https://x/y.png\", \"detail\": \"low\", \"zoom\": 2}}, {\"type\": \"image\", \"image_url\": \"data:image/png;base64,AA\"}]},",
  "  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"s1\", \"type\": \"function\", \"function\": {\"name\": \"f\", \"arguments\": \"{\\\"q\\\": \\\"\\\\u00e9\\\"}\", \"strict\": true}, \"extra\": 1}]},",
  "  {\"role\": \"tool\", \"tool_call_id\": \"s1\", \"content\": [{\"type\": \"text\", \"text\": \"ok\"}]}",
  "]",
);

const notEvaluable = (what: string) =>
  `Rules cannot be evaluated on this trace: the Invariant analyzer reads text chunks (a string "text") and "image_url" objects, not ${what}; agent-traces eval reports the trace as failed`;

test('allowed variants raise no errors: metadata first, MCP tools, top-level calls, object outputs, null content, chunks', () => {
  assert.deepEqual(problems(variants), [
    "hint trace/implicit-output 2:11-2:17 \"\\\"tool\\\"\": This tool output has no tool_call_id and no tool call comes before it, so it answers none",
    "hint trace/unknown-key 4:93-4:100 \"\\\"extra\\\"\": Unknown key \"extra\" in this tool call; the trace format does not define it",
    "error trace/missing-role 6:2-6:3 \"{\": Event #5 holds only \"metadata\"; that is allowed only as the first element. Other events need a \"role\"",
    // allowed by the format, but the analyzer reads only "image_url" objects of strings: rules would fail on this trace
    `warning trace/chunk-not-evaluable 8:87-8:98 "\\"image_url\\"": ${notEvaluable('an "image_url" object with values other than strings')}`,
    "hint trace/unknown-key 8:144-8:150 \"\\\"zoom\\\"\": Unknown key \"zoom\" in \"image_url\"; the trace format does not define it",
    `warning trace/chunk-not-evaluable 8:188-8:214 "\\"data:image/png;base64,AA\\"": ${notEvaluable('an image given as a URL string under "image_url"')}`,
    "hint trace/unknown-key 9:135-9:143 \"\\\"strict\\\"\": Unknown key \"strict\" in \"function\"; the trace format does not define it",
    "hint trace/unknown-key 9:152-9:159 \"\\\"extra\\\"\": Unknown key \"extra\" in this tool call; the trace format does not define it",
  ]);
});

test('unknown-key hints follow the unknownKeyHints setting', () => {
  const found = problems(variants, { unknownKeyHints: false });
  assert.equal(found.filter((p) => p.includes('trace/unknown-key')).length, 0);
  assert.equal(found.length, 4);
});

test('the top level must be an array or an object with a messages array', () => {
  assert.deepEqual(problems('{"messages": 5}'), [
    'error trace/top-level 0:13-0:14 "5": "messages" must be an array of events, not a number',
  ]);
  assert.deepEqual(problems('{"metadata": {}, "note": 1}'), [
    'error trace/top-level 0:0-0:1 "{": This object has no "messages": a trace is a JSON array of events, or an object with a "messages" array',
    'hint trace/unknown-key 0:17-0:23 "\\"note\\"": Unknown key "note" in the trace object; the trace format does not define it',
  ]);
  assert.deepEqual(problems('"x"'), [
    'error trace/top-level 0:0-0:3 "\\"x\\"": A trace must be a JSON array of events (or an object with a "messages" array), not a string',
  ]);
  assert.deepEqual(problems('{"messages": [{"role": "user", "content": "hi"}], "metadata": {}, "annotations": []}'), []);
  assert.deepEqual(problems('[]'), []);
});

test('problems are capped at maxProblems with one notice after them', () => {
  const text = `[${Array.from({ length: 5 }, () => '{"role": 1}').join(', ')}]`;
  assert.deepEqual(problems(text, { maxProblems: 2 }), [
    'error trace/role-type 0:10-0:11 "1": "role" must be a string such as "user", "assistant", "system" or "tool", not a number',
    'error trace/role-type 0:23-0:24 "1": "role" must be a string such as "user", "assistant", "system" or "tool", not a number',
    'information trace/too-many-problems 0:0-0:0 "": Showing 2 of 5 problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)',
  ]);
  assert.equal(problems(text, { maxProblems: 5 }).length, 5);
});

test('implicit outputs name the call they answer; a call they answer is not reported as unanswered', () => {
  const text = lines(
    '[',
    '  {"id": "7", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": 10}}},',
    '  {"role": "tool", "content": "inbox"}',
    ']',
  );
  assert.deepEqual(problems(text), [
    'hint trace/implicit-output 2:11-2:17 "\\"tool\\"": This tool output has no tool_call_id, so it answers the latest call before it: get_inbox(n=10) (id "7") in event #0',
  ]);
});

test('a call nobody answers is information naming the tool', () => {
  const text = '[{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}]';
  assert.deepEqual(problems(text), [
    'information trace/unanswered-call 0:45-0:48 "\\"c\\"": No tool output answers this call to "search" (id "c")',
  ]);
});

test('string arguments: the break is pointed inside the string, after escapes', () => {
  const text = '[{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{\\"path\\": \\"a\\\\nb\\", }"}}]';
  const found = problems(text).filter((p) => p.includes('arguments-json'));
  assert.deepEqual(found, [
    `error trace/arguments-json 0:93-0:94 ",": arguments: the JSON in this string breaks here: Trailing comma: remove it (JSON allows no comma before '}')`,
  ]);
});

test('a tool_calls entry that is not an object is reported on that entry; null tool_calls is fine', () => {
  assert.deepEqual(problems('[{"role": "assistant", "tool_calls": ["get_inbox"]}]'), [
    'error trace/tool-calls-type 0:38-0:49 "\\"get_inbox\\"": tool_calls[0] is a string; each tool call must be an object {"id", "type": "function", "function": {…}}',
  ]);
  assert.deepEqual(problems('[{"role": "assistant", "content": "x", "tool_calls": null}]'), []);
});

test('the same checks run on the events of the object form', () => {
  assert.deepEqual(problems('{"messages": [{"role": "tool", "tool_call_id": "q", "content": "x"}], "metadata": {}}'), [
    'error trace/unknown-call-id 0:47-0:50 "\\"q\\"": tool_call_id "q" names no tool call in this trace',
  ]);
});

test('trace/unknown-role: a warning naming the role a typo most likely meant, a hint for a role of its own', () => {
  const text = lines(
    '[',
    '  {"role": "assitant", "content": "a"},',
    '  {"role": "Tool", "tool_call_id": "x", "content": "b"},',
    '  {"role": "agent", "content": "c"},',
    '  {"role": "developer", "content": "d"},',
    '  {"role": "usr", "content": "e"},',
    '  {"role": "ustem", "content": "f"}',
    ']',
  );
  assert.deepEqual(problems(text), [
    'warning trace/unknown-role 1:11-1:21 "\\"assitant\\"": Unknown role "assitant". Did you mean "assistant"? The analyzer reads this event as a message with a role of its own',
    'warning trace/unknown-role 2:11-2:17 "\\"Tool\\"": Unknown role "Tool". Did you mean "tool"? The analyzer reads this event as a message with a role of its own',
    'hint trace/unknown-role 3:11-3:18 "\\"agent\\"": The role "agent" is not one the trace format names (user, assistant, system, tool, developer); the analyzer reads this event as a message with a role of its own',
    'warning trace/unknown-role 5:11-5:16 "\\"usr\\"": Unknown role "usr". Did you mean "user"? The analyzer reads this event as a message with a role of its own',
    'warning trace/unknown-role 6:11-6:18 "\\"ustem\\"": Unknown role "ustem". Did you mean "user" or "system"? The analyzer reads this event as a message with a role of its own',
  ]);
});
