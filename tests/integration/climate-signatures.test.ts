// КЭП of a climate project's period on the in-process API, with signatures made here
// by OpenSSL's GOST engine as an executor's CryptoPro would make them: the file the platform offers is
// the period's pack's manifest.json, the same bytes each time; its detached GOST R 34.10-2012 signature (DER, PEM or bare base64) is
// accepted and shown — the signer, the organisation, ИНН and ОГРН, the validity, the chain «не
// проверена» while no CA certificate is loaded; a signature of another file, broken bytes, a text that
// is no signature, an RSA key's signature and an expired certificate are refused with their reasons;
// another company sees nothing. The pack carries the accepted signatures beside its manifest
// (kep/manifest.json.N.sig) and verify.py names them and agrees. With a CA certificate loaded by an administrator, a certificate it
// issued is accepted with its chain verified and a self-signed one refused. A fresh table: the loaded
// CA certificates are platform-wide.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslGostCms } from "@server/adapters/signing/gost-cms";
import { createFreshHarness, type Harness } from "../support/harness";
import { signedInAdmin, signIn } from "../support/admin";
import { createUser } from "@server/domain/company/users";
import { FILLED_REPORT } from "../support/climate-case-a";

import { dropSigner, gostCertificate, requireGostEngine, rsaSignature, signDetached, type GostSigner } from "../support/gost";

let h: Harness;
let staff: { token: string; companyId: string };
let other: string;
let base: string;
const signers: GostSigner[] = [];

const METHODOLOGY = { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] };
const SUBJECT =
  "/CN=Иванов Иван Иванович/SN=Иванов/GN=Иван Иванович/O=ООО «Шахта Северная»/title=Генеральный директор" +
  "/1.2.643.3.131.1.1=421234567890/1.2.643.100.1=1024200001234";

async function created(res: Response) {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

const signed = (s: GostSigner) => {
  signers.push(s);
  return s;
};

function post(token: string, bytes: Uint8Array, name = "manifest.json.sig") {
  const body = new FormData();
  body.append("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return h.request(`${base}signatures/`, { method: "POST", token, body });
}

async function payload(token = staff.token) {
  const res = await h.request(`${base}signatures/payload/`, { token });
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), disposition: res.headers.get("content-disposition") ?? "" };
}

const signDetachedBytes = new Map<string, Uint8Array>();
const dirs: string[] = [];

async function pack() {
  const res = await h.request(`${base}pack/`, { token: staff.token });
  expect(res.status, await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The zip extracted into a folder of its own. */
function unzip(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "climate-kep-"));
  dirs.push(dir);
  writeFileSync(join(dir, "pack.zip"), bytes);
  const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return join(dir, "pack");
}

/** The platform's public key as GET v1/signing-keys/ lists it, in a file for verify.py. */
async function platformKey(): Promise<string> {
  const keys = (await (await h.request("/api/v1/signing-keys/")).json()) as { keys: Array<{ pem: string }> };
  const dir = mkdtempSync(join(tmpdir(), "climate-kep-key-"));
  dirs.push(dir);
  writeFileSync(join(dir, "platform.pem"), keys.keys.at(-1)!.pem);
  return join(dir, "platform.pem");
}

async function refused(res: Response) {
  expect(res.status, await res.clone().text()).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
}

beforeAll(async () => {
  requireGostEngine();
  h = await createFreshHarness();
  staff = await h.signedInUser("ООО «Шахта Северная»");
  other = (await h.signedInUser("Другая компания")).token;
  const facility = (await created(
    await h.request("/api/v1/facilities/", {
      method: "POST",
      token: staff.token,
      json: { name: "Шахта Северная", kind: "underground_mine" },
    }),
  )) as { id: string };
  const point = (await created(
    await h.request(`/api/v1/facilities/${facility.id}/points/`, {
      method: "POST",
      token: staff.token,
      json: { name: "Дегазационная станция", kind: "drainage_station", instrument: "АГК" },
    }),
  )) as { id: string };
  for (const [code, kind] of [
    ["Q-1", "flow"],
    ["C-1", "methane_high"],
    ["FL-1", "flame"],
  ]) {
    await created(
      await h.request(`/api/v1/facilities/${facility.id}/sensors/`, {
        method: "POST",
        token: staff.token,
        json: { code, kind, point: point.id },
      }),
    );
  }
  const project = await created(
    await h.request("/api/v1/climate-projects/", {
      method: "POST",
      token: staff.token,
      json: {
        name: "Факельная установка",
        facility: facility.id,
        start: "2026-06-01",
        methodology: METHODOLOGY,
        devices: [{ point: point.id, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-1", c: "C-1", flame: "FL-1" } }],
      },
    }),
  );
  const period = await created(
    await h.request(`/api/v1/climate-projects/${project.id}/periods/`, {
      method: "POST",
      token: staff.token,
      json: { start: "2026-06-01T00:00", end: "2026-06-01T06:00" },
    }),
  );
  base = `/api/v1/climate-projects/${project.id}/periods/${period.id}/`;
});
afterAll(async () => {
  for (const s of signers) dropSigner(s);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await h?.close();
});

describe("КЭП of a climate period", () => {
  it("offers the same file each time: the pack's manifest.json, byte for byte, naming every file of the pack", async () => {
    const first = await payload();
    const again = await payload();
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(decodeURIComponent(first.disposition)).toContain("Манифест пакета Факельная установка 2026-06-01–2026-06-01.json");
    const manifest = JSON.parse(new TextDecoder().decode(first.bytes));
    expect(manifest).toMatchObject({
      kind: "climate_period",
      company: "ООО «Шахта Северная»",
      period: { start: "2026-06-01T00:00", end: "2026-06-01T06:00", hours: 6 },
    });
    const names = (manifest.files as { name: string; sha256: string }[]).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["period.json", "totals.json", "deviations.csv", "register.csv"]));
    // The pack carries this very file as its manifest.json.
    const dir = unzip(await pack());
    expect(Buffer.from(readFileSync(join(dir, "manifest.json"))).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it("accepts a GOST R 34.10-2012 signature of the offered file and shows the signer, organisation, validity and chain", async () => {
    const signer = signed(gostCertificate({ subject: SUBJECT, days: 365 }));
    const { bytes } = await payload();
    const der = signDetached(signer, bytes);
    const kept = await created(await post(staff.token, der));
    signDetachedBytes.set(kept.id as string, der);
    expect(kept).toMatchObject({
      signer: {
        common_name: "Иванов Иван Иванович",
        surname: "Иванов",
        given_name: "Иван Иванович",
        organization: "ООО «Шахта Северная»",
        title: "Генеральный директор",
        inn: "421234567890",
        ogrn: "1024200001234",
      },
      chain: { state: "unchecked" },
    });
    // a self-signed certificate is warned of.
    expect(kept.warnings).toEqual(["сертификат самоподписанный: выдан самим подписантом, а не удостоверяющим центром"]);
    const validTo = Date.parse(String((kept.signer as { valid_to: string }).valid_to));
    expect(Math.abs(validTo - (Date.now() + 365 * 86_400_000))).toBeLessThan(2 * 86_400_000);
    expect(kept.signing_time).toBeTruthy();
    // The same certificate over the same file again is 409; the PEM and bare base64 forms the tools
    // save are read too.
    const again = await post(staff.token, signDetached(signer, bytes, "PEM"));
    expect(again.status).toBe(409);
    expect(((await again.json()) as { detail: string }).detail).toBe(
      "Этот файл уже подписан этим сертификатом: подпись сохранена у периода раньше",
    );
    const second = signed(gostCertificate({ subject: "/CN=Второй подписант/O=ООО «Шахта Северная»", days: 30 }));
    const third = signed(gostCertificate({ subject: "/CN=Третий подписант/O=ООО «Шахта Северная»", days: 30 }));
    await created(await post(staff.token, signDetached(second, bytes, "PEM"), "manifest.json.sig.pem"));
    await created(await post(staff.token, signDetached(third, bytes, "base64")));

    const list = (await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as {
      count: number;
      results: { id: string; signer: { common_name: string } }[];
    };
    expect(list.count).toBe(3);
    expect(list.results[0]).toMatchObject({ id: kept.id, signer: { common_name: "Иванов Иван Иванович" } });
    // The pack carries the signatures over its manifest as they were brought (DER), beside it, and
    // verify.py names them and still agrees (exit 0 under the platform's key).
    const dir = unzip(await pack());
    const kep = readdirSync(join(dir, "kep")).sort();
    expect(kep).toEqual(["manifest.json.1.sig", "manifest.json.2.sig", "manifest.json.3.sig"]);
    const first = readFileSync(join(dir, "kep", "manifest.json.1.sig"));
    expect(first.toString("base64")).toBe(Buffer.from(signDetachedBytes.get(kept.id as string)!).toString("base64"));
    const out = spawnSync("python3", ["verify.py", "--public-key", await platformKey()], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    expect(out.status, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain("kep/manifest.json.1.sig — КЭП исполнителя над manifest.json");
    // In the company's change log, with the chain's state in words.
    await h.settled();
    const log = await h.deps.repos.adminAudit.listCompany(staff.companyId, { limit: 10, offset: 0 });
    const entry = log.results.find((e) => e.target_type === "climate_signature" && e.target_id === kept.id);
    expect(entry?.after).toMatchObject({
      signer: "Иванов Иван Иванович",
      chain: "цепочка не проверена: корневые сертификаты не загружены",
    });
  });

  it("refuses a signature of another file, broken bytes, a text that is no signature, an RSA key and an expired certificate", async () => {
    const signer = signed(gostCertificate({ subject: "/CN=Петров Петр/O=ООО Тест", days: 30 }));
    const { bytes } = await payload();
    const otherFile = new TextEncoder().encode('{"format":"climate-period-manifest/1","period":{"carbon_units":1000}}\n');
    expect(await refused(await post(staff.token, signDetached(signer, otherFile)))).toBe(
      "file_data: Подпись сделана не над этим файлом: подпишите файл, который выдает «Скачать файл для подписи», не меняя его, и сохраните отсоединенную подпись",
    );
    const tampered = signDetached(signer, bytes);
    tampered[tampered.length - 5] ^= 0xff;
    expect(await refused(await post(staff.token, tampered))).toMatch(/^file_data: Подпись повреждена/);
    expect(await refused(await post(staff.token, signDetached(signer, bytes).subarray(0, 300)))).toMatch(/^file_data: Подпись повреждена/);
    expect(await refused(await post(staff.token, new TextEncoder().encode("это не подпись")))).toMatch(/^file_data: Это не подпись CMS/);
    expect(await refused(await post(staff.token, rsaSignature(bytes)))).toMatch(/не по ГОСТ Р 34\.10-2012/);

    const expired = signed(
      gostCertificate({ subject: "/CN=Сидоров Сидор/O=ООО Тест", startdate: "20200101000000Z", enddate: "20210101000000Z" }),
    );
    expect(await refused(await post(staff.token, signDetached(expired, bytes)))).toMatch(
      /^file_data: срок действия сертификата подписанта истек 01\.01\.2021 \(действовал 01\.01\.2020 – 01\.01\.2021\)/,
    );
    const list = (await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as {
      results: { signer: { common_name: string } }[];
    };
    expect(list.results.map((r) => r.signer.common_name)).not.toContain("Сидоров Сидор");
  });

  it("another company gets 404 for the file, the signatures and a post", async () => {
    const signer = signed(gostCertificate({ subject: "/CN=Чужой/O=ООО Чужая", days: 30 }));
    const { bytes } = await payload();
    expect((await h.request(`${base}signatures/payload/`, { token: other })).status).toBe(404);
    expect((await h.request(`${base}signatures/`, { token: other })).status).toBe(404);
    expect((await post(other, signDetached(signer, bytes))).status).toBe(404);
  });

  it("checks the chain against the CA certificates an administrator loads: verified for one it issued, refused for another", async () => {
    const admin = await signedInAdmin(h);
    const ca = signed(gostCertificate({ subject: "/CN=Тестовый УЦ/O=АО «УЦ»", days: 3650, ca: true }));
    const issued = signed(gostCertificate({ subject: "/CN=Кузнецова Анна/O=ООО «Шахта Северная»", days: 365, issuer: ca }));
    const stranger = signed(gostCertificate({ subject: "/CN=Самозванец/O=ООО Тест", days: 365 }));

    const form = (bytes: Uint8Array) => {
      const body = new FormData();
      body.append("file_data", new Blob([bytes as Uint8Array<ArrayBuffer>]), "ca.cer");
      return body;
    };
    // Staff cannot load one; a certificate that is no CA's is refused.
    expect(
      (await h.request("/api/v1/admin/ca-roots/", { method: "POST", token: staff.token, body: form(new TextEncoder().encode(ca.pem)) }))
        .status,
    ).toBe(403);
    expect(
      await refused(
        await h.request("/api/v1/admin/ca-roots/", {
          method: "POST",
          token: admin.token,
          body: form(new TextEncoder().encode(stranger.pem)),
        }),
      ),
    ).toBe("file_data: сертификат не является сертификатом УЦ (в нем нет CA:TRUE)");
    const loaded = await created(
      await h.request("/api/v1/admin/ca-roots/", { method: "POST", token: admin.token, body: form(new TextEncoder().encode(ca.pem)) }),
    );
    expect(loaded).toMatchObject({ count: 1, results: [{ subject: expect.stringContaining("CN=Тестовый УЦ") }] });
    const rootId = (loaded.results as { id: string }[])[0].id;

    const { bytes } = await payload();
    const kept = await created(await post(staff.token, signDetached(issued, bytes)));
    expect(kept).toMatchObject({ chain: { state: "verified" }, signer: { common_name: "Кузнецова Анна", issuer: "Тестовый УЦ" } });
    expect(await refused(await post(staff.token, signDetached(stranger, bytes)))).toBe(
      "file_data: сертификат подписанта не подтвержден загруженными корневыми сертификатами: сертификат выдан не тем УЦ, чьи корневые сертификаты загружены",
    );

    const removed = await h.request(`/api/v1/admin/ca-roots/${rootId}/`, { method: "DELETE", token: admin.token });
    expect(removed.status).toBe(200);
    expect(((await (await h.request("/api/v1/admin/ca-roots/", { token: admin.token })).json()) as { count: number }).count).toBe(0);
    // Without a loaded root the stranger's signature is kept, its chain not checked.
    expect(await created(await post(staff.token, signDetached(stranger, bytes)))).toMatchObject({ chain: { state: "unchecked" } });
  });
});

describe("a signature over an earlier state of the file", () => {
  type Listed = { results: { id: string; current: boolean; signer: { common_name: string } }[] };
  const listed = async () => (await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as Listed;
  const kepFiles = (dir: string) => {
    try {
      return readdirSync(join(dir, "kep"));
    } catch {
      return [];
    }
  };

  it("is marked not current once the report changes, and the pack no longer carries it", async () => {
    const signer = signed(gostCertificate({ subject: "/CN=Прежний подписант/O=ООО «Шахта Северная»", days: 30 }));
    const before = await payload();
    const kept = await created(await post(staff.token, signDetached(signer, before.bytes)));
    expect(kept.current).toBe(true);
    expect((await listed()).results.every((r) => r.current)).toBe(true);
    const carried = kepFiles(unzip(await pack())).length;
    expect(carried).toBe((await listed()).results.length);

    // The executor writes a hand field of the report: the manifest names the report's new bytes.
    const report = `${base}report/`;
    const version = ((await (await h.request(report, { token: staff.token })).json()) as { version: number }).version;
    const patched = await h.request(report, {
      method: "PATCH",
      token: staff.token,
      json: { fields: { s2_description: "Факел сжигает метан дегазации" }, version },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const after = await payload();
    expect(Buffer.from(after.bytes).equals(Buffer.from(before.bytes))).toBe(false);

    const list = await listed();
    expect(list.results.find((r) => r.id === kept.id)).toMatchObject({ current: false, signer: { common_name: "Прежний подписант" } });
    expect(list.results.every((r) => !r.current)).toBe(true);
    expect(kepFiles(unzip(await pack()))).toEqual([]);

    // Signed again over the file offered now: that one is current and the pack carries it alone.
    const again = await created(await post(staff.token, signDetached(signer, after.bytes)));
    expect(again.current).toBe(true);
    expect((await listed()).results.filter((r) => r.current).map((r) => r.id)).toEqual([again.id]);
    expect(kepFiles(unzip(await pack()))).toEqual(["manifest.json.1.sig"]);
  });

  it("stays current on an approved period: its file is made from the approval's snapshot", async () => {
    await createUser(h.deps, {
      companyId: staff.companyId,
      email: "kep-reviewer@example.test",
      password: "reviewer-password",
      role: "reviewer",
      first_name: "Ирина",
      last_name: "Проверкина",
    });
    const reviewer = ((await (await signIn(h, "kep-reviewer@example.test", "reviewer-password")).json()) as { access: string }).access;
    const hand = (await (await h.request(`${base}report/`, { token: staff.token })).json()) as { version: number };
    const filled = await h.request(`${base}report/`, {
      method: "PATCH",
      token: staff.token,
      json: { fields: FILLED_REPORT, version: hand.version },
    });
    expect(filled.status, await filled.clone().text()).toBe(200);
    const period = (await (await h.request(base, { token: staff.token })).json()) as { version: number };
    const approved = await h.request(`${base}review/`, {
      method: "POST",
      token: reviewer,
      json: { action: "approve", version: period.version },
    });
    expect(approved.status, await approved.clone().text()).toBe(200);
    // The approval is a new state of the period: the earlier signatures are over the earlier file.
    expect((await listed()).results.every((r) => !r.current)).toBe(true);
    const signer = signed(gostCertificate({ subject: "/CN=Подписант утвержденного/O=ООО «Шахта Северная»", days: 30 }));
    const { bytes } = await payload();
    const kept = await created(await post(staff.token, signDetached(signer, bytes)));

    // The project renamed: an open period's report would print the new name; the approved one's does not.
    const project = base.split("/periods/")[0];
    const stored = (await (await h.request(`${project}/`, { token: staff.token })).json()) as { version: number };
    const renamed = await h.request(`${project}/`, {
      method: "PATCH",
      token: staff.token,
      json: { name: "Факельная установка (переименована)", version: stored.version },
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect(Buffer.from((await payload()).bytes).equals(Buffer.from(bytes))).toBe(true);
    expect((await listed()).results.find((r) => r.id === kept.id)?.current).toBe(true);
    // Its report is frozen with it: a hand field cannot be written.
    const report = await h.request(`${base}report/`, {
      method: "PATCH",
      token: staff.token,
      json: { fields: { s2_description: "Другое" }, version: 1 },
    });
    expect(report.status).toBe(409);
  });
});

describe("a host without the GOST engine", () => {
  it("says it cannot check a signature (503) and keeps nothing", async () => {
    const signer = signed(gostCertificate({ subject: "/CN=Без движка/O=ООО Тест", days: 30 }));
    const { bytes } = await payload();
    const before = ((await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as { count: number }).count;
    const kept = h.deps.gostCms;
    h.deps.gostCms = opensslGostCms({ engine: "no-such-engine" });
    try {
      const res = await post(staff.token, signDetached(signer, bytes));
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toBe(
        "Проверка КЭП недоступна на этом сервере: нет OpenSSL с движком ГОСТ (пакет libengine-gost-openssl)",
      );
    } finally {
      h.deps.gostCms = kept;
    }
    expect(((await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as { count: number }).count).toBe(before);
  });
});

describe("the certificate's card", () => {
  it("warns where the certificate's ИНН or ОГРН is not the executor's", async () => {
    const company = (await h.deps.repos.companies.get(staff.companyId))!;
    const version = (company as { version?: number }).version ?? 0;
    await h.deps.repos.companies.replace(
      { ...company, inn: "4205000000", ogrn: "1234567890123", version: version + 1 } as typeof company,
      version,
    );
    try {
      const legal = signed(
        gostCertificate({ subject: "/CN=ООО Другое/O=ООО Другое/1.2.643.3.131.1.1=4211000000/1.2.643.100.1=1024200001234", days: 30 }),
      );
      const other = await created(await post(staff.token, signDetached(legal, (await payload()).bytes)));
      expect(other.warnings).toContain("ИНН в сертификате (4211000000) не ИНН исполнителя (4205000000)");
      const signer = signed(gostCertificate({ subject: SUBJECT, days: 30 }));
      const kept = await created(await post(staff.token, signDetached(signer, (await payload()).bytes)));
      // The certificate's 12-digit ИНН is its holder's own, never compared with the executor's.
      expect(kept.warnings).toEqual([
        "ОГРН в сертификате (1024200001234) не ОГРН исполнителя (1234567890123)",
        "сертификат самоподписанный: выдан самим подписантом, а не удостоверяющим центром",
      ]);
      const list = (await (await h.request(`${base}signatures/`, { token: staff.token })).json()) as {
        results: { id: string; warnings: string[] }[];
      };
      expect(list.results.find((r) => r.id === kept.id)?.warnings).toEqual(kept.warnings);
    } finally {
      const now = (await h.deps.repos.companies.get(staff.companyId))!;
      const at = (now as { version?: number }).version ?? 0;
      await h.deps.repos.companies.replace({ ...now, inn: company.inn, ogrn: company.ogrn, version: at + 1 } as typeof now, at);
    }
  });
});

describe("listing the signatures", () => {
  it("makes the file to sign only when what it is made from changed: a second listing reads no minutes", async () => {
    const list = async () => {
      const started = performance.now();
      const res = await h.request(`${base}signatures/`, { token: staff.token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { current: boolean }[] };
      return { ms: performance.now() - started, body };
    };
    const blobs = h.deps.blobs;
    const read: string[] = [];
    const get = blobs.get.bind(blobs);
    blobs.get = (key: string) => {
      read.push(key);
      return get(key);
    };
    try {
      const first = await list();
      const minutesFirst = read.filter((k) => k.endsWith(".minutes.json")).length;
      read.length = 0;
      const second = await list();
      expect(read.filter((k) => k.endsWith(".minutes.json"))).toEqual([]);
      expect(second.body).toEqual(first.body);
      console.log(
        `signatures listed: ${first.ms.toFixed(0)} ms making the file (${minutesFirst} minute reads), ${second.ms.toFixed(0)} ms with its hash kept`,
      );
    } finally {
      blobs.get = get;
    }
  });
});
