// The answer of a calculation upload's dry run (`?dry_run=1`, domain/calculations/upload-preview.ts): what the
// file holds as read, the unit of each column and every row the save would refuse.
import * as z from "zod";
export { PREVIEW_ROWS, PREVIEW_REFUSED_ROWS } from "./limits";

const cell = z.union([z.number(), z.string(), z.null()]);

export const uploadPreviewSchema = z
  .object({
    format: z.enum(["xlsx", "csv"]),
    sheet: z.string(),
    count: z.number().meta({ description: "Rows of data in the file" }),
    columns: z.array(
      z.object({
        name: z.string(),
        header: z.nullable(z.string()).meta({ description: "The header as the file writes it; null: an optional column not in the file" }),
        label: z.string(),
        unit: z.string(),
      }),
    ),
    rows: z
      .array(z.object({ row: z.number(), values: z.record(z.string(), cell) }))
      .meta({ description: "The first 20 rows as read, then up to 20 more rows the save would refuse, in the file's order" }),
    errors: z.array(
      z.object({
        sheet: z.string(),
        row: z.nullable(z.number()),
        column: z.nullable(z.string()),
        message: z.string(),
      }),
    ),
  })
  .meta({ description: "What an upload holds, read as the save would, without storing it" });

export type UploadPreviewView = z.infer<typeof uploadPreviewSchema>;
