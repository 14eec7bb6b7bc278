import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fieldMessage, parseFieldErrors } from "./field-errors";

const SERVER = resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the field-error protocol", () => {
  it("reads back what the server writes, one problem or several", () => {
    expect(parseFieldErrors(fieldMessage("inn", "ИНН — 10 цифр"))).toEqual([{ field: "inn", message: "ИНН — 10 цифр" }]);
    expect(parseFieldErrors("inn: ИНН — 10 цифр; kpp: КПП — 9 цифр")).toEqual([
      { field: "inn", message: "ИНН — 10 цифр" },
      { field: "kpp", message: "КПП — 9 цифр" },
    ]);
  });

  it("names nested fields and rows as the server does", () => {
    expect(parseFieldErrors("data[3].x7: концентрация не больше 100 %")).toEqual([
      { field: "data[3].x7", message: "концентрация не больше 100 %" },
    ]);
    expect(parseFieldErrors("dictionary_items.ef: нет такой записи")?.[0].field).toBe("dictionary_items.ef");
    expect(parseFieldErrors("periods[2].start_date: укажите дату")?.[0].field).toBe("periods[2].start_date");
  });

  it("keeps a «; » inside a problem's text that starts no other field", () => {
    expect(parseFieldErrors("name: одно; и другое")).toEqual([{ field: "name", message: "одно; и другое" }]);
  });

  it("is undefined for a detail, or a part of one, that names no field", () => {
    expect(parseFieldErrors("Лист «CSV», строка 3, столбец «x7»: не число")).toBeUndefined();
    expect(parseFieldErrors("Реквизиты уже изменены")).toBeUndefined();
    expect(parseFieldErrors("Ошибка; inn: ИНН — 10 цифр")).toBeUndefined();
  });

  it("is how the server's code names a field in an error: no «${field}: …» written by hand", () => {
    const contract = join(SERVER, "contract");
    const byHand = sources(SERVER)
      .filter((file) => !file.startsWith(contract))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/new (?:Invalid|Conflict)\(`\$\{[^{}]+\}: /g)].map(
          (m) => `${relative(SERVER, file)}: ${m[0]}`,
        ),
      );
    expect(byHand).toEqual([]);
  });

  it("is read by the web from the answer's errors, never parsed back from the detail's text", () => {
    const web = resolve(SERVER, "../../web/src");
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === "testing" ? [] : files(path);
        return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
      });
    const all = files(web);
    expect(all.length).toBeGreaterThan(100);
    const parsing = all.filter((file) => /\b(parseFieldErrors|problemsOf)\b/.test(readFileSync(file, "utf8")));
    expect(parsing.map((file) => relative(web, file))).toEqual([]);
  });
});
