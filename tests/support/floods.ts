// an earlier round's floods as the red team sent them, for the tests that replay them against a server:
// 10 in flight of a 980 KB climate evaluation (POST v1/climate-projects/evaluate/), 10 in flight of a
// 37 000-key abatement body, and signature uploads of 200 KB refused at a period's cap of 50, 22 a
// second. trust-floods.deep.test.ts and signature-refusals.deep.test.ts measure another company's
// get_me under each; sigterm-floods.deep.test.ts stops the server while the three run at once.
import type { LocalServer } from "@server/local/server";
import { LIMITS } from "@server/contract/schemas/limits";
import { vectorParams } from "./abatement-vectors";

/** About 980 KB: ten devices' 860 hours of one segment each. */
export const climateBody = JSON.stringify({
  period: {},
  devices: Array.from({ length: 10 }, (_, d) => ({
    id: `Ф-${d}`,
    kind: "flare_open",
    flow_basis: "standard_20C",
    hours: Array.from({ length: 860 }, (_, i) => ({
      label: `h${i}`,
      repeat: 1,
      segments: [{ from: 0, to: 60, q: 12.5 + (i % 7), c: 41.25, flame: 1 }],
    })),
  })),
});
/** 37 000 option keys under abatement's 640 KB cap. */
export const keysBody = `{"streams": [{"code": "d", "kind": "drainage", "q_mix_m3_min": 40, "c_ch4_pct": 35}], "params": ${JSON.stringify(
  vectorParams(),
)}, "options": {${Array.from({ length: 37_000 }, (_, i) => `"k${i}":[]`).join(",")}}}`;

/** A request to the API as `token`: the route's path under /api/, a string body sent as JSON (a form
 *  with its own type). */
export type ApiCall = (token: string, path: string, init?: RequestInit) => Promise<Response>;

export const apiCall =
  (url: string): ApiCall =>
  (token, path, init = {}) =>
    fetch(`${url}/api/${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(typeof init.body === "string" ? { "Content-Type": "application/json" } : {}),
        ...init.headers,
      },
    });

/** What a flood saw: each answer's status counted, each request that ended without one (its
 *  connection refused or cut) counted under `failed`, and each request's times (performance.now()) and
 *  status, or the error it ended with. */
export interface FloodTally {
  statuses: Map<number, number>;
  failed: number;
  requests: Array<{ sent: number; ended: number; status?: number; error?: string }>;
}
export const newTally = (): FloodTally => ({ statuses: new Map(), failed: 0, requests: [] });
export const tallyLine = (tally: FloodTally) =>
  [...[...tally.statuses].map(([status, count]) => `${count} × ${status}`), ...(tally.failed ? [`${tally.failed} cut`] : [])].join(", ") ||
  "nothing";

/** One request of a flood, answered (its status counted, its body read) or ended without an answer. */
export async function counted(request: () => Promise<Response>, tally: FloodTally): Promise<number | undefined> {
  const sent = performance.now();
  try {
    const res = await request();
    await res.arrayBuffer();
    tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
    tally.requests.push({ sent, ended: performance.now(), status: res.status });
    return res.status;
  } catch (error) {
    tally.failed++;
    // fetch's TypeError carries the socket's error: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…
    const cause = (error as { cause?: { code?: string } }).cause;
    tally.requests.push({ sent, ended: performance.now(), error: cause?.code ?? String(error) });
    return undefined;
  }
}

/** `inFlight` requests of `body` to `path` at all times until `until` (performance.now()) or `going()`
 *  is false; a refused one (429) is asked again after 200 ms. A request that ends without an answer
 *  ends its lane (the server is gone). */
export const inFlight =
  (call: ApiCall, token: string, path: string, body: string, lanes = 10, going: () => boolean = () => true) =>
  (until: number, tally: FloodTally) =>
    Promise.all(
      Array.from({ length: lanes }, async () => {
        while (performance.now() < until && going()) {
          const status = await counted(() => call(token, path, { method: "POST", body }), tally);
          if (status === undefined) return;
          if (status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }),
    ).then(() => undefined);

/** `count` uploads of a 200 KB form to `path` (a period's signatures), `perSecond` a second, each sent
 *  without waiting for the last; stops sending once `going()` is false. Resolves when every one sent
 *  has ended. */
export async function signatureUploads(
  call: ApiCall,
  token: string,
  path: string,
  tally: FloodTally,
  { count = 220, perSecond = 22, going = (): boolean => true } = {},
): Promise<void> {
  const file = new Uint8Array(200 * 1024).fill(48);
  const sends: Promise<unknown>[] = [];
  for (let n = 0; n < count && going(); n++) {
    const form = new FormData();
    form.append("file_data", new Blob([file]), "manifest.json.sig");
    sends.push(counted(() => call(token, path, { method: "POST", body: form }), tally));
    await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
  }
  await Promise.all(sends);
}

/** A period at its cap of 50 signatures as kept (their bodies 64 KB each, as a real one's may be). */
export async function periodAtCap(deps: LocalServer["deps"], company: string, project: string, period: string): Promise<void> {
  const now = new Date().toISOString();
  for (let place = 0; place < LIMITS.climate.signaturesPerPeriod; place++) {
    await deps.repos.climateSignatures.add(
      {
        id: `0190f0f0-0000-7000-8000-${String(place).padStart(12, "0")}`,
        company,
        project,
        period,
        file_name: "manifest.json",
        file_sha256: `${place}`,
        signer: {
          common_name: `Подписант ${place}`,
          issuer: "УЦ",
          serial: `${place}`,
          valid_from: now,
          valid_to: now,
          fingerprint_sha256: `${place}`,
        },
        chain: { state: "unchecked" },
        signature_base64: "A".repeat(64 * 1024),
        created_at: now,
        created_by: "x@example.com",
      },
      place,
    );
  }
}
