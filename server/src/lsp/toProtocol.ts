import {
  CodeAction, CodeActionKind, CodeLens, CompletionItem, InlayHint, CompletionItemKind, Diagnostic, DiagnosticSeverity, DiagnosticTag, DocumentHighlight,
  DocumentHighlightKind, DocumentSymbol, FoldingRange, Hover, InsertTextFormat, LocationLink, MarkupKind, Range,
  SymbolKind, TextEdit, type SnippetTextEdit, type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TraceNotice, TraceViolation } from '../rulesOnTraces/evaluateOnTrace';
import type {
  CodeFix, CompletionEntry, InlayLabel, Lens, CompletionKind, FoldingSpan, Highlight, HoverResult, OutlineItem, OutlineKind, Problem, Severity,
  Span, Target, TextEditSpan,
} from '../common/types';
import { RevealLocationsCommand } from '../../../shared/requests';

/** Anything that maps offsets to positions: a TextDocument or a LineIndex. */
export interface PositionMapper {
  positionAt(offset: number): { line: number; character: number };
}

export function toRange(doc: PositionMapper, span: Span): Range {
  return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
}

const severities = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

export function toDiagnostic(doc: PositionMapper, uri: string, problem: Problem): Diagnostic {
  const diagnostic: Diagnostic = {
    range: toRange(doc, problem.span),
    severity: severities[problem.severity],
    code: problem.code,
    source: 'agent-traces',
    message: problem.message,
  };
  if (problem.unnecessary) diagnostic.tags = [DiagnosticTag.Unnecessary];
  if (problem.related?.length) {
    diagnostic.relatedInformation = problem.related.map((related) => ({
      location: { uri, range: toRange(doc, related.span) },
      message: related.message,
    }));
  }
  return diagnostic;
}

export function toHover(doc: PositionMapper, hover: HoverResult): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: hover.markdown }, range: toRange(doc, hover.span) };
}

export function toLocationLinks(doc: PositionMapper, uri: string, origin: Span | undefined, targets: Target[]): LocationLink[] {
  return targets.map((target) => ({
    originSelectionRange: origin ? toRange(doc, origin) : undefined,
    targetUri: target.uri ?? uri,
    targetRange: toRange(target.positions ?? doc, target.span),
    targetSelectionRange: toRange(target.positions ?? doc, target.selection ?? target.span),
  }));
}

const highlightKinds = { read: DocumentHighlightKind.Read, write: DocumentHighlightKind.Write, text: DocumentHighlightKind.Text } as const;

export function toHighlight(doc: PositionMapper, highlight: Highlight): DocumentHighlight {
  return { range: toRange(doc, highlight.span), kind: highlightKinds[highlight.kind] };
}

const symbolKinds: Record<OutlineKind, SymbolKind> = {
  event: SymbolKind.Object,
  message: SymbolKind.Object,
  call: SymbolKind.Function,
  output: SymbolKind.Event,
  tools: SymbolKind.Array,
  trace: SymbolKind.Module,
  metadata: SymbolKind.Namespace,
  rule: SymbolKind.Event,
  predicate: SymbolKind.Function,
  constant: SymbolKind.Constant,
  import: SymbolKind.Module,
  function: SymbolKind.Function,
  variable: SymbolKind.Variable,
};

export function toDocumentSymbol(doc: PositionMapper, item: OutlineItem): DocumentSymbol {
  const range = toRange(doc, item.span);
  let selectionRange = toRange(doc, item.selection);
  // LSP requires the selection inside the range; a service bug must not make the client drop the whole outline.
  if (item.selection.start < item.span.start || item.selection.end > item.span.end) selectionRange = range;
  return {
    name: item.name.length > 0 ? item.name : '(unnamed)',
    detail: item.detail,
    kind: symbolKinds[item.kind],
    range,
    selectionRange,
    children: item.children?.map((child) => toDocumentSymbol(doc, child)),
  };
}

export function toFoldingRanges(doc: PositionMapper, spans: FoldingSpan[]): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  for (const span of spans) {
    const startLine = doc.positionAt(span.start).line;
    const endLine = doc.positionAt(span.end).line;
    if (endLine > startLine) ranges.push({ startLine, endLine });
  }
  return ranges;
}

const completionKinds: Record<CompletionKind, CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  keyword: CompletionItemKind.Keyword,
  snippet: CompletionItemKind.Snippet,
  type: CompletionItemKind.Class,
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  constant: CompletionItemKind.Constant,
  module: CompletionItemKind.Module,
  reference: CompletionItemKind.Reference,
  enum: CompletionItemKind.EnumMember,
};

export function toCompletionItem(doc: PositionMapper, entry: CompletionEntry): CompletionItem {
  const item: CompletionItem = {
    label: entry.label,
    kind: completionKinds[entry.kind],
    detail: entry.detail,
    documentation: entry.documentation ? { kind: MarkupKind.Markdown, value: entry.documentation } : undefined,
    sortText: entry.sortText,
    filterText: entry.filterText,
    insertTextFormat: entry.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
  };
  const newText = entry.insertText ?? entry.label;
  if (entry.replace) item.textEdit = TextEdit.replace(toRange(doc, entry.replace), newText);
  else item.insertText = newText;
  return item;
}

export function toTextEdit(doc: PositionMapper, edit: TextEditSpan): TextEdit {
  return TextEdit.replace(toRange(doc, edit.span), edit.newText);
}

/** A guardrail violation on a trace, with the rule's `raise` line as related information. */
export function toViolationDiagnostic(doc: PositionMapper & { uri: string }, violation: TraceViolation, severity: Severity, rule: PositionMapper): Diagnostic {
  return {
    range: toRange(doc, violation.span),
    severity: severities[severity],
    code: violation.code,
    source: 'guardrails',
    message: violation.message,
    relatedInformation: [
      { location: { uri: violation.ruleUri, range: toRange(rule, violation.raise) }, message: 'the rule that raised it' },
      // Which trace element each of the rule's variables was bound to: the hover lists them as links.
      ...violation.bindings.map((b) => ({ location: { uri: doc.uri, range: toRange(doc, b.span) }, message: `${b.variable} = ${b.address}` })),
    ],
  };
}

/** A rule not evaluated on a trace, a failed evaluation or a work budget hit: information, once, on the trace. */
export function toGuardrailNoticeDiagnostic(doc: PositionMapper, notice: TraceNotice, rule: PositionMapper): Diagnostic {
  return {
    range: toRange(doc, notice.span),
    severity: DiagnosticSeverity.Information,
    code: `guardrails/${notice.kind}`,
    source: 'guardrails',
    message: notice.message,
    relatedInformation: [{ location: { uri: notice.ruleUri, range: toRange(rule, notice.ruleSpan) }, message: 'the rule concerned' }],
  };
}

/** The command a code lens runs to reveal its targets (registered by the client). */

/** The code action kind of fix-on-save (`editor.codeActionsOnSave`: `source.fixAll.agentTraces`). */
export const fixAllKind = `${CodeActionKind.SourceFixAll}.agentTraces`;

/** A document edit; snippet text goes as a snippet edit when the client takes them, else with its markup removed. */
export function toWorkspaceEdit(
  doc: PositionMapper & { uri: string; version: number }, edits: TextEditSpan[], snippet: boolean, snippetSupport: boolean,
): WorkspaceEdit {
  if (snippet && snippetSupport) {
    const snippetEdits: SnippetTextEdit[] = edits.map((edit) => ({ range: toRange(doc, edit.span), snippet: { kind: 'snippet', value: edit.newText } }));
    return { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: snippetEdits }] };
  }
  const plain = snippet ? edits.map((edit) => ({ ...edit, newText: withoutSnippetMarkup(edit.newText) })) : edits;
  return { changes: { [doc.uri]: plain.map((edit) => toTextEdit(doc, edit)) } };
}

function withoutSnippetMarkup(text: string): string {
  return text.replace(/\$\d+|\$\{\d+:?([^}]*)\}|\\([\\$}])/g, (_match, placeholder?: string, escaped?: string) => escaped ?? placeholder ?? '');
}

export function toCodeAction(
  doc: PositionMapper & { uri: string; version: number }, fix: CodeFix, diagnostics: Diagnostic[], snippetSupport: boolean,
): CodeAction {
  const action: CodeAction = {
    title: fix.title,
    kind: fix.kind === 'quickfix' ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite,
    edit: toWorkspaceEdit(doc, fix.edits, fix.snippet === true, snippetSupport),
  };
  if (diagnostics.length > 0) action.diagnostics = diagnostics;
  if (fix.preferred) action.isPreferred = true;
  return action;
}

export function toInlayHint(doc: PositionMapper, label: InlayLabel): InlayHint {
  return { position: doc.positionAt(label.offset), label: label.label, paddingLeft: true, tooltip: label.tooltip };
}

/** A lens runs its own command, or reveals its targets (a peek list, or the one target). */
export function toCodeLens(doc: PositionMapper, uri: string, lens: Lens): CodeLens {
  const range = toRange(doc, lens.span);
  if (lens.command) return { range, command: { title: lens.title, command: lens.command.id, arguments: lens.command.arguments } };
  const locations = (lens.targets ?? []).map((target) => ({
    uri: target.uri ?? uri,
    range: toRange(target.positions ?? doc, target.span),
  }));
  return {
    range,
    command: { title: lens.title, command: locations.length > 0 ? RevealLocationsCommand : '', arguments: locations.length > 0 ? [uri, range.start, locations] : undefined },
  };
}
