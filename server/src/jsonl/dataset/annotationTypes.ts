import type { JsonNode, JsonString } from '../../json/nodes';
import type { ParsedAddress, Resolution } from './address';

// What a dataset keeps on the family's line: the member adds it, so the family's line model imports no member.
declare module '../lines' {
  interface Line {
    /** The annotations of an annotated line with their addresses resolved (see annotationsOf), once read. */
    annotations?: LineAnnotations;
  }
}

export interface Annotation {
  /** The annotation value as written (an object when well-formed). */
  node: JsonNode;
  address?: JsonString;
  content?: JsonNode;
  parsed?: ParsedAddress;
  resolution?: Resolution;
  /** Why the annotation cannot be read (Explorer: "Failed to parse annotation: …"). */
  invalid?: string;
}

export interface LineAnnotations {
  /** The `annotations` value when it is not a list. */
  notAList?: JsonNode;
  items: Annotation[];
}
