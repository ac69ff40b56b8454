import * as vscode from 'vscode';
import { detectResponses } from '../../server/src/responses/recognize';
import { detectSpans } from '../../server/src/otel/recognize';

/**
 * VS Code's own `json` and `jsonl` languages claim every `.json` and `.jsonl` file by its extension, so the
 * manifest's `firstLine` pattern for agent-trace-jsonl never gets a say for them. Files that hold an agent's
 * conversation are recognised here instead, by content, and switched to our languages as they open: JSON Lines by
 * the manifest's first-line pattern (datasets, agentguard logs, Codex rollouts, OTLP spans), JSON by the server's own
 * bounded recognition of an OpenAI Responses body or of spans (the server then decides which JSON trace format it
 * holds). The setting agentTraces.files.recogniseByContent turns this off.
 */
function firstLinePattern(context: vscode.ExtensionContext): RegExp | undefined {
  const languages: { id: string; firstLine?: string }[] = context.extension.packageJSON?.contributes?.languages ?? [];
  const pattern = languages.find((language) => language.id === 'agent-trace-jsonl')?.firstLine;
  return pattern ? new RegExp(pattern) : undefined;
}

/** Characters of a JSON document looked at (the recognition reads no further itself). */
const jsonPrefix = 256 * 1024;

export function adoptTraceLogs(context: vscode.ExtensionContext): void {
  const pattern = firstLinePattern(context);
  const adopt = (document: vscode.TextDocument): void => {
    if (!vscode.workspace.getConfiguration('agentTraces').get<boolean>('files.recogniseByContent', true)) return;
    if (document.languageId === 'jsonl') {
      if (!pattern || document.lineCount === 0 || !pattern.test(document.lineAt(0).text.slice(0, 512))) return;
      void vscode.languages.setTextDocumentLanguage(document, 'agent-trace-jsonl');
    } else if (document.languageId === 'json' || document.languageId === 'jsonc') {
      const end = document.positionAt(jsonPrefix);
      const prefix = document.getText(new vscode.Range(new vscode.Position(0, 0), end));
      if (!detectResponses(prefix) && !detectSpans(prefix)) return;
      void vscode.languages.setTextDocumentLanguage(document, 'agent-trace');
    }
  };
  vscode.workspace.textDocuments.forEach(adopt);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(adopt));
}
