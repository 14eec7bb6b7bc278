import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { detailOf, lineOf, problemAt } from "./field-errors";

const SERVER = resolve(import.meta.dirname, "..");
const WEB = resolve(SERVER, "../../web/src");

/** The product's source files under `dir` (no tests, no test helpers). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "testing" ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each line of `files` that `pattern` finds, as «file:line: text». */
function found(files: string[], root: string, pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("the field-error protocol", () => {
  it("writes the detail from the problems: «field: text» joined by «; »", () => {
    expect(lineOf(problemAt("inn", "ИНН — 10 цифр"))).toBe("ИНН: ИНН — 10 цифр");
    expect(detailOf([problemAt("inn", "ИНН — 10 цифр"), problemAt("data[3].x7", "концентрация не больше 100 %")])).toBe(
      "ИНН: ИНН — 10 цифр; data[3].x7: концентрация не больше 100 %",
    );
    expect(problemAt("entered.volume", "значение больше 1 000 000", "too_big", { maximum: 1_000_000 })).toEqual({
      field: "entered.volume",
      code: "too_big",
      message: "значение больше 1 000 000",
      params: { maximum: 1_000_000 },
    });
  });

  it("is made once, as data: no «field: text» written by hand in the server, no fieldMessage", () => {
    const server = sources(SERVER);
    expect(server.length).toBeGreaterThan(300);
    // A Russian message whose text starts with a field's name: «"inn: …"», «`features.${c}: …`», «`${field}: …`».
    const byHand = found(
      server,
      SERVER,
      /(["`])(?:[a-z_][a-z0-9_]*|\$\{[^{}]+\})(?:\.(?:[a-z0-9_]+|\$\{[^{}]+\}))*: [^"`]*[А-Яа-яЁё]/,
    ).filter(
      // An OpenAPI description names a field in English for a reader of the API, not a refusal.
      (line) => !/\b(description|summary)\s*:|^\S+:\d+: \/[/*]|^\S+:\d+: \*/.test(line),
    );
    // Lines that name a thing, not a field: an export's title or a log line.
    const refusals = byHand.filter((line) => /\b(Invalid|Conflict|NotFound|Forbidden|badFile|FileRefused)\b|\b(message|error):/.test(line));
    expect(refusals).toEqual([]);
    expect(found(server, SERVER, /\bfieldMessage\(/)).toEqual([]);
  });

  it("is never read back from an error's text: no pattern over a message or a detail, server or web", () => {
    const files = [...sources(SERVER), ...sources(WEB)];
    expect(files.length).toBeGreaterThan(500);
    const overText = [
      // text.match(/…/), text.replace(/…/, …), text.split(/…/), text.search(/…/)
      /\b(?:message|detail)\b[\w.?!]*\.(?:match|matchAll|replace|replaceAll|split|search)\(\s*\//,
      // /…/.test(x.message), RE.exec(error.detail), new RegExp(…).test(…detail)
      /\.(?:test|exec)\(\s*[\w.?!]*\b(?:message|detail)\)/,
    ];
    const reading = overText
      .flatMap((pattern) => [...found(files, SERVER, pattern)])
      .filter(
        // A browser's own refusal of a lazy chunk (TypeError from import()) carries nothing else to know it by.
        (line) => !line.includes("web/src/features/shell/routeError.ts"),
      );
    expect(reading).toEqual([]);
  });

  it("is read by the web from the answer's errors, never parsed back from the detail's text", () => {
    const all = sources(WEB);
    expect(all.length).toBeGreaterThan(100);
    const parsing = all.filter((file) => /\b(parseFieldErrors|problemsOf|fieldMessage)\b/.test(readFileSync(file, "utf8")));
    expect(parsing.map((file) => relative(WEB, file))).toEqual([]);
  });
});
