// the security review's R4 and R12 on v1/abatement/: stream codes are data — «__proto__», «constructor» and «toString»
// evaluate, store and read back like any other code, the options, choices and own values named for them
// kept (a stream coded «__proto__» with options answered 500, «toString» a 400 about an option nobody
// named); keys of options, chosen and overrides naming no stream, an unknown option code or input are
// refused (400) instead of validated and ignored; the body is held to what 50 streams need.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract/schemas/limits";
import { waitText } from "@server/domain/heavy-work";
import { ABATEMENT_OFFERED_CODES } from "@server/contract/schemas/abatement";
import { largestAbatementBody, vectorParams } from "../support/abatement-vectors";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

/** The body as JSON text: a «__proto__» key written as data (an object literal would set a prototype). */
const send = (method: string, path: string, body: string) =>
  h.request(path, { method, token, body, headers: { "Content-Type": "application/json" } });
const drainage = '"kind": "drainage", "q_mix_m3_min": 40, "c_ch4_pct": 35';
const params = JSON.stringify(vectorParams());
const codedBody = (extra = "") => `{
  ${extra}
  "streams": [{"code": "__proto__", ${drainage}}, {"code": "constructor", ${drainage}}, {"code": "toString", ${drainage}}],
  "options": {"__proto__": ["FLARE_ENCLOSED"], "constructor": ["FLARE_OPEN", "FLARE_ENCLOSED"]},
  "chosen": {"constructor": "FLARE_OPEN"},
  "overrides": {"__proto__": {"FLARE_ENCLOSED": {"eta_destruction": 0.98}}},
  "params": ${params}
}`;

interface Stream {
  code: string;
  chosen: string | null;
  refused: unknown[];
  options: { option_code: string; er_t_co2e: number }[];
}
function checkCoded(streams: Stream[]) {
  const [proto, ctor, toStringStream] = streams;
  expect(streams.map((s) => s.code)).toEqual(["__proto__", "constructor", "toString"]);
  expect(proto.options.map((o) => o.option_code)).toEqual(["FLARE_ENCLOSED"]);
  // 11.4 (a): the enclosed flare at a measured 0,98.
  expect(proto.options[0].er_t_co2e).toBeCloseTo(97721.8, 1);
  expect(ctor.options.map((o) => o.option_code)).toEqual(["FLARE_ENCLOSED", "FLARE_OPEN"]);
  expect(ctor.chosen).toBe("FLARE_OPEN");
  expect(toStringStream.refused).toEqual([]);
  expect(toStringStream.options.length).toBeGreaterThan(1);
}

describe("stream codes are data (the security review's R12)", () => {
  it("evaluates streams coded «__proto__», «constructor» and «toString» with their options, choices and own values", async () => {
    const res = await send("POST", "/api/v1/abatement/evaluate/", codedBody());
    expect(res.status, await res.clone().text()).toBe(200);
    checkCoded(((await res.json()) as { streams: Stream[] }).streams);
  });

  it("stores them, and reads them back as stored", async () => {
    const created = await send("POST", "/api/v1/abatement/assessments/", codedBody('"name": "Коды-данные",'));
    expect(created.status, await created.clone().text()).toBe(201);
    const { id, version } = (await created.json()) as { id: string; version: number };
    const read = await h.request(`/api/v1/abatement/assessments/${id}/`, { token });
    const text = await read.text();
    const stored = JSON.parse(text) as { input: Record<string, Record<string, unknown>>; result: { streams: Stream[] }; origins: object };
    checkCoded(stored.result.streams);
    expect(Object.hasOwn(stored.input.options, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(stored.input.options, "__proto__")?.value).toEqual(["FLARE_ENCLOSED"]);
    expect(Object.keys(stored.origins)).toEqual(["__proto__", "constructor", "toString"]);
    // Changed and computed again, the codes' inputs stay.
    const changed = await send("PATCH", `/api/v1/abatement/assessments/${id}/`, `{"version": ${version}, "name": "Коды-данные 2"}`);
    expect(changed.status, await changed.clone().text()).toBe(200);
    const listed = await h.request("/api/v1/abatement/assessments/", { token });
    expect(listed.status).toBe(200);
    const again = await h.request(`/api/v1/abatement/assessments/${id}/`, { token });
    checkCoded(((await again.json()) as { result: { streams: Stream[] } }).result.streams);
  });
});

describe("keys naming no stream, unknown codes and inputs are refused (the security review's R4)", () => {
  const body = (extra: string) => `{"streams": [{"code": "d", ${drainage}}], "params": ${params}, ${extra}}`.replace(", }", "}");
  const refused = async (extra: string, detail: RegExp) => {
    const res = await send("POST", "/api/v1/abatement/evaluate/", body(extra));
    expect(res.status, extra).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
  };

  it("a key of options, chosen or overrides that names no stream", async () => {
    await refused('"options": {"d": ["FLARE_OPEN"], "nope": ["FLARE_OPEN"]}', /^options\.nope: нет потока с кодом «nope»/);
    await refused('"chosen": {"toString": "FLARE_OPEN"}', /^chosen\.toString: нет потока с кодом «toString»/);
    await refused('"overrides": {"__proto__": {"FLARE_OPEN": {"aux_kw": 1}}}', /^overrides\.__proto__: нет потока/);
  });

  it("an option code nobody offers or an input nobody reads in overrides", async () => {
    await refused('"overrides": {"d": {"FLARE_SOMETHING": {"aux_kw": 1}}}', /^overrides\.d: .*«?"?FLARE_SOMETHING/);
    await refused('"overrides": {"d": {"FLARE_OPEN": {"aux_kwh": 1}}}', /^overrides\.d\.FLARE_OPEN: .*aux_kwh/);
  });

  it("more keys than streams may be, before any is read", async () => {
    const many = Object.fromEntries(Array.from({ length: 45_000 }, (_, i) => [`k${i}`, ["GAS_ENGINE_CHP"]]));
    const res = await send(
      "POST",
      "/api/v1/abatement/evaluate/",
      body(
        `"options": ${JSON.stringify(many)
          .slice(0, 300_000)
          .replace(/,"[^"]*$/, "")}}`,
      ),
    );
    expect([400, 413]).toContain(res.status);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("options")}: не больше 50 ключей|^Запрос больше`),
    );
  });

  it("holds the body to what 50 streams need: the largest such request passes the cap, more is 413", async () => {
    const largest = JSON.stringify(
      largestAbatementBody({
        ...LIMITS.abatement,
        name: LIMITS.name.abatement,
        id: LIMITS.id,
        offered: ABATEMENT_OFFERED_CODES,
        overrideKeys: [
          "eta_destruction",
          "aux_kw",
          "capex_rub",
          "opex_fixed_rub",
          "eta_el",
          "eta_th",
          "heat_used_share",
          "aux_share",
          "capex_rub_per_kw",
          "opex_rub_per_kwh",
          "eta_boiler",
          "dp_pa",
          "eta_fan",
          "leakage_t_co2e",
          "displaces_grid",
          "el_used_share",
        ],
      }),
    );
    expect(Buffer.byteLength(largest)).toBeLessThanOrEqual(LIMITS.abatement.bodyBytes);
    for (const path of ["/api/v1/abatement/evaluate/", "/api/v1/abatement/assessments/"]) {
      const res = await send("POST", path, largest);
      // Read whole and checked: its numbers are out of bounds, which the 400 says.
      expect(res.status, path).toBe(400);
      // A byte more than the cap (below the server's 1 MB JSON cap) is refused unread.
      const over = await send("POST", path, `${largest}${" ".repeat(LIMITS.abatement.bodyBytes - Buffer.byteLength(largest) + 1)}`);
      expect(over.status, path).toBe(413);
    }
  });

  it("ten of one user's evaluations at once: two in the user's heavy-work slots, the others 429 before their bodies are read", async () => {
    const body = {
      streams: Array.from({ length: 50 }, (_, i) => ({ code: `d${i}`, kind: "drainage", q_mix_m3_min: 20 + i, c_ch4_pct: 40 })),
      params: vectorParams(),
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.request("/api/v1/abatement/evaluate/", { method: "POST", token, json: body })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(
      statuses.every((status) => status === 200 || status === 429),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(8 - 2);
    const refused = answers.find((res) => res.status === 429) as Response;
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    const refusal = ((await refused.json()) as { detail: string }).detail;
    expect(refusal).toMatch(/оценки снижения выбросов\): у пользователя не более 2/);
    expect(refusal).toContain(`Повторите через ${waitText(wait)}`);
  });
});
