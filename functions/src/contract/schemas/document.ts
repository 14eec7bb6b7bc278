// Normative-document metadata as /admin sends it (upload form fields, or a JSON edit). The web form
// and the list labels read the same kinds.
import * as z from "zod";
import { isoDate, textField as text } from "./common";
import { DOCUMENT_KINDS, DOCUMENT_TEXT_MAX, SOURCE_URL_PATTERN, SOURCE_URL_MAX, type DocumentKind } from "./limits";
export { DOCUMENT_KINDS, SOURCE_URL_PATTERN, SOURCE_URL_MAX, type DocumentKind } from "./limits";

const kindNames = Object.keys(DOCUMENT_KINDS) as [DocumentKind, ...DocumentKind[]];

const sourceUrl = text(SOURCE_URL_MAX).check(
  z.refine((v) => v === "" || SOURCE_URL_PATTERN.test(v), "ожидается адрес http:// или https://"),
);

const fields = {
  title: text(DOCUMENT_TEXT_MAX.title, true),
  number: z.optional(text(DOCUMENT_TEXT_MAX.number)),
  date: z.optional(z.union([z.literal(""), isoDate()])),
  kind: z.enum(kindNames, "выберите вид документа"),
  issuer: z.optional(text(DOCUMENT_TEXT_MAX.issuer)),
  source_url: z.optional(sourceUrl),
  source_label: z.optional(text(DOCUMENT_TEXT_MAX.source_label)),
};

export const documentCreateSchema = z.object(fields);

export const documentPatchSchema = z.object({
  title: z.optional(fields.title),
  number: fields.number,
  date: fields.date,
  kind: z.optional(fields.kind),
  issuer: fields.issuer,
  source_url: fields.source_url,
  source_label: fields.source_label,
  is_deleted: z.optional(z.boolean("ожидается true или false")),
  version: z.optional(z.number("ожидается целое число").check(z.int("ожидается целое число"))),
});

export type DocumentCreateInput = z.infer<typeof documentCreateSchema>;
export type DocumentPatchInput = z.infer<typeof documentPatchSchema>;
