import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { DomainError, TooManyRequests } from "../domain/errors";
import { errorResponse } from "./errors";

describe("errorResponse", () => {
  it("gives every 429 a Retry-After: its own, or 30 s for one a worker sent back as a plain DomainError", async () => {
    const app = new Hono();
    app.get("/own", () => {
      throw new TooManyRequests("Слишком много", 420);
    });
    app.get("/plain", () => {
      throw new DomainError(429, "Слишком много");
    });
    app.onError(errorResponse);
    const own = await app.request("/own");
    expect([own.status, own.headers.get("retry-after")]).toEqual([429, "420"]);
    const plain = await app.request("/plain");
    expect([plain.status, plain.headers.get("retry-after")]).toEqual([429, "30"]);
    expect(await plain.json()).toEqual({ detail: "Слишком много" });
  });
});
