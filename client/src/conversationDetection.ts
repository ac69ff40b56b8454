import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { conversationWords, inspectLogHead, inspectLogWords, RecognizeDocumentRequest, sendRequest } from '../../shared/requests';

/** JSON Lines files are recognised by their first lines: only these are searched for the words. */
const searchedLines = 50;

/**
 * VS Code gives every `.json` file its `json` language, and every `.jsonl` file `jsonl`. An Anthropic Messages
 * conversation is recognised by its content: a document that holds the words every conversation holds is shown to
 * the server, which reads it and says whether it is one; if so, it gets our language (its features, its preview).
 * An Inspect AI log is recognised the same way by its beginning alone, which is all the server is shown of it (a log
 * may be 100 MB). Other JSON files cost one search of their text.
 */
export function adoptConversations(context: vscode.ExtensionContext, client: LanguageClient): void {
  const asked = new Set<string>();
  const adopt = async (document: vscode.TextDocument): Promise<void> => {
    if (document.languageId !== 'json' && document.languageId !== 'jsonl') return;
    if (/\.trace\.jsonl?$/i.test(document.uri.path)) return;
    const key = `${document.uri.toString()}#${document.version}`;
    if (asked.has(key)) return;
    const text = document.getText();
    const head = document.languageId === 'json' ? text.slice(0, inspectLogHead) : '';
    if (head && inspectLogWords.test(head)) {
      asked.add(key);
      if (await recognizeAs(document, head) === 'agent-trace-inspect') return;
    }
    const searched = document.languageId === 'jsonl' ? text.slice(0, document.offsetAt(new vscode.Position(Math.min(searchedLines, document.lineCount), 0))) : text;
    if (!conversationWords.test(searched)) return;
    asked.add(key);
    await recognizeAs(document, text);
  };
  /** The language the server gives the document by this text (all of it, or the beginning of a log), set if any. */
  const recognizeAs = async (document: vscode.TextDocument, text: string): Promise<string | null> => {
    try {
      const language = await sendRequest(client, RecognizeDocumentRequest, { uri: document.uri.toString(), languageId: document.languageId, text });
      if (language && !document.isClosed) await vscode.languages.setTextDocumentLanguage(document, language);
      return language;
    } catch {
      // The server restarting or stopped: the document keeps the editor's language.
      return null;
    }
  };
  vscode.workspace.textDocuments.forEach((document) => void adopt(document));
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((document) => void adopt(document)));
}
