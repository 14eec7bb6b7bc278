// route() is createRoute's config written in a line: these hold it to the config a route written out
// gives, which the OpenAPI document, the handlers and the typed client read.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { access, declareRoute, formBody, json, jsonBody, route, storedObject } from "./declare";

const own = access("tests", "user", { scope: "own" });
const params = z.object({ id: z.string() });
const body = z.object({ name: z.string() });
const schema = z.object({ id: z.string() });
const answer = json(schema, "The thing");

describe("route", () => {
  it("gives the config of the route written out: a zod body as required JSON, the answers by status", () => {
    const short = route(own("patchThing", "Edit a thing", [400, 404], "Why"), { patch: "/{id}", cost: "light", params, body, 200: answer });
    const long = declareRoute(
      {
        operationId: "patchThing",
        summary: "Edit a thing",
        description: "Why",
        tag: "tests",
        auth: "user",
        isolation: { scope: "own" },
        errors: [400, 404],
        cost: "light",
      },
      { method: "patch", path: "/{id}", request: { params, body: jsonBody(body) }, responses: { 200: answer } },
    );
    expect(short).toEqual(long);
  });

  it("writes no request for a route that takes nothing, and passes a body that is not a schema as it is", () => {
    expect(route(own("listThings", "Things", []), { get: "/", cost: "light", 200: answer })).not.toHaveProperty("request");
    const form = formBody({ type: "object" });
    const upload = route(own("upload", "Upload", [415]), { post: "/", cost: "heavy", body: form, bodyCap: "form", 201: answer });
    expect(upload.request.body).toBe(form);
    expect(upload).toHaveProperty("x-body-cap", "form");
    expect(upload).toHaveProperty("x-cost", "heavy");
  });

  it("writes every route's cost: light or heavy, a shared heavy read marked beside it", () => {
    const read = route(own("readThings", "Things", []), { get: "/", cost: "shared", 200: answer });
    expect(read).toHaveProperty("x-cost", "heavy");
    expect(read).toHaveProperty("x-shared-answer", true);
    expect(route(own("getThing", "Thing", []), { get: "/", cost: "light", 200: answer })).toHaveProperty("x-cost", "light");
    expect(() => declareRoute(own("bare", "Bare", []), { method: "get", path: "/", responses: { 200: answer } })).toThrow(
      "bare: say its cost",
    );
  });

  it("refuses an endpoint with no method or with two", () => {
    expect(() => route(own("none", "None", []), { cost: "light", 200: answer })).toThrow("none: one method and its path, not none");
    expect(() => route(own("two", "Two", []), { get: "/", put: "/", cost: "light", 200: answer })).toThrow(
      "two: one method and its path, not get, put",
    );
  });
});

describe("storedObject", () => {
  const thing = storedObject(own, { path: "/{id}", params }, schema, "The thing");

  it("reads the object as the route written out with 404 and its name as the answer", () => {
    expect(thing.get("getThing", "One thing")).toEqual(
      route(own("getThing", "One thing", [404]), { get: "/{id}", cost: "light", params, 200: json(schema, "The thing") }),
    );
  });

  it("changes it as a versioned PATCH: 400, 404, 409 and its own errors, the object answered version + 1", () => {
    const patch = thing.patch("patchThing", "Edit a thing", body, { errors: [429], description: "Why", jsonCap: 1000 });
    expect(patch).toEqual(
      route(own("patchThing", "Edit a thing", [400, 404, 409, 429], "Why"), {
        patch: "/{id}",
        cost: "light",
        params,
        body,
        jsonCap: 1000,
        200: json(schema, "The thing, version + 1"),
      }),
    );
    expect(thing.patch("patchThing", "Edit a thing", body)).not.toHaveProperty("x-json-cap");
  });
});
