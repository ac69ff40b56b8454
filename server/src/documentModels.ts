import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService } from './common/service';
import { LineIndex } from './common/lineIndex';
import { languageForDocument, languageForFile, serviceFor, type LanguageId } from './languages';
import type { PositionMapper } from './convert';

export interface ParsedDocument {
  uri: string;
  version: number;
  languageId: string;
  service: LanguageService<unknown>;
  model: unknown;
  positions: PositionMapper & { offsetAt(position: { line: number; character: number }): number };
}

/**
 * One parsed model per document version: every request for the same version shares it. Files that the editor
 * does not sync (over VS Code's 50 MB limit) are read from disk for the preview and cached by modification time.
 */
export class DocumentModels {
  private readonly open = new Map<string, ParsedDocument>();
  private readonly fromDisk = new Map<string, { mtimeMs: number; parsed: ParsedDocument }>();
  private readonly languages = new Map<string, { clientLanguageId: string; languageId: LanguageId | undefined }>();

  get(document: TextDocument): ParsedDocument | undefined {
    const languageId = this.languageOf(document);
    const cached = this.open.get(document.uri);
    if (cached && cached.version === document.version && cached.languageId === languageId) return cached;
    const service = languageId && serviceFor(languageId);
    if (!languageId || !service) return undefined;
    const parsed: ParsedDocument = {
      uri: document.uri,
      version: document.version,
      languageId,
      service,
      model: service.parse({ uri: document.uri, version: document.version, text: document.getText() }),
      positions: document,
    };
    this.open.set(document.uri, parsed);
    return parsed;
  }

  /** The cached model if it is for this exact version (no parse). */
  peek(uri: string, version: number): ParsedDocument | undefined {
    const cached = this.open.get(uri);
    return cached?.version === version ? cached : undefined;
  }

  forget(uri: string): void {
    this.open.delete(uri);
    this.languages.delete(uri);
  }

  /**
   * The language a document is served as, decided once per client language id (the first line of a `.jsonl` file
   * is read again only while it is not one of ours, e.g. while a new file is still empty).
   */
  private languageOf(document: TextDocument): LanguageId | undefined {
    const known = this.languages.get(document.uri);
    if (known && known.clientLanguageId === document.languageId && known.languageId) return known.languageId;
    const languageId = languageForDocument(document.uri, document.languageId, document.getText());
    this.languages.set(document.uri, { clientLanguageId: document.languageId, languageId });
    return languageId;
  }

  async readFromDisk(uri: string): Promise<ParsedDocument | undefined> {
    const path = fileURLToPath(uri);
    const stat = await fs.stat(path);
    const cached = this.fromDisk.get(uri);
    if (cached && cached.mtimeMs === stat.mtimeMs) return cached.parsed;
    const text = await fs.readFile(path, 'utf8');
    const languageId = languageForFile(path, text);
    const service = languageId && serviceFor(languageId);
    if (!languageId || !service) return undefined;
    const parsed: ParsedDocument = {
      uri,
      version: -1,
      languageId,
      service,
      model: service.parse({ uri, version: -1, text }),
      positions: new LineIndex(text),
    };
    // Only the latest large file is kept: each can hold hundreds of megabytes.
    this.fromDisk.clear();
    this.fromDisk.set(uri, { mtimeMs: stat.mtimeMs, parsed });
    return parsed;
  }
}
