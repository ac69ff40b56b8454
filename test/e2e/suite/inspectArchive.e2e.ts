import { rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { writeInspectArchive } from './fixtures';
import { workspaceFile } from './helpers';
import { describeInspectArchive } from './inspectArchiveCases';

describeInspectArchive({
  write: async () => vscode.Uri.file(writeInspectArchive(workspaceFile().fsPath)),
  remove: async (archive) => rmSync(archive.fsPath, { force: true }),
});
