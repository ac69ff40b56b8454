/** Completion entries for JSON documents: keys an object may still take, and string values, with their docs. */
import { ownEntry } from './lookup';
import type { CompletionEntry, Span } from './types';

/** The keys of `docs` not yet `present`, each inserted as `"key": ` with the cursor after it. */
export function keyCompletions(keys: readonly string[], docs: Record<string, string>, present: ReadonlySet<string>, replace: Span): CompletionEntry[] {
  return keys.filter((key) => !present.has(key)).map((key, i) => {
    const entry: CompletionEntry = { label: key, kind: 'property', insertText: `"${key}": $1`, snippet: true, filterText: `"${key}"`, replace, sortText: String(i).padStart(3, '0') };
    const doc = ownEntry(docs, key);
    if (doc) entry.documentation = doc;
    return entry;
  });
}

/** String values, inserted quoted, in the order given. */
export function valueCompletions(values: readonly string[], replace: Span, doc: (value: string) => string | undefined): CompletionEntry[] {
  return values.map((value, i) => {
    const insertText = JSON.stringify(value);
    const entry: CompletionEntry = { label: value, kind: 'value', insertText, filterText: insertText, replace, sortText: String(i).padStart(3, '0') };
    const documentation = doc(value);
    if (documentation) entry.documentation = documentation;
    return entry;
  });
}
