import * as vscode from 'vscode';

/**
 * VS Code's own `jsonl` language claims every `.jsonl` file by its extension, so the manifest's `firstLine`
 * pattern for agent-trace-jsonl never gets a say for them. Agent trace logs are recognised here instead, by that
 * same pattern, and switched to our language as they open.
 */
function firstLinePattern(context: vscode.ExtensionContext): RegExp | undefined {
  const languages: { id: string; firstLine?: string }[] = context.extension.packageJSON?.contributes?.languages ?? [];
  const pattern = languages.find((language) => language.id === 'agent-trace-jsonl')?.firstLine;
  return pattern ? new RegExp(pattern) : undefined;
}

export function adoptTraceLogs(context: vscode.ExtensionContext): void {
  const pattern = firstLinePattern(context);
  if (!pattern) return;
  const adopt = (document: vscode.TextDocument): void => {
    if (document.languageId !== 'jsonl' || document.lineCount === 0) return;
    if (!pattern.test(document.lineAt(0).text.slice(0, 512))) return;
    void vscode.languages.setTextDocumentLanguage(document, 'agent-trace-jsonl');
  };
  vscode.workspace.textDocuments.forEach(adopt);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(adopt));
}
