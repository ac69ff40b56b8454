/**
 * The edits made to each open document since the version its model was last built for, merged into one change,
 * so that a language service can build the next model from the previous one (see LanguageService.reparse).
 */
import type { TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import type { TextChange } from '../common/languageService';
import { EditorDocument } from './editorDocument';

interface Entry {
  /** The version the change starts from. */
  from: number;
  /** The version it leads to. */
  to: number;
  /** Null when some edit replaced the whole text; undefined before the first edit. */
  change: TextChange | null | undefined;
}

export class EditLog {
  private readonly entries = new Map<string, Entry>();

  /** An edit from version `from` to `to`; it extends the logged change when that ends at `from`. */
  record(uri: string, from: number, to: number, change: TextChange | null | undefined): void {
    const entry = this.entries.get(uri);
    if (!entry || entry.to !== from) {
      this.entries.set(uri, { from, to, change });
      return;
    }
    entry.to = to;
    entry.change = entry.change === undefined ? change : entry.change && change && merged(entry.change, change);
  }

  /**
   * The change from version `from` to version `to`, when every edit between them is known; from now on the log
   * counts from `to` (a model for `to` is being built).
   */
  take(uri: string, from: number | undefined, to: number): TextChange | undefined {
    const entry = this.entries.get(uri);
    this.entries.set(uri, { from: to, to, change: undefined });
    if (!entry || from === undefined || entry.from !== from || entry.to !== to) return undefined;
    return entry.change ?? undefined;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}

/** `first` then `second` (in the text `first` made) as one change of the text before `first`. */
export function merged(first: TextChange, second: TextChange): TextChange {
  const start = Math.min(first.start, second.start);
  const oldEnd = first.oldEnd + Math.max(0, second.oldEnd - first.newEnd);
  const newEnd = Math.max(first.newEnd, second.oldEnd) + (second.newEnd - second.oldEnd);
  return { start, oldEnd, newEnd };
}

/** The editor's documents, updated as the library does, with each edit's offsets written to `log`. */
export function documentsRecordingEdits(log: EditLog): TextDocumentsConfiguration<TextDocument> {
  return {
    create: EditorDocument.create,
    update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
      const before = document.version;
      let change: TextChange | null | undefined;
      for (const each of changes) {
        if ('range' in each) {
          let start = document.offsetAt(each.range.start);
          let end = document.offsetAt(each.range.end);
          if (start > end) [start, end] = [end, start];
          const next = { start, oldEnd: end, newEnd: start + each.text.length };
          change = change === undefined ? next : change && merged(change, next);
        } else {
          change = null;
        }
        document = EditorDocument.update(document as EditorDocument, [each], version);
      }
      log.record(document.uri, before, version, change);
      return document;
    },
  };
}
