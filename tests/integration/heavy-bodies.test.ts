// a heavy JSON request (abatement's evaluation, create and change; a climate period's
// stateless evaluation) takes its heavy-work slot after the user's pace and before its body is read;
// in the slot its counts are held to their bounds before anything walks it key by key (the text's
// check, the route's schema). The text's check once walked every body first, before the user was
// known: a 37 000-key abatement body cost 0,5-0,6 s of the request thread before its 400, a 980 KB
// evaluation was read and walked whatever the slots held.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { climateEvaluateSchema } from "@server/contract/schemas/climate";
import { abatementInputSchema } from "@server/contract/schemas/abatement";
import { takeHeavySlot } from "@server/domain/heavy-work";
import { vectorParams } from "../support/abatement-vectors";
import { createHarness, type Harness } from "../support/harness";
import { type LocalServer, startLocalServer } from "@server/local/server";
import { DEMO, signInAsDemo } from "../support/server";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
});
afterAll(() => h.close());

/** `text` as a body the test sees read: `pulled` counts the chunks anyone took from it. */
function countedBody(text: string) {
  const bytes = new TextEncoder().encode(text);
  const counter = { pulled: 0 };
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        counter.pulled += 1;
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        at += 64 * 1024;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, counter, length: bytes.length };
}

const post = (path: string, text: string) => {
  const { body, counter, length } = countedBody(text);
  const answer = h.request(path, {
    method: "POST",
    token: user.token,
    body,
    headers: { "Content-Type": "application/json", "Content-Length": String(length) },
    duplex: "half",
  } as RequestInit & { token: string });
  return { answer, counter };
};

/** A climate evaluation of about 980 KB: ten devices' hours, a bidi override in a label and a
 *  segment out of its minutes (what the text's check and the schema would each refuse). */
function largeClimateBody(): string {
  const segment = { from: 0, to: 60, q: 12.5, c: 41.25, p: 101.3, t: 18.5 };
  const hours = Array.from({ length: 860 }, (_, i) => ({ label: `2026-06-01T${i}`, repeat: 1, segments: [segment] }));
  hours[3] = { label: "\u202Eevil", repeat: 1, segments: [{ ...segment, from: 70 }] };
  const devices = Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, kind: "flare_open", flow_basis: "standard_20C", hours }));
  return JSON.stringify({ period: {}, devices });
}

/** 37 000 option keys under abatement's 640 KB cap, a bidi override in a stream's name and params of
 *  the wrong type: the text's check and the schema would each name their field, the count only its own. */
function manyKeysBody(): string {
  const keys = Array.from({ length: 37_000 }, (_, i) => `"k${i}":[]`).join(",");
  return `{"streams": [{"code": "d", "name": "\u202Eevil", "kind": "drainage", "q_mix_m3_min": 40, "c_ch4_pct": 35}],
    "params": {"discount_rate_pct": "десять"}, "options": {${keys}}}`;
}

describe("a heavy request's slot before its body", () => {
  it("with the user's slots taken, a 980 KB evaluation is refused 429 with none of its body read", async () => {
    const held = [
      await takeHeavySlot(h.deps, { id: user.userId, company: user.companyId }),
      await takeHeavySlot(h.deps, { id: user.userId, company: user.companyId }),
    ];
    try {
      const climate = largeClimateBody();
      expect(climate.length).toBeGreaterThan(900_000);
      const bodies = { "/api/v1/climate-projects/evaluate/": climate, "/api/v1/abatement/evaluate/": manyKeysBody() };
      for (const [path, text] of Object.entries(bodies)) {
        const { answer, counter } = post(path, text);
        const res = await answer;
        expect(res.status, path).toBe(429);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/у пользователя не более 2/);
        expect(counter.pulled, path).toBe(0);
      }
    } finally {
      await Promise.all(held.map((release) => release()));
    }
  });

  it("in the slot, the same body is read and refused for its text", async () => {
    const { answer, counter } = post("/api/v1/climate-projects/evaluate/", largeClimateBody());
    const res = await answer;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^${fieldName("devices[0].hours[3].label")}: недопустимые символы`),
    );
    expect(counter.pulled).toBeGreaterThan(0);
  });

  it("a 37 000-key abatement body is refused by its count alone: no text walked, no schema run", async () => {
    const text = manyKeysBody();
    expect(text.length).toBeLessThan(640 * 1024);
    for (const path of ["/api/v1/abatement/evaluate/", "/api/v1/abatement/assessments/"]) {
      const res = await post(path, text).answer;
      expect(res.status, path).toBe(400);
      const answer = (await res.json()) as { detail: string; errors: { field: string }[] };
      expect(answer.detail, path).toBe(`${fieldName("options")}: не больше 50 ключей`);
      expect(answer.errors.map((e) => e.field)).toEqual(["options"]);
    }
  });

  it("a climate hour of 61 segments is refused by its count, naming it", async () => {
    const segments = Array.from({ length: 61 }, () => ({ from: 0, to: 1, q: 1, c: 40 }));
    const text = JSON.stringify({
      period: {},
      devices: [{ id: "d", kind: "flare_open", flow_basis: "standard_20C", hours: [{ label: "\u202E", repeat: 1, segments }] }],
    });
    const res = await post("/api/v1/climate-projects/evaluate/", text).answer;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      `${fieldName("devices.0.hours.0.segments")}: не более 60 отрезков в часе`,
    );
  });

  it("a valid abatement evaluation still runs in its slot", async () => {
    const body = { streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }], params: vectorParams() };
    const res = await h.request("/api/v1/abatement/evaluate/", { method: "POST", token: user.token, json: body });
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

describe("on the local server, the evaluation's body is parsed and checked where it is evaluated", () => {
  let server: LocalServer;
  let token: string;
  beforeAll(async () => {
    server = await startLocalServer({ port: 0, demo: DEMO });
    token = (await signInAsDemo(server.url)).access;
  }, 60_000);
  afterAll(() => server?.close());

  const evaluate = (body: string) =>
    fetch(`${server.url}/api/v1/climate-projects/evaluate/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body,
    });
  const flare = (segments: unknown[], label = "x") => ({
    period: {},
    devices: [{ id: "Ф-1", kind: "flare_open", flow_basis: "standard_20C", hours: [{ label, repeat: 1, segments }] }],
  });

  it("validates nothing on the request thread: the schema runs in the scoring thread", async () => {
    const parses = vi.spyOn(climateEvaluateSchema, "safeParseAsync");
    try {
      const res = await evaluate(JSON.stringify(flare([{ from: 0, to: 60, q: 10, c: 40, flame: 1 }])));
      expect(res.status).toBe(200);
      expect(parses).not.toHaveBeenCalled();
    } finally {
      parses.mockRestore();
    }
  });

  it("abatement's evaluation alike: no schema on the request thread, the same answers and refusals", async () => {
    const parses = vi.spyOn(abatementInputSchema, "safeParseAsync");
    try {
      const body = JSON.stringify({ streams: [{ code: "d", kind: "drainage", q_mix_m3_min: 40, c_ch4_pct: 35 }], params: vectorParams() });
      const call = (text: string) =>
        fetch(`${server.url}/api/v1/abatement/evaluate/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: text,
        });
      const threaded = await call(body);
      expect(threaded.status, await threaded.clone().text()).toBe(200);
      const here = await h.request("/api/v1/abatement/evaluate/", {
        method: "POST",
        token: user.token,
        body,
        headers: { "Content-Type": "application/json" },
      });
      expect(await threaded.json()).toEqual(await here.json());
      // The request thread's own path (the harness above) validates with the schema; the server's does not.
      expect(parses).toHaveBeenCalledTimes(1);
      parses.mockClear();
      const keys = await call(manyKeysBody());
      expect(keys.status).toBe(400);
      expect(((await keys.json()) as { detail: string }).detail).toBe(`${fieldName("options")}: не больше 50 ключей`);
      const nobody = await call(body.replace('"params"', '"options": {"x": ["FLARE_OPEN"]}, "params"'));
      expect(((await nobody.json()) as { detail: string }).detail).toMatch(/^options\.x: нет потока с кодом «x»/);
      expect(parses).not.toHaveBeenCalled();
    } finally {
      parses.mockRestore();
    }
  });

  it("answers the figures the request thread answered, and refuses as it did, naming the field", async () => {
    const body = JSON.stringify(flare([{ from: 0, to: 60, q: 10, c: 40, flame: 1 }]));
    const threaded = await evaluate(body);
    expect(threaded.status, await threaded.clone().text()).toBe(200);
    const here = await h.request("/api/v1/climate-projects/evaluate/", {
      method: "POST",
      token: user.token,
      body,
      headers: { "Content-Type": "application/json" },
    });
    expect(await threaded.json()).toEqual(await here.json());
    const refusals: Array<[string, string]> = [
      [
        JSON.stringify(flare([{ from: 0, to: 60, q: 10, c: 40, flame: 1 }], "\u202Eх")),
        `${fieldName("devices[0].hours[0].label")}: недопустимые символы`,
      ],
      [
        JSON.stringify(flare(Array.from({ length: 61 }, () => ({ from: 0, to: 1, q: 1 })))),
        `${fieldName("devices.0.hours.0.segments")}: не более 60 отрезков в часе`,
      ],
      [
        JSON.stringify(flare([{ from: 0, to: 60, q: 1e308, c: 40, flame: 1 }])),
        `${fieldName("devices.0.hours.0.segments.0.q")}: не больше`,
      ],
      [
        JSON.stringify(flare([{ from: 0, to: 50, q: 10, c: 40, flame: 1 }])),
        `${fieldName("devices.0.hours.0.segments")}: отрезки часа покрывают минуты с 0 до 60`,
      ],
      ["{not json", "Тело запроса не является корректным JSON"],
    ];
    for (const [text, detail] of refusals) {
      const res = await evaluate(text);
      expect(res.status, text.slice(0, 80)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail.startsWith(detail), detail).toBe(true);
    }
  });
});
