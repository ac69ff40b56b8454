import * as vscode from 'vscode';
import { workspaceFile } from '../../e2e/suite/helpers';
import { inspectArchivePath } from '../../e2e/suite/fixturePaths';
import { describeInspectArchive } from '../../e2e/suite/inspectArchiveCases';

// The runner wrote the archive into the workspace (test/e2e/suite/fixtures.ts).
describeInspectArchive({
  write: async () => workspaceFile(...inspectArchivePath),
  remove: async (archive) => vscode.workspace.fs.delete(archive),
});
