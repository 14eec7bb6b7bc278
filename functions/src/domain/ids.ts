// Identifiers: UUID version 7 (RFC 9562), whose first 48 bits are the Unix time in ms, so ids sort
// in creation order. uuid keeps a counter within one millisecond, which makes "newest first" lists
// stable even for items created in the same millisecond.
import { v7 } from "uuid";

export function newId(): string {
  return v7();
}
