import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeBlock, escapeMarkdown, inlineCode, quote } from '../../../server/src/common/markdown';
import { hover as traceHover } from '../../../server/src/trace/hover';
import { traceService } from '../../../server/src/trace';
import { jsonlService } from '../../../server/src/jsonl';
import { guardrailService } from '../../../server/src/guardrail';
import { defaultSettings } from '../../../server/src/common/languageService';

const context = { settings: defaultSettings };
const IMAGE = '![x](https://evil.example/x.png)';

test('escapeMarkdown: images, links, HTML, emphasis, code and autolinks render as the characters they are', () => {
  assert.equal(escapeMarkdown(IMAGE), '\\!\\[x\\]\\(https\\://evil.example/x.png\\)');
  assert.equal(escapeMarkdown('[a](b) <script>alert(1)</script> &amp;'), '\\[a\\]\\(b\\) \\<script\\>alert\\(1\\)\\</script\\> \\&amp;');
  assert.equal(escapeMarkdown('*bold* _it_ ~~s~~ `code` a|b #1 @me'), '\\*bold\\* \\_it\\_ \\~\\~s\\~\\~ \\`code\\` a\\|b \\#1 \\@me');
  assert.equal(escapeMarkdown('see www.evil.example or http://x'), 'see www\\.evil.example or http\\://x');
  assert.equal(escapeMarkdown('a\\b'), 'a\\\\b');
});

test('escapeMarkdown: words with underscores, dates, ranges and paths stay readable', () => {
  assert.equal(escapeMarkdown('tool_calls messages.0.content 4-11 2026-11-22T11:36:18.046354Z'), 'tool_calls messages.0.content 4-11 2026-11-22T11:36:18.046354Z');
});

test('escapeMarkdown: newlines and control characters cannot start a new block', () => {
  assert.equal(escapeMarkdown('a\n# heading\r\n- item\n\n    code\u2028x\x1b[2K'), 'a \\# heading - item     code x \\[2K');
  assert.equal(escapeMarkdown('- item'), '\\- item');
  assert.equal(escapeMarkdown('  12. item'), '  12\\. item');
  assert.equal(escapeMarkdown('+ item'), '\\+ item');
  assert.equal(quote('> nested\n===='), '> \\> nested ====');
});

test('inlineCode: a longer backtick run than any inside, on one line, padded when needed', () => {
  assert.equal(inlineCode('call_1'), '`call_1`');
  assert.equal(inlineCode('a`b'), '``a`b``');
  assert.equal(inlineCode('````'), '````` ```` `````');
  assert.equal(inlineCode('`x'), '`` `x ``');
  assert.equal(inlineCode('a\n# b'), '`a # b`');
  assert.equal(inlineCode(''), '` `');
});

test('codeBlock: the fence is longer than any backtick run inside, so the text cannot close it', () => {
  assert.equal(codeBlock('plain'), '```text\nplain\n```');
  assert.equal(codeBlock('a\n````\n' + IMAGE), '`````text\na\n````\n' + IMAGE + '\n`````');
  assert.equal(codeBlock('x := 1', 'guardrail'), '```guardrail\nx := 1\n```');
  assert.equal(codeBlock('a\r\nb'), '```text\na\nb\n```');
});

const HOSTILE_OUTPUT = 'done\n````\n' + IMAGE + '\n<script>alert(1)</script>';

test('trace hover: a hostile output, call id, tool name and role stay inside code or escaped text', () => {
  const text = JSON.stringify([
    { role: 'assistant', content: null, tool_calls: [{ id: 'id`![x](https://e/x)', type: 'function', function: { name: 'send[x](https://e)', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'id`![x](https://e/x)', content: HOSTILE_OUTPUT },
    { role: '![r](https://e/r.png)', content: 'x' },
  ]);
  const model = traceService.parse({ uri: 'file:///t.trace.json', version: 1, text });
  const hover = traceHover(model, text.indexOf('id`', text.indexOf('tool_call_id')) + 1, context)!;
  assert.equal(hover.markdown, [
    '**Answers** `send[x](https://e)()` — event #0, id ``id`![x](https://e/x)``',
    '',
    'Output in event #1:',
    '`````text',
    HOSTILE_OUTPUT,
    '`````',
  ].join('\n'));
  const role = traceHover(model, text.indexOf('![r]') + 1, context)!;
  assert.equal(role.markdown, '**\\!\\[r\\]\\(https\\://e/r.png\\)** — a role this format does not define; tools treat it as an ordinary message.');
});

test('agentguard hover: tool names, statuses and exception texts are escaped', () => {
  const line = '{"call":{"call_id":"c1","tool_name":"t`<img src=x>","args":[],"kwargs":{},"timestamp":"2026-11-22T11:36:17.813113Z","session_id":null,"metadata":{}},'
    + '"result":{"call_id":"c1","tool_name":"t`<img src=x>","status":"failure","return_value":null,"exception":"boom\\n# ' + IMAGE + '","exception_type":"E","execution_time_ms":1,'
    + '"retry_count":0,"validations":[],"hallucination":null,"cost":null,"provider":null,"model":null,"usage":null,"cost_breakdown":null,'
    + '"cost_estimated":false,"cost_known":false,"timestamp":"2026-11-22T11:36:17.846354Z"}}\n';
  const model = jsonlService.parse({ uri: 'file:///log.jsonl', version: 1, text: line });
  const summary = jsonlService.hover(model, line.indexOf('"c1"') + 1, context)!.markdown;
  assert.ok(summary.startsWith('**Tool call ``t`<img src=x>``** (line 1)'), summary);
  assert.ok(summary.endsWith('> boom \\# \\!\\[x\\]\\(https\\://evil.example/x.png\\)'), summary);
  const status = jsonlService.hover(model, line.indexOf('"failure"') + 1, context)!.markdown;
  assert.ok(status.endsWith('\n\n> boom \\# \\!\\[x\\]\\(https\\://evil.example/x.png\\)'), status);
});

test('rule hover: declarations and tool names from the rule file go into code, never into Markdown', () => {
  const text = 'x := "````"\nraise "r" if:\n    (c: ToolCall)\n    c is tool:a\n    y := x\n';
  const model = guardrailService.parse({ uri: 'file:///r.gr', version: 1, text });
  assert.equal(guardrailService.hover(model, text.indexOf('x\n'), context)!.markdown, '`````guardrail\nx := "````"\n`````\n\n(constant) x: str');
  const y = guardrailService.hover(model, text.indexOf('y :='), context)!.markdown;
  assert.equal(y, '```guardrail\n(variable) y: str\n```\n\nDeclared by `y := x`');
});
