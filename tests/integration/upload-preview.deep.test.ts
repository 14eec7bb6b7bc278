// Upload previews under load on the local server as `npm start` runs it (docs/security.md, «Heavy
// work bounded»): the finding was a 2 MB forecast file with 200 refused rows answered after 57 s
// while another company's get_me waited as long, and 6 parallel previews of 130 KB froze the server
// for 22 s. Now one pass in a worker thread answers within seconds, and the others keep their latency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UploadPreviewView } from "@server/contract/schemas/upload-preview";
import { whileProbing } from "../support/large-forecasts";
import { forecastCsv, sendForecast, startPreviewServer, type PreviewServer } from "../support/upload-previews";

let s: PreviewServer;

const preview = (bytes: Uint8Array) => sendForecast(s.server.url, s.staff.token, s.project, { name: "longwall.csv", bytes }, "?dry_run=1");

beforeAll(async () => {
  s = await startPreviewServer();
  // The worker thread has loaded its code: the figures are the previews', not the thread's start.
  expect((await preview(forecastCsv(3))).status).toBe(200);
}, 60_000);
afterAll(() => s?.server.close());

describe("previews off the request thread", () => {
  it("answers a 2 MB forecast file with 200 refused rows in under 5 s, another company's get_me p50 under 200 ms", async () => {
    const bytes = forecastCsv(50_000, 250);
    const figures = await whileProbing(s.server.url, s.otherToken, async () => {
      const res = await preview(bytes);
      return { status: res.status, answer: (await res.json()) as UploadPreviewView };
    });
    console.log(
      `preview of ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB with 200 refused rows: ${figures.seconds.toFixed(2)} s; other company's get_me p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms (${figures.calls} calls)`,
    );
    expect(figures.value.status).toBe(200);
    expect(figures.value.answer.errors).toHaveLength(200);
    expect(figures.seconds).toBeLessThan(5);
    expect(figures.p50).toBeLessThan(200);
  }, 60_000);

  it("keeps another company's get_me p50 under 200 ms through 6 parallel previews of 130 KB", async () => {
    const bytes = forecastCsv(3_300, 50);
    const figures = await whileProbing(s.server.url, s.otherToken, async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => preview(bytes)));
      await Promise.all(answers.map((a) => a.arrayBuffer()));
      return answers.map((a) => a.status);
    });
    console.log(
      `6 parallel previews of ${(bytes.byteLength / 1024).toFixed(0)} KB: ${figures.value.join(", ")} in ${figures.seconds.toFixed(2)} s; other company's get_me p50 ${figures.p50.toFixed(0)} ms, max ${figures.p95.toFixed(0)} ms (${figures.calls} calls)`,
    );
    expect(figures.value.every((st) => st === 200 || st === 429)).toBe(true);
    expect(figures.seconds).toBeLessThan(5);
    expect(figures.p50).toBeLessThan(200);
  }, 60_000);
});
