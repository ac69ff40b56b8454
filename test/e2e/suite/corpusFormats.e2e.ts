import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, definitionAt, diagnosticCode, eventAfter, formatRange, outlineNames, outlineOf, rangeOf, waitFor, workspaceFile } from './helpers';

/**
 * The agents' own formats on the corpus's real files (`../shared/corpus/formats/`), read in place, in a real VS Code:
 * a Codex rollout, an OpenAI Responses request recorded in an HTTP cassette (saved as the JSON body a user would
 * have), an Inspect AI log and any-agent's spans. For each: definition from an output to its call (the corpus's
 * Inspect log has only outputs whose calls are missing: their diagnostic instead), the outline, the preview, and a
 * rule's violation on the file's own characters.
 */
const corpus = path.resolve(__dirname, '../../../..', '../shared/corpus/formats');
const present = existsSync(corpus);

function corpusFile(...segments: string[]): vscode.Uri {
  return vscode.Uri.file(path.join(corpus, ...segments));
}

async function write(text: string, name: string): Promise<vscode.Uri> {
  const uri = workspaceFile(name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/** Empties the rule files (every open rule file applies to every trace), then deletes what the tests wrote. */
async function cleanUp(written: vscode.Uri[]): Promise<void> {
  await closeAllEditors();
  for (const uri of written.filter((each) => each.path.endsWith('.gr'))) {
    await vscode.workspace.fs.writeFile(uri, new Uint8Array());
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (open) await waitFor(() => open.isClosed || open.getText() === '', 20_000, `${uri.path} emptied`);
  }
  for (const uri of written) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
}

async function opened(uri: vscode.Uri, languageId: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  await activeApi();
  const current = () => vscode.workspace.textDocuments.find((each) => each.uri.toString() === uri.toString());
  return waitFor(() => (current()?.languageId === languageId ? current() : undefined), 20_000, `${uri.path} as ${languageId} (is ${current()?.languageId})`);
}

async function previewNodes(document: vscode.TextDocument): Promise<number> {
  await vscode.window.showTextDocument(document, { preview: false });
  const api = await activeApi();
  const event = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreview'), `the preview of ${document.uri.path}`);
  assert.ok(event.domNodeCount > 0);
  return event.nodeCount;
}

/** Shows the rule file beside the trace and waits for its violations there. */
async function violationsBeside(trace: vscode.TextDocument, rule: vscode.Uri): Promise<vscode.Diagnostic[]> {
  await vscode.window.showTextDocument(trace, { preview: false });
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(rule), { preview: false, viewColumn: vscode.ViewColumn.Beside });
  return waitFor(() => {
    const found = vscode.languages.getDiagnostics(trace.uri).filter((d) => d.source === 'guardrails');
    return found.length > 0 ? found : undefined;
  }, 30_000, `a guardrails diagnostic on ${trace.uri.path}`);
}

(present ? describe : describe.skip)('the corpus\'s files of each format', () => {
  before(() => {
    if (!present && process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  });

  describe('a Codex rollout (codex/codex_golden.jsonl)', () => {
    let document: vscode.TextDocument;
    let rule: vscode.Uri;
    before(async () => {
      rule = await write('raise "lists files" if:\n    (call: ToolCall)\n    call is tool:shell\n    "ls -la" in call.function.arguments.command\n', 'corpus-codex.gr');
      document = await opened(corpusFile('codex', 'codex_golden.jsonl'), 'agent-trace-jsonl');
    });
    after(() => cleanUp([rule]));

    it('goes from the output\'s call_id to its call', async () => {
      const [target, ...more] = await definitionAt(document, rangeOf(document, '"call_golden_001"', 1).start.translate(0, 3));
      assert.equal(more.length, 0);
      assert.equal(formatRange(target.selection ?? target.range), formatRange(rangeOf(document, '"call_golden_001"', 0)));
    });

    it('outlines the user turns with the shell call under the first, previews the rollout', async () => {
      const names = outlineNames(await outlineOf(document));
      assert.ok(names.some((name) => name.includes('List the files in the current directory')), names.join(' | '));
      assert.ok(names.some((name) => name.startsWith('shell')), names.join(' | '));
      assert.ok(await previewNodes(document) >= 4);
    });

    it('underlines the violation on the command inside the call\'s arguments string', async () => {
      const [violation] = await violationsBeside(document, rule);
      assert.deepEqual([diagnosticCode(violation), formatRange(violation.range)], ['guardrails/corpus-codex.gr:1', formatRange(rangeOf(document, 'ls -la'))]);
    });
  });

  describe('an OpenAI Responses request (api-cassettes/openai_responses_model_simple_response_with_tool_call.yaml)', () => {
    let document: vscode.TextDocument;
    let rule: vscode.Uri;
    let saved: vscode.Uri;
    before(async () => {
      const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };
      const cassette = yaml.load(readFileSync(path.join(corpus, 'api-cassettes', 'openai_responses_model_simple_response_with_tool_call.yaml'), 'utf8')) as {
        interactions: { request: { parsed_body?: { input?: unknown[] } } }[];
      };
      // The second request: the question, the call the model made and the tool's output, sent back.
      const body = cassette.interactions.map((interaction) => interaction.request.parsed_body).find((each) => JSON.stringify(each?.input ?? []).includes('function_call_output'));
      assert.ok(body, 'a request that answers a call');
      saved = await write(`${JSON.stringify(body, null, 2)}\n`, 'corpus-responses-request.json');
      rule = await write('raise "capital asked" if:\n    (call: ToolCall)\n    call is tool:get_capital\n    "PotatoLand" in call.function.arguments.country\n', 'corpus-responses.gr');
      document = await opened(saved, 'agent-trace');
    });
    after(() => cleanUp([rule, saved]));

    it('goes from the output\'s call_id to its call', async () => {
      const [target, ...more] = await definitionAt(document, rangeOf(document, '"call_YfwRsW8sUxDKipwyhWTzOXCA"', 1).start.translate(0, 3));
      assert.equal(more.length, 0);
      assert.equal(formatRange(target.selection ?? target.range), formatRange(rangeOf(document, '"call_YfwRsW8sUxDKipwyhWTzOXCA"', 0)));
    });

    it('outlines the question with its call, previews the conversation', async () => {
      const names = outlineNames(await outlineOf(document));
      assert.ok(names.some((name) => name.includes('What is the capital of PotatoLand?')), names.join(' | '));
      assert.ok(names.some((name) => name.includes('get_capital')), names.join(' | '));
      assert.ok(await previewNodes(document) >= 3);
    });

    it('underlines the violation on the word inside the call\'s arguments string', async () => {
      const [violation] = await violationsBeside(document, rule);
      // The first PotatoLand is the question's; the second is inside the arguments string.
      assert.deepEqual([diagnosticCode(violation), formatRange(violation.range)], ['guardrails/corpus-responses.gr:1', formatRange(rangeOf(document, 'PotatoLand', 1))]);
    });
  });

  describe('an Inspect AI log (inspect/log_tool_call_error.json)', () => {
    let document: vscode.TextDocument;
    let rule: vscode.Uri;
    before(async () => {
      rule = await write('raise "output too long" if:\n    (out: ToolOutput)\n    out.metadata.error is not None\n    out.metadata.error.type == "output_limit"\n', 'corpus-inspect.gr');
      document = await opened(corpusFile('inspect', 'log_tool_call_error.json'), 'agent-trace-inspect');
    });
    after(() => cleanUp([rule]));

    it('reports its tool messages whose calls are missing (it holds no call to go to)', async () => {
      const unknown = await waitFor(() => {
        const found = vscode.languages.getDiagnostics(document.uri).filter((d) => diagnosticCode(d) === 'inspect/unknown-call-id');
        return found.length > 0 ? found : undefined;
      }, 20_000, 'the unknown call ids of the log');
      assert.equal(unknown.length, 11);
      assert.equal(formatRange(unknown[0].range), formatRange(rangeOf(document, '"bash_1"')));
    });

    it('outlines the evaluation, then its sample; previews the sample', async () => {
      const symbols = await outlineOf(document);
      assert.equal(symbols.length, 2, symbols.map((symbol) => symbol.name).join(' | '));
      assert.match(symbols[1].name, /^Sample 1 \(epoch 4\)/);
      assert.ok(await previewNodes(document) >= 11);
    });

    it('marks the violation on the tool message that hit the output limit', async () => {
      const violations = await violationsBeside(document, rule);
      assert.equal(violations.length, 1);
      assert.equal(diagnosticCode(violations[0]), 'guardrails/corpus-inspect.gr:1');
      assert.match(document.getText(violations[0].range), /^\{\n\s+"content": "\\nThe output of your call to bash was too long[^]*"tool_call_id": "bash_11",/);
    });
  });

  describe('any-agent\'s spans (otel-any-agent/OPENAI_trace.json)', () => {
    let document: vscode.TextDocument;
    let rule: vscode.Uri;
    before(async () => {
      rule = await write('raise "time asked" if:\n    (out: ToolOutput)\n    "America/New_York" in out.content\n', 'corpus-spans.gr');
      document = await opened(corpusFile('otel-any-agent', 'OPENAI_trace.json'), 'agent-trace');
    });
    after(() => cleanUp([rule]));

    it('goes from the tool span\'s name to the call in the model span\'s output', async () => {
      const text = document.getText();
      const toolName = text.indexOf('"get_current_time"', text.indexOf('"gen_ai.tool.name"')) + 3;
      const [target, ...more] = await definitionAt(document, document.positionAt(toolName));
      assert.equal(more.length, 0);
      assert.deepEqual((target.selection ?? target.range).start, document.positionAt(text.indexOf('\\"get_current_time\\"')));
    });

    it('outlines the span tree, previews it', async () => {
      const names = outlineNames(await outlineOf(document));
      assert.ok(names.some((name) => name.includes('get_current_time')), names.join(' | '));
      assert.ok(await previewNodes(document) >= 4);
    });

    it('underlines the violation on the words in the tool span\'s own output', async () => {
      const violations = await violationsBeside(document, rule);
      const text = document.getText();
      const output = text.indexOf('America/New_York', text.indexOf('"gen_ai.output"', text.indexOf('"gen_ai.tool.args"')));
      const expected = formatRange(new vscode.Range(document.positionAt(output), document.positionAt(output + 'America/New_York'.length)));
      assert.ok(violations.some((v) => formatRange(v.range) === expected), violations.map((v) => formatRange(v.range)).join(', '));
    });
  });
});
