import { parseAddress, resolveAddress } from './address';
import type { Annotation, LineAnnotations } from './annotationTypes';
import { contains, property } from '../../json/queries';
import type { JsonNode, JsonObject, JsonString } from '../../json/nodes';
import type { Line, LinesModel } from '../lines';
import type { Place } from '../locate';
import { clip } from '../strings';

export type { Annotation, LineAnnotations } from './annotationTypes';

/** What the cursor is on in a dataset line: the family's place, and the annotation it is in. */
export interface DatasetPlace extends Place {
  annotation?: Annotation;
  /** True when the cursor is inside the annotation's address string. */
  onAddress?: boolean;
}

/** The place with the annotation of an annotated line the cursor is in (`annotations[i]`), if any. */
export function datasetPlace(model: LinesModel, place: Place, offset: number): DatasetPlace {
  const { line, path, steps } = place;
  if (line.kind !== 'annotated' || path[0] !== 'annotations' || typeof path[1] !== 'number') return place;
  const annotation = annotationsOf(model, line).items[path[1]];
  if (!annotation) return place;
  const onAddress = !!annotation.address && path[2] === 'address' && contains(annotation.address, offset) && !steps[steps.length - 1].onKey;
  return { ...place, annotation, onAddress };
}

/** The annotations of an annotated dataset line, each with its address resolved against the line's trace. */
export function annotationsOf(model: LinesModel, line: Line): LineAnnotations {
  // Kept on the line rather than in a WeakMap: thousands of weak entries per dataset slow every collection.
  return (line.annotations ??= readAnnotations(model.text, line));
}

/** Reads the annotations of an annotated line, resolving their addresses against root (its whole tree). */
export function primeAnnotations(text: string, line: Line, root: JsonNode): void {
  line.annotations = readAnnotations(text, line, root);
}

function readAnnotations(text: string, line: Line, root = line.root): LineAnnotations {
  const value = line.kind === 'annotated' ? property(root, 'annotations')?.value : undefined;
  if (!root || !value || value.type === 'null') return { items: [] };
  if (value.type !== 'array') return { notAList: value, items: [] };
  return { items: value.items.map((item) => readAnnotation(text, root, item)) };
}

function readAnnotation(text: string, root: JsonNode, node: JsonNode): Annotation {
  const shown = (): string => clip(text.slice(node.start, node.end), 120);
  if (node.type !== 'object') return { node, invalid: `Failed to parse annotation: ${shown()} (an annotation is an object with "content" and "address")` };
  const object: JsonObject = node;
  // All of an annotation's keys are read, so build it whole once rather than looking each one up.
  const properties = object.properties;
  const valueOf = (key: string) => properties.find((p) => p.key === key)?.value;
  const address = valueOf('address');
  const content = valueOf('content');
  const extra = valueOf('extra_metadata');
  const missing = [!content && '"content"', !address && '"address"'].filter(Boolean);
  if (missing.length > 0) return { node, invalid: `Failed to parse annotation: ${shown()} (it has no ${missing.join(' and no ')})` };
  if (address!.type !== 'string') return { node, content, invalid: `Failed to parse annotation: ${shown()} ("address" must be a string)` };
  if (content!.type !== 'string') return { node, address: address as JsonString, invalid: `Failed to parse annotation: ${shown()} ("content" must be a string)` };
  if (extra && extra.type !== 'object' && extra.type !== 'null') return { node, address: address as JsonString, content, invalid: `Failed to parse annotation: ${shown()} ("extra_metadata" must be an object)` };
  const addressNode = address as JsonString;
  const parsed = parseAddress(addressNode.value);
  return { node, address: addressNode, content, parsed, resolution: resolveAddress(text, root, addressNode.value, parsed) };
}
