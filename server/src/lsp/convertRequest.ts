import type { TextDocument } from 'vscode-languageserver-textdocument';
import { homeFolder } from '../disk/files';
import { convertText, defaultOutputPath, describeReplacement, writeTraces } from '../conversion';
import type { ConvertToTraceParams, ConvertToTraceResult } from '../../../shared/requests';

/** The Invariant trace of an open document (a session, a rollout, a conversation: traceFormats.ts), for the editor to write beside it and open. */
export function convertDocument(document: TextDocument | undefined, params: ConvertToTraceParams): ConvertToTraceResult {
  if (!document) return { error: 'the document is not open', warnings: [], replaced: [] };
  const path = new URL(params.uri).pathname;
  const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || 'session.jsonl';
  const conversion = convertText(name, document.getText());
  if ('reason' in conversion) return { error: conversion.reason, warnings: [], replaced: [] };
  const written = writeTraces(conversion, 'trace', params.redact ? { home: homeFolder() } : undefined);
  const warnings = conversion.skippedLines.map((line) => `line ${line} left out: not valid JSON`);
  if (conversion.omittedLines > 0) warnings.push(`the last ${conversion.omittedLines} lines left out: past the limit of lines read (agentTraces.jsonl.maxLines)`);
  if (conversion.traces.length > 1) warnings.push(`the file holds ${conversion.traces.length} traces; the trace file holds the first`);
  return {
    text: written.text,
    fileName: defaultOutputPath(name, 1),
    warnings,
    replaced: written.replaced.map((r) => describeReplacement(r, false)),
  };
}
