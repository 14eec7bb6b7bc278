// A form's caps are the server's: each limit the web's forms read from limits.ts is the one the route's
// schema checks (it takes a text of that length and refuses a longer one), and the admin forms
// write no cap of their own.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { coefficientBody } from "../routes/admin";
import { ownModelBody } from "../routes/forecast-models";
import { documentCreateSchema } from "./document";
import {
  CALENDAR_DECREE_MAX,
  COEFFICIENT_REASON_MAX,
  DOCUMENT_TEXT_MAX,
  MODEL_DESCRIPTION_MAX,
  SOURCE_URL_MAX,
  UNCERTAINTY_SOURCE_MAX,
} from "./limits";
import { calendarDecreeSchema } from "./production-calendar";
import { uncertaintySchema } from "./uncertainty";

const ROOT = resolve(import.meta.dirname, "../../../..");

/** Whether the field's schema takes a text of `length` characters. */
const takes = (field: z.ZodType, length: number) => field.safeParse("я".repeat(length)).success;

describe("the forms' caps are the schemas'", () => {
  const cases: Array<[string, z.ZodType, number]> = [
    ...Object.entries(DOCUMENT_TEXT_MAX).map(([name, max]): [string, z.ZodType, number] => [
      `document ${name}`,
      documentCreateSchema.shape[name as keyof typeof DOCUMENT_TEXT_MAX],
      max,
    ]),
    ["document source_url", documentCreateSchema.shape.source_url, SOURCE_URL_MAX],
    ...Object.entries(CALENDAR_DECREE_MAX).map(([name, max]): [string, z.ZodType, number] => [
      `decree ${name}`,
      calendarDecreeSchema.shape[name as keyof typeof CALENDAR_DECREE_MAX],
      max,
    ]),
    ["coefficient reason", coefficientBody.shape.reason, COEFFICIENT_REASON_MAX],
    ["uncertainty source", uncertaintySchema.shape.source, UNCERTAINTY_SOURCE_MAX],
    ["model description", ownModelBody.shape.description, MODEL_DESCRIPTION_MAX],
  ];
  it.each(cases)("%s: takes its cap, refuses one more", (_, field, max) => {
    const url = (length: number) => `https://${"a".repeat(length - 8)}`;
    if (field === documentCreateSchema.shape.source_url) {
      expect(field.safeParse(url(max)).success).toBe(true);
      expect(field.safeParse(url(max + 1)).success).toBe(false);
      return;
    }
    expect(takes(field, max)).toBe(true);
    expect(takes(field, max + 1)).toBe(false);
  });

  it("leaves no cap or length rule written as a number in the admin forms", () => {
    const dir = join(ROOT, "web/src/features/admin");
    const literals = readdirSync(dir)
      .filter((name) => name.endsWith(".tsx") && !name.endsWith(".test.tsx"))
      .flatMap((name) =>
        [...readFileSync(join(dir, name), "utf8").matchAll(/(?:maxLength=\{|\bmin: |\bmax: |maxLength: )\d+/g)].map(
          (m) => `${name}: ${m[0]}`,
        ),
      );
    expect(literals).toEqual([]);
  });
});
