import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  CellInvalid,
  Conflict,
  DomainError,
  ERROR_KINDS,
  Forbidden,
  Invalid,
  invalidAt,
  NotFound,
  TooLarge,
  TooManyRequests,
  Unauthorized,
  Unavailable,
  Unprocessable,
  UnsupportedMedia,
} from "../domain/errors";
import { FileRefused } from "../files/errors";
import { errorResponse, STATUS_OF } from "./errors";

/** The answer an app whose one route throws `error` gives. */
async function answerTo(error: Error): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const app = new Hono();
  app.get("/", () => {
    throw error;
  });
  app.onError(errorResponse);
  const res = await app.request("/");
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

describe("errorResponse", () => {
  it("answers each kind of refusal with its status, the detail as it is", async () => {
    const cases: [DomainError, number][] = [
      [new Invalid("Лист «CSV»: нет строк с данными"), 400],
      [new Unauthorized(), 401],
      [new Forbidden(), 403],
      [new NotFound(), 404],
      [new Conflict("Проект изменен другим пользователем"), 409],
      [new Unprocessable("Ключ Idempotency-Key «gw-17» уже назвал другой пакет"), 422],
      [new TooLarge("Файл больше 5 МБ"), 413],
      [new UnsupportedMedia("Ожидается файл PDF"), 415],
      [new TooManyRequests("Слишком много", 420), 429],
      [new Unavailable("Проверка подписи ГОСТ на этом сервере недоступна"), 503],
    ];
    // Every kind is in the table, and each case above is one kind.
    expect(Object.keys(STATUS_OF).sort()).toEqual([...ERROR_KINDS].sort());
    expect(new Set(cases.map(([error]) => error.kind)).size).toBe(ERROR_KINDS.length);
    for (const [error, status] of cases) {
      const answer = await answerTo(error);
      expect([error.kind, answer.status, answer.body]).toEqual([error.kind, status, { detail: error.detail }]);
    }
  });

  it("gives every 429 a Retry-After: its own, or 30 s for one a worker sent back as a plain DomainError", async () => {
    const own = await answerTo(new TooManyRequests("Слишком много", 420));
    expect([own.status, own.retryAfter]).toEqual([429, "420"]);
    const plain = await answerTo(new DomainError("busy", "Слишком много"));
    expect([plain.status, plain.retryAfter, plain.body]).toEqual([429, "30", { detail: "Слишком много" }]);
  });

  it("writes an invalid request's problems as data and its detail from them, never reading a text back", async () => {
    const one = await answerTo(invalidAt("entered.volume", "значение больше 1 000 000", "too_big", { maximum: 1_000_000 }));
    expect(one).toMatchObject({
      status: 400,
      body: {
        detail: "entered.volume: значение больше 1 000 000",
        errors: [{ field: "entered.volume", code: "too_big", message: "значение больше 1 000 000", params: { maximum: 1_000_000 } }],
      },
    });
    const two = new Invalid([
      { field: "inn", code: "invalid", message: "ИНН — 10 цифр", params: {} },
      { field: "kpp", code: "invalid", message: "КПП — 9 цифр", params: {} },
    ]);
    expect((await answerTo(two)).body).toEqual({ detail: "ИНН: ИНН — 10 цифр; КПП: КПП — 9 цифр", errors: two.problems });
    // A detail written like «field: text» but made as text stays text: nothing parses it.
    expect((await answerTo(new Invalid("inn: ИНН — 10 цифр"))).body).toEqual({ detail: "inn: ИНН — 10 цифр" });
    // A refused cell says where it is in the detail; it names no field of the request.
    const cell = new CellInvalid({ sheet: "CSV", row: 3, header: "x7" }, "не число");
    expect((await answerTo(cell)).body).toEqual({ detail: "Лист «CSV», строка 3, столбец «x7»: не число" });
  });

  it("answers a refused file by its kind, with its problem where it names the file's field", async () => {
    expect(await answerTo(new FileRefused("unsupported_media", "Неподдерживаемый тип файла"))).toMatchObject({
      status: 415,
      body: { detail: "Неподдерживаемый тип файла" },
    });
    const empty = new FileRefused("invalid", [{ field: "file_data", code: "invalid", message: "файл пуст", params: {} }]);
    expect(await answerTo(empty)).toMatchObject({ status: 400, body: { detail: "file_data: файл пуст", errors: empty.problems } });
  });
});

describe("the storage gone", () => {
  it("answers a refused connection to the storage 503 with Retry-After, in Russian, not a 500", async () => {
    const gone = Object.assign(new Error("dynalite thread unreachable"), { code: "ECONNREFUSED" });
    const { status, retryAfter, body } = await answerTo(gone);
    expect(status).toBe(503);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(body).toEqual({ detail: "Хранилище недоступно: сервер останавливается или перезапускается. Повторите запрос позже" });
  });
});
