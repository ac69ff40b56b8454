import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentModels } from './documentModels';
import { describeError } from '../common/text';

/** Typing pauses at least this long before an edited document is read again ahead of its check. */
export const preparePauseMs = 50;

/**
 * Reads an edited document again as soon as typing pauses, rather than when its check is due: the check after the
 * validation delay (and any request meanwhile) then finds the model of that version ready, and diagnostics appear
 * as the delay ends instead of a whole parse later (a 10,000-line rule file takes tens of milliseconds to read).
 * Only documents read at once are prepared; big ones are read in slices when their check runs.
 */
export class ModelPreparation {
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly models: DocumentModels,
    private readonly log: (message: string) => void,
  ) {}

  /** `validationDelay`: when the check comes sooner than a pause, there is nothing to gain. */
  schedule(document: TextDocument, validationDelay: number): void {
    this.cancel(document.uri);
    if (validationDelay <= preparePauseMs || !this.models.readsAtOnce(document)) return;
    const { version } = document;
    this.pending.set(document.uri, setTimeout(() => {
      this.pending.delete(document.uri);
      if (document.version !== version) return;
      try {
        this.models.get(document);
      } catch (error) {
        this.log(`[prepare] ${document.uri}@${version}: ${describeError(error)}`);
      }
    }, preparePauseMs));
  }

  cancel(uri: string): void {
    clearTimeout(this.pending.get(uri));
    this.pending.delete(uri);
  }
}
