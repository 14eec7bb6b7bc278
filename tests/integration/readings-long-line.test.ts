// R2: a dispatch file whose only data line is 40 MB, uploaded to the local server as the web
// sends it (upload-url, PUT, files/). The consumer's thread reads files in bounded lines
// (LIMITS.monitoring.lineBytes, 1 MB): the line is refused by its number without being held or decoded
// whole, the thread lives (no failure logged, the batch done), and another company's readings pushed at
// the same moment are applied within 10 s. Before, the line was gathered and parsed whole and the
// thread died of its heap again at every drain, every company's readings queued behind it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { startLocalServer } from "@server/local/server";
import { serverLog } from "@server/local/server-log";
import { LINE_TOO_LONG } from "@server/domain/monitoring/ingest/dispatch-file";
import { createCompany, createUser } from "@server/domain/company/users";
import { DEMO, accessToken, signInAsDemo } from "../support/server";
import { callApi as call } from "../support/api-call";

const LINE_BYTES = 40 * 1024 * 1024;
const NEIGHBOUR_PASSWORD = "Соседи-шахта-2026";
/** What another company waits for its readings at most while the file is read. */
const OTHERS_WAIT_MS = 10_000;

async function mine(url: string, token: string, name: string): Promise<string> {
  const facility = await call(url, token, "POST", "/v1/facilities/", { name, kind: "underground_mine" });
  const point = await call(url, token, "POST", `/v1/facilities/${facility.body.id}/points/`, { name: "Ствол", kind: "ventilation_shaft" });
  const sensor = await call(url, token, "POST", `/v1/facilities/${facility.body.id}/sensors/`, {
    code: "М-1",
    kind: "methane",
    point: point.body.id,
  });
  expect(sensor.status).toBe(201);
  return String(facility.body.id);
}

/** The batch once it is no longer queued (or as it is after `ms`). */
async function settled(url: string, token: string, batch: string, ms: number): Promise<{ state: string; [k: string]: unknown }> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await call(url, token, "GET", `/v1/telemetry/batches/${batch}/`);
    if (status.body.state !== "queued" || Date.now() > until) return status.body as { state: string };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("refuses a 40 MB line by its number, the consumer's thread living on, while another company's readings are applied within 10 s", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "readings-long-line-"));
  const failures = vi.spyOn(serverLog, "error");
  const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  try {
    const token = (await signInAsDemo(server.url)).access;
    const facility = await mine(server.url, token, "Шахта «Длинная строка»");
    const other = await createCompany(server.deps, { name: "ООО «Соседи»" });
    await createUser(server.deps, { companyId: other.id, email: "neighbour@example.com", password: NEIGHBOUR_PASSWORD });
    const otherToken = await accessToken(server.url, { email: "neighbour@example.com", password: NEIGHBOUR_PASSWORD });
    const otherFacility = await mine(server.url, otherToken, "Шахта «Соседняя»");

    // The consumer's thread started (its code loads in seconds on a busy machine) by a first push.
    const first = await call(server.url, otherToken, "POST", "/v1/telemetry/readings/", {
      facility: otherFacility,
      readings: [{ sensor: "М-1", t: new Date(Date.now() - 120_000).toISOString(), value: 0.41 }],
    });
    expect(await settled(server.url, otherToken, String(first.body.batch), 120_000)).toMatchObject({ state: "done" });

    const head = Buffer.from("Время;М-1\n01.03.2026 10:00:00;");
    const file = Buffer.alloc(head.length + LINE_BYTES + 1, "1".charCodeAt(0));
    head.copy(file);
    file[file.length - 1] = 0x0a;
    const grant = await call(server.url, token, "POST", "/v1/telemetry/upload-url/", {
      facility,
      content_type: "text/csv",
      size: file.length,
      name: "выгрузка.csv",
    });
    expect(grant.status).toBe(200);
    const put = await fetch(new URL(String(grant.body.url), server.url), {
      method: "PUT",
      headers: { ...(grant.body.headers as Record<string, string>), "Content-Length": String(file.length) },
      body: file,
    });
    expect(put.status, await put.text()).toBe(200);
    const named = await call(server.url, token, "POST", "/v1/telemetry/files/", { facility, file_upload: grant.body.file_upload });
    expect(named.status).toBe(202);

    // At the same moment, another company's gateway pushes a minute.
    const pushed = await call(server.url, otherToken, "POST", "/v1/telemetry/readings/", {
      facility: otherFacility,
      readings: [{ sensor: "М-1", t: new Date(Date.now() - 60_000).toISOString(), value: 0.42 }],
    });
    expect(pushed.status).toBe(202);
    const started = Date.now();
    const theirs = await settled(server.url, otherToken, String(pushed.body.batch), OTHERS_WAIT_MS);
    expect(theirs, `another company's readings waited ${Date.now() - started} ms`).toMatchObject({ state: "done", accepted: 1 });

    const file_ = await settled(server.url, token, String(named.body.batch), 120_000);
    expect(file_).toMatchObject({ state: "done", lines: 1, accepted: 0, refused: [{ line: 2, reason: LINE_TOO_LONG }] });
    expect(failures.mock.calls.filter(([line]) => line.event === "readings_consumer")).toEqual([]);
  } finally {
    failures.mockRestore();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
