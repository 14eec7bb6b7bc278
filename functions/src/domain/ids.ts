// Identifiers: UUID version 7 (RFC 9562), whose first 48 bits are the Unix time in ms, so ids sort
// in creation order. Within one millisecond a counter in the random bits keeps them increasing,
// which makes "newest first" lists stable even for items created in the same millisecond.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let sequence = 0;

export function newId(now = Date.now()): string {
  if (now <= lastMs) {
    sequence += 1;
    if (sequence > 0x0fff) {
      // 4096 ids in one millisecond: borrow the next millisecond rather than wrap around.
      lastMs += 1;
      sequence = 0;
    }
    now = lastMs;
  } else {
    lastMs = now;
    // Start low in the 12-bit range so that many ids fit into the same millisecond.
    sequence = randomBytes(2).readUInt16BE(0) & 0x07ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
