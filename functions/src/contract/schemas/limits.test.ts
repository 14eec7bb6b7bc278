// A form's caps are the server's: each limit the web's forms read from limits.ts is the one the route's
// schema checks (it takes a text of that length and refuses a longer one), and the admin forms
// write no cap of their own.
import { execFileSync } from "node:child_process";
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

/**
 * A bound written as a number where the contract's schemas, the handlers or the web's forms and lists
 * set one: a schema's `.max(…)`, `.min(…)`, `.length(…)`, `z.maxLength(…)`, `z.lte(…)` and the like, a
 * field's `maxLength`, a table's `pageSize`, a request's `limit`, a constant named as a page or a cap.
 * 0 and 1 (not empty, not negative) are no bounds of the table, nor a percentage's 100 (its message
 * says «%»), nor Math.min and Math.max.
 */
const BOUND_LITERAL =
  /(?:(?<!Math)\.(?:max|min|length)\(|z\.(?:maxLength|minLength|lte|gte|lt|gt)\(|\b(?:maxLength|minLength|pageSize|limit)\s*[=:]\s*\{?)\s*(\d[\d_]*)\b(?![^\n]*%(?:"| об\.))|\b[A-Z_]*(?:PAGE|_MAX|_MIN|LIMIT)[A-Z_]*\s*=\s*(\d[\d_]*)\s*;/g;

function boundLiterals(text: string): string[] {
  return [...text.matchAll(BOUND_LITERAL)].filter((m) => Number((m[1] ?? m[2]).replaceAll("_", "")) > 1).map((m) => m[0]);
}

/**
 * A text cut at a length (`.slice(0, N)`) or a pattern's part repeated at most N times (`{1,N}`) written
 * as a number: a stored file name, a description, an id in a storage key. Below 64 they are a format's
 * own (a date's 10 characters, a hash's 27, a cell quoted in a message at 40).
 */
const CUT_LITERAL = /\.slice\(0,\s*(\d+)\)|\{\d+,(\d+)\}/g;

function cutLiterals(text: string): string[] {
  return [...text.matchAll(CUT_LITERAL)].filter((m) => Number(m[1] ?? m[2]) >= 64).map((m) => m[0]);
}

describe("one table of limits", () => {
  it("finds a bound written as a number, and leaves the table's reads and arithmetic alone", () => {
    expect(boundLiterals('email: z.string("email: укажите логин").max(320, "email: слишком длинный логин"),')).toEqual([".max(320"]);
    expect(boundLiterals('z.string().check(z.maxLength(64, "facility: ожидается идентификатор площадки"))')).toEqual(["z.maxLength(64"]);
    expect(boundLiterals("<Input maxLength={500} />")).toEqual(["maxLength={500"]);
    expect(boundLiterals("pagination={{ pageSize: 10, hideOnSinglePage: true }}")).toEqual(["pageSize: 10"]);
    expect(boundLiterals("export const ENTRY_PAGE_SIZE = 3;")).toEqual(["ENTRY_PAGE_SIZE = 3;"]);
    expect(boundLiterals("const PERSON_MAX = 150;")).toEqual(["PERSON_MAX = 150;"]);
    expect(boundLiterals('.max(LIMITS.email, "слишком длинный e-mail")')).toEqual([]);
    expect(boundLiterals('.min(1, "укажите проект")')).toEqual([]);
    expect(boundLiterals("Math.max(0, Math.min(100, share))")).toEqual([]);
    expect(boundLiterals('z.lte(100, "не более 100 %")')).toEqual([]);
    expect(boundLiterals('.max(100, "от 0 до 100 % об.")')).toEqual([]);
  });

  it("finds a text cut or a pattern's repeat written as a number of 64 or more, and leaves a format's short cuts alone", () => {
    expect(cutLiterals("name: file.name.slice(0, 255),")).toEqual([".slice(0, 255)"]);
    expect(cutLiterals("const KEY_RE = /^uploads\\/([A-Za-z0-9_-]{1,64})\\/x$/;")).toEqual(["{1,64}"]);
    expect(cutLiterals("description.trim().slice(0, 500)")).toEqual([".slice(0, 500)"]);
    expect(cutLiterals("new Date(t).toISOString().slice(0, 10)")).toEqual([]);
    expect(cutLiterals("`значение «${cell.slice(0, 40)}» не число`")).toEqual([]);
    expect(cutLiterals("file.name.slice(0, LIMITS.name.file)")).toEqual([]);
    expect(cutLiterals("new RegExp(`^[A-Za-z0-9_-]{1,${LIMITS.id}}$`)")).toEqual([]);
  });

  it("no code of the server cuts a text or bounds a stored key's part at a number of its own", () => {
    const files = execFileSync("git", ["ls-files", "functions/src"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
      .filter((path) => !path.endsWith("contract/schemas/limits.ts"));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) => cutLiterals(readFileSync(join(ROOT, path), "utf8")).map((literal) => `${path}: ${literal}`));
    expect(found).toEqual([]);
  });

  it("no schema, handler or form of the web writes a bound as a number", () => {
    const files = execFileSync("git", ["ls-files", "functions/src/contract", "functions/src/http", "web/src"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.startsWith("web/src/testing/"))
      .filter((path) => !path.endsWith("contract/schemas/limits.ts"));
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((path) => boundLiterals(readFileSync(join(ROOT, path), "utf8")).map((literal) => `${path}: ${literal}`));
    expect(found).toEqual([]);
  });
});
