import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService } from './common/service';
import type { Budget } from './common/budget';
import { LineIndex } from './common/lineIndex';
import { languageForFile, serviceFor } from './languages';
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

  /** `budget`: a request's cancellation and time budget, checked while parsing (the parse then throws BudgetExceeded). */
  get(document: TextDocument, budget?: Budget): ParsedDocument | undefined {
    const cached = this.open.get(document.uri);
    if (cached && cached.version === document.version && cached.languageId === document.languageId) return cached;
    const service = serviceFor(document.languageId);
    if (!service) return undefined;
    const parsed: ParsedDocument = {
      uri: document.uri,
      version: document.version,
      languageId: document.languageId,
      service,
      model: service.parse({ uri: document.uri, version: document.version, text: document.getText(), budget }),
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
