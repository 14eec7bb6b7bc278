// The budgets of forecast histories uploaded straight to storage and not yet used (docs/security.md):
// per user and per company, by declared size, given back when an upload is used, and a day's grants
// counted until the day after.
import { describe, expect, it } from "vitest";
import { memoryDomain } from "../../../../tests/support/memory-domain";
import {
  FORECAST_UPLOADS_PER_COMPANY_BYTES,
  FORECAST_UPLOADS_PER_USER_BYTES,
  MAX_FORECAST_UPLOAD_BYTES,
} from "../../contract/schemas/uploads";
import { createUser } from "../company/users";
import type { Actor } from "../context";
import { TooManyRequests } from "../errors";
import { forecastUploadUrl, withForecastUpload } from "./uploads";
import { DAY_MS } from "@core/dates";

const full = { content_type: "text/csv", size: MAX_FORECAST_UPLOAD_BYTES, name: "история.csv" };

describe("forecast uploads not yet used", () => {
  it("are bounded per user and per company, given back once used, and yesterday's count until the day after", async () => {
    let now = Date.UTC(2026, 10, 25, 10);
    const domain = await memoryDomain({ now: () => new Date(now) });
    const first = await domain.actor("Квота загрузок");
    const colleague = async (n: number): Promise<Actor> => {
      const user = await createUser(domain.deps, {
        companyId: first.company,
        email: `q${n}-${now}@example.com`,
        password: "correct-horse",
      });
      return { id: user.id, company: first.company, email: user.email, role: user.role };
    };
    const grant = (actor: Actor, size = MAX_FORECAST_UPLOAD_BYTES) => forecastUploadUrl(domain.deps, actor, { ...full, size });
    const perUser = FORECAST_UPLOADS_PER_USER_BYTES / MAX_FORECAST_UPLOAD_BYTES;
    expect(perUser).toBe(2);

    const granted = [];
    for (let i = 0; i < perUser; i += 1) granted.push(await grant(first));
    const refused = await grant(first).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect(refused).toMatchObject({
      kind: "busy",
      detail: expect.stringMatching(
        /^Загруженные вами и еще не использованные файлы истории вместе с этим превысили бы 64 МБ \(не более 64 МБ на пользователя и 256 МБ на организацию\)/,
      ),
    });
    // Until midnight UTC, when the day's grants start to count as yesterday's.
    expect((refused as TooManyRequests).retryAfterSeconds).toBe(14 * 60 * 60);

    // An upload used (read, then deleted, whatever the use's outcome) gives its size back.
    const key = granted[0].file_upload;
    await domain.deps.blobs.put(key, new Uint8Array(MAX_FORECAST_UPLOAD_BYTES), "text/csv");
    await withForecastUpload(domain.deps, first, key, undefined, async () => undefined);
    granted[0] = await grant(first);
    await expect(grant(first, 1)).rejects.toBeInstanceOf(TooManyRequests);

    // The company's budget: 256 MB among its users, the one who filled it refused as the company.
    const perCompany = FORECAST_UPLOADS_PER_COMPANY_BYTES / MAX_FORECAST_UPLOAD_BYTES;
    for (let n = 1; n < perCompany / perUser; n += 1) {
      const other = await colleague(n);
      for (let i = 0; i < perUser; i += 1) await grant(other);
    }
    const last = await colleague(99);
    await expect(grant(last, 1)).rejects.toMatchObject({ detail: expect.stringMatching(/^Загруженные вашей организацией/) });
    // Another company's budget is its own.
    await grant(await domain.actor("Соседи"));

    // Tomorrow yesterday's grants still count; the day after they are deleted, and count no more.
    now += DAY_MS;
    await expect(grant(first, 1)).rejects.toBeInstanceOf(TooManyRequests);
    now += DAY_MS;
    for (let i = 0; i < perUser; i += 1) await grant(first);
  });
});
