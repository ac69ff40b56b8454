/**
 * unicodeNamesText.ts for the browser build: a browser unpacks only asynchronously (DecompressionStream), so the table
 * is unpacked in the background when the bundle loads, long before a rule's `\N{...}` usually needs it.
 */
import type * as NodeNames from './unicodeNamesText';
import { NAMES } from './unicodeNames';

let text: string | undefined;

async function unpack(): Promise<void> {
  const bytes = Uint8Array.from(atob(NAMES), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  text = new TextDecoder('latin1').decode(await new Response(stream).arrayBuffer());
}
void unpack().catch(() => undefined);

export const unicodeNamesText: typeof NodeNames.unicodeNamesText = () => text;
