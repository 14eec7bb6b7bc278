// How the inventory screen shows the year's review: the status colours. The statuses, transitions
// and who may take them are the core's (wasm-core/src/inventory.ts), as the server applies them.
import type { InventoryStatus } from "@core/inventory";

export const STATUS_COLORS: Record<InventoryStatus, string> = {
  draft: "default",
  in_review: "processing",
  approved: "success",
  submitted: "blue",
  accepted: "green",
  refused: "error",
  reworked: "warning",
};
