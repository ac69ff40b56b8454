import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { conversationWords, RecognizeDocumentRequest, sendRequest } from '../../shared/requests';

/** JSON Lines files are recognised by their first lines: only these are searched for the words. */
const searchedLines = 50;

/**
 * VS Code gives every `.json` file its `json` language, and every `.jsonl` file `jsonl`. An Anthropic Messages
 * conversation is recognised by its content: a document that holds the words every conversation holds is shown to
 * the server, which reads it and says whether it is one; if so, it gets our language (its features, its preview).
 * Other JSON files cost one search of their text.
 */
export function adoptConversations(context: vscode.ExtensionContext, client: LanguageClient): void {
  const asked = new Set<string>();
  const adopt = async (document: vscode.TextDocument): Promise<void> => {
    if (document.languageId !== 'json' && document.languageId !== 'jsonl') return;
    if (/\.trace\.jsonl?$/i.test(document.uri.path)) return;
    const key = `${document.uri.toString()}#${document.version}`;
    if (asked.has(key)) return;
    const text = document.getText();
    const searched = document.languageId === 'jsonl' ? text.slice(0, document.offsetAt(new vscode.Position(Math.min(searchedLines, document.lineCount), 0))) : text;
    if (!conversationWords.test(searched)) return;
    asked.add(key);
    try {
      const language = await sendRequest(client, RecognizeDocumentRequest, { uri: document.uri.toString(), languageId: document.languageId, text });
      if (language && !document.isClosed) await vscode.languages.setTextDocumentLanguage(document, language);
    } catch {
      // The server restarting or stopped: the document keeps the editor's language.
    }
  };
  vscode.workspace.textDocuments.forEach((document) => void adopt(document));
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((document) => void adopt(document)));
}
