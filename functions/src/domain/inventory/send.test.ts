import { describe, expect, it } from "vitest";
import type { Actor, Deps } from "../context";
import { Conflict } from "../errors";
import { emptyReview } from "./review";
import type { InventoryCheck } from "./checks";
import { assertNoErrorChecks, assertSendable } from "./send";

const actor: Actor = { id: "u1", company: "c1", email: "staff@example.com", role: "staff" };
const deps = { clock: { now: () => new Date("2026-11-23T12:00:00Z") } } as unknown as Deps;
const check = (level: InventoryCheck["level"], message: string): InventoryCheck => ({ level, code: level, message, calculations: [] });
const fake =
  (checks: InventoryCheck[], status: "draft" | "approved" = "draft") =>
  async () => ({
    review: { ...emptyReview("c1", 2025, "2026-01-01T00:00:00Z"), status },
    checks,
  });

describe("sending a year to review", () => {
  it("is refused while any check is an error, naming each by its message", async () => {
    const checks = [
      check("error", "Источник учтен дважды: «Факел 1», «Факел 2»"),
      check("warning", "Нет обоснования"),
      check("error", "Изменены после утверждения: «Шахта»"),
    ];
    const refused = assertSendable(deps, actor, 2025, { action: "send_to_review", version: 0 }, fake(checks));
    await expect(refused).rejects.toBeInstanceOf(Conflict);
    await expect(refused).rejects.toThrow(
      "Инвентаризацию 2025 года нельзя отправить на проверку, пока в ней есть ошибки: " +
        "Источник учтен дважды: «Факел 1», «Факел 2»; Изменены после утверждения: «Шахта». Исправьте их и отправьте снова.",
    );
  });

  it("passes with warnings and notes only, and leaves the other actions alone", async () => {
    const checks = [check("warning", "Нет обоснования"), check("info", "Справка")];
    await expect(assertSendable(deps, actor, 2025, { action: "send_to_review", version: 0 }, fake(checks))).resolves.toBeUndefined();
    const errors = fake([check("error", "Ошибка")]);
    await expect(assertSendable(deps, actor, 2025, { action: "approve", version: 0 }, errors)).resolves.toBeUndefined();
    expect(() => assertNoErrorChecks([], 2025)).not.toThrow();
  });

  it("answers a wrong status before the checks", async () => {
    const sent = assertSendable(deps, actor, 2025, { action: "send_to_review", version: 0 }, fake([check("error", "Ошибка")], "approved"));
    await expect(sent).rejects.toThrow(/в статусе «Утверждена»/);
  });
});
