/**
 * "Why not here?": a rule evaluated with one trace element bound to its variable, the answer shown as a hover on
 * the element (the server computes it: ExplainChoicesRequest, ExplainRuleRequest, ExplainTargetsRequest). From a
 * trace, the command asks which rule; from a rule (its code action), which element of an open trace.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import {
  ExplainChoicesRequest, ExplainRuleOnTraceCommand, ExplainRuleRequest, ExplainTargetsRequest, sendRequest, type ExplainRuleResult, type RuleChoice,
} from '../../shared/requests';

export const WhyNotHereCommand = 'agentTraces.whyNotHere';

/** What an explanation showed, for the extension-host tests. */
export interface ShownExplanation {
  uri: string;
  range: vscode.Range;
  wouldFire: boolean;
  markdown: string;
}

export interface WhyNotHereApi {
  onDidExplain: vscode.Event<ShownExplanation>;
}

/** A rule chosen without a question (the extension-host tests, a link): its file and index. */
interface RuleArgument {
  ruleUri: string;
  ruleIndex: number;
}

const traceSelector: vscode.DocumentSelector = [{ language: 'agent-trace' }, { language: 'agent-trace-jsonl' }, { language: 'agent-trace-anthropic' }];

export function registerWhyNotHere(context: vscode.ExtensionContext, client: LanguageClient): WhyNotHereApi {
  const explained = new vscode.EventEmitter<ShownExplanation>();
  /** The explanation on show: its hover answers on the element until the trace is edited or another is asked for. */
  let shown: (ShownExplanation & { version: number }) | undefined;

  const show = async (document: vscode.TextDocument, result: Extract<ExplainRuleResult, { range: unknown }>): Promise<ShownExplanation> => {
    const range = client.protocol2CodeConverter.asRange(result.range);
    const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    const explanation = { uri: document.uri.toString(), range, wouldFire: result.wouldFire, markdown: result.markdown };
    shown = { ...explanation, version: document.version };
    await vscode.commands.executeCommand('editor.action.showHover');
    explained.fire(explanation);
    return explanation;
  };

  const explain = async (document: vscode.TextDocument, position: vscode.Position, rule: RuleArgument): Promise<ShownExplanation | undefined> => {
    const result = await sendRequest(client, ExplainRuleRequest, {
      uri: document.uri.toString(), position: client.code2ProtocolConverter.asPosition(position), ruleUri: rule.ruleUri, ruleIndex: rule.ruleIndex,
    });
    if ('problem' in result) {
      void vscode.window.showInformationMessage(`Why not here? ${result.problem}.`);
      return undefined;
    }
    return show(document, result);
  };

  context.subscriptions.push(
    explained,
    vscode.languages.registerHoverProvider(traceSelector, {
      provideHover(document, position) {
        if (!shown || shown.uri !== document.uri.toString() || shown.version !== document.version || !shown.range.contains(position)) return undefined;
        const markdown = new vscode.MarkdownString(shown.markdown);
        return new vscode.Hover(markdown, shown.range);
      },
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (shown?.uri === event.document.uri.toString() && event.contentChanges.length > 0) shown = undefined;
    }),

    vscode.commands.registerCommand(WhyNotHereCommand, async (rule?: RuleArgument) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !/^agent-trace/.test(editor.document.languageId)) {
        void vscode.window.showInformationMessage('Why not here? Put the cursor on an event or a tool call of a trace, then ask again.');
        return undefined;
      }
      const { document } = editor;
      const position = editor.selection.active;
      if (rule) return explain(document, position, rule);
      const choices = await sendRequest(client, ExplainChoicesRequest, { uri: document.uri.toString(), position: client.code2ProtocolConverter.asPosition(position) });
      if (!choices.element) {
        void vscode.window.showInformationMessage(`Why not here? ${choices.problem ?? 'the cursor is on no event or tool call of the trace'}.`);
        return undefined;
      }
      const fitting = choices.rules.filter((choice) => choice.variable !== undefined);
      if (fitting.length === 0) {
        const reason = choices.rules.length === 0
          ? 'no rule file applies to this trace: open one beside it, or bind one with Check with Rules…'
          : `no rule has a variable a ${choices.element.label.split(' ')[1]} can be bound to`;
        void vscode.window.showInformationMessage(`Why not here? ${reason}.`);
        return undefined;
      }
      const picked = fitting.length === 1 ? fitting[0] : (await vscode.window.showQuickPick(fitting.map(ruleItem), {
        title: `Why does a rule not fire on ${choices.element.label}?`,
        placeHolder: 'The rule to evaluate with this element bound to its variable',
        matchOnDescription: true,
      }))?.choice;
      return picked ? explain(document, position, picked) : undefined;
    }),

    vscode.commands.registerCommand(ExplainRuleOnTraceCommand, async (ruleUri: string, ruleIndex: number, target?: { uri: string; address: string }) => {
      const targets = await sendRequest(client, ExplainTargetsRequest, { ruleUri, ruleIndex });
      if (targets.traces.length === 0) {
        void vscode.window.showInformationMessage(`Why not here? ${targets.reason ?? 'no open trace has an element the rule could be asked about'}.`);
        return undefined;
      }
      const items = targets.traces.flatMap((trace) => trace.elements.map((element) => ({
        label: element.label, description: trace.label, address: element.address, uri: trace.uri, range: element.range,
      })));
      const picked = target
        ? items.find((item) => item.uri === target.uri && item.address === target.address)
        : await vscode.window.showQuickPick(items, { title: 'Explain the rule on which element?', placeHolder: 'An event or tool call of an open trace', matchOnDescription: true });
      if (!picked) return undefined;
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(picked.uri));
      const position = client.protocol2CodeConverter.asPosition(picked.range.start);
      return explain(document, position, { ruleUri, ruleIndex });
    }),
  );
  return { onDidExplain: explained.event };
}

function ruleItem(choice: RuleChoice): vscode.QuickPickItem & { choice: RuleChoice } {
  const file = choice.ruleUri.slice(choice.ruleUri.lastIndexOf('/') + 1);
  return { label: choice.label, description: `${decodeURIComponent(file)}:${choice.line}`, detail: `binds ${choice.variable} to this element`, choice };
}
