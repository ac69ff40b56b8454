// The transport floor of the end-to-end benchmark: a language server on vscode-languageserver that does no work,
// publishing one diagnostic when a document opens or changes and answering every request with nothing. What a
// real server takes beyond this is its own work.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, hoverProvider: true, definitionProvider: true },
}));

function publish(document: TextDocument): void {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: [{ range, message: 'no-op' }] });
}

documents.onDidChangeContent((event) => publish(event.document));
connection.onHover(() => null);
connection.onDefinition(() => null);

documents.listen(connection);
connection.listen();
