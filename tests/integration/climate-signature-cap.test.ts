// a period's 50 signatures are a cap that holds — each kept in a place of the
// period written only if free, so four uploads at once at 48 keep two (they once kept 53) — and a
// period at its cap refuses an upload from a count, before its form is read (it once read every kept
// signature, bodies and all, after the form: about 6 reads' cost a refusal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract/schemas/limits";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { dropSigner, gostCertificate, requireGostEngine, signDetached, type GostSigner } from "../support/gost";

let h: Harness;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let base: string;
let ids: { project: string; period: string };
const signers: GostSigner[] = [];

async function created(res: Response) {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

function upload(bytes: Uint8Array, token = staff.token) {
  const body = new FormData();
  body.append("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>]), "manifest.json.sig");
  return h.request(`${base}signatures/`, { method: "POST", token, body });
}

const signer = (n: number) => {
  const s = gostCertificate({ subject: `/CN=Подписант ${n}/O=ООО «Шахта Предел»`, days: 365 });
  signers.push(s);
  return s;
};

beforeAll(async () => {
  requireGostEngine();
  h = await createHarness();
  staff = await h.signedInUser("ООО «Шахта Предел»");
  const post = (path: string, json: unknown) => h.request(path, { method: "POST", token: staff.token, json });
  const facility = await created(await post("/api/v1/facilities/", { name: "Шахта Предел", kind: "underground_mine" }));
  const point = await created(
    await post(`/api/v1/facilities/${facility.id}/points/`, { name: "ДС", kind: "drainage_station", instrument: "АГК" }),
  );
  for (const [code, kind] of [
    ["Q-1", "flow"],
    ["C-1", "methane_high"],
    ["FL-1", "flame"],
  ]) {
    await created(await post(`/api/v1/facilities/${facility.id}/sensors/`, { code, kind, point: point.id }));
  }
  const project = await created(
    await post("/api/v1/climate-projects/", {
      name: "Факел предела",
      facility: facility.id,
      start: "2026-06-01",
      methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
      devices: [{ point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-1", c: "C-1", flame: "FL-1" } }],
    }),
  );
  const period = await created(
    await post(`/api/v1/climate-projects/${project.id}/periods/`, { start: "2026-06-01T00:00", end: "2026-06-01T06:00" }),
  );
  ids = { project: project.id, period: period.id };
  base = `/api/v1/climate-projects/${project.id}/periods/${period.id}/`;
}, 120_000);
afterAll(async () => {
  for (const s of signers) dropSigner(s);
  await h?.close();
});

const kept = () => h.deps.repos.climateSignatures.list(staff.companyId, ids.project, ids.period);

describe("the period's cap of signatures", () => {
  it("four uploads at once at 48 kept signatures keep two: the period holds 50, the others are refused", async () => {
    const payload = new Uint8Array(await (await h.request(`${base}signatures/payload/`, { token: staff.token })).arrayBuffer());
    expect((await upload(signDetached(signer(0), payload))).status).toBe(201);
    // 47 more as kept before (copies of the first, each over another file), so that 48 are kept.
    const [first] = await kept();
    const cap = LIMITS.climate.signaturesPerPeriod;
    for (let place = 1; place < cap - 2; place++) {
      await h.deps.repos.climateSignatures.add(
        { ...first, id: `${first.id.slice(0, -4)}${String(place).padStart(4, "0")}`, file_sha256: `${place}` },
        place,
      );
    }
    expect(await kept()).toHaveLength(cap - 2);
    // Four of the company's people at once (each user has two heavy-work slots, the company four).
    const tokens: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      const email = `signer${n}-${staff.companyId.slice(-6)}@cap.test`;
      await createUser(h.deps, { companyId: staff.companyId, email, password: "signer-password" });
      tokens.push(((await (await signIn(h, email, "signer-password")).json()) as { access: string }).access);
    }
    const bodies = [1, 2, 3, 4].map((n) => signDetached(signer(n), payload));
    const answers = await Promise.all(bodies.map((bytes, i) => upload(bytes, tokens[i])));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses, String(statuses)).toEqual([201, 201, 400, 400]);
    for (const res of answers.filter((r) => r.status === 400)) {
      expect(((await res.json()) as { detail: string }).detail).toBe(`У периода уже ${cap} подписей`);
    }
    expect(await kept()).toHaveLength(cap);
  });

  it("at the cap, an upload is refused from a count: its form unread, no signature read", async () => {
    const list = h.deps.repos.climateSignatures.list;
    let listed = 0;
    h.deps.repos.climateSignatures.list = (...args) => {
      listed += 1;
      return list(...args);
    };
    try {
      const form = new FormData();
      form.append("file_data", new Blob([new Uint8Array(60_000)]), "manifest.json.sig");
      const request = new Request("http://x", { method: "POST", body: form });
      const bytes = new Uint8Array(await request.arrayBuffer());
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled += 1;
            controller.enqueue(bytes);
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const res = await h.request(`${base}signatures/`, {
        method: "POST",
        token: staff.token,
        body,
        headers: { "Content-Type": request.headers.get("content-type")!, "Content-Length": String(bytes.length) },
        duplex: "half",
      } as RequestInit & { token: string });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(`У периода уже ${LIMITS.climate.signaturesPerPeriod} подписей`);
      expect(pulled).toBe(0);
      expect(listed).toBe(0);
    } finally {
      h.deps.repos.climateSignatures.list = list;
    }
  });
});
