// The local engine (packages/dynalite, the project's fork of dynalite 4.0.0) as the fork's changes
// make it: its expression parsers generated with PEG.js's cache (`pegjs --cache`, from upstream's own
// grammars) answer what upstream's unmemoised ones answer: the same trees, the same errors, the same
// names and values left unused, through dynalite's own validation of a request's expressions. And an
// item's write takes its index entries with it in one batch (one transaction of the store).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import dynalite from "dynalite";
import { createEngine } from "./dynalite-engine";
import { DATA_FILE, SqliteLevel } from "dynalite/db/sqlite-level.mts";

const require = createRequire(import.meta.url);
type Validations = { validateExpressions(data: Record<string, unknown>): string | undefined };
/** The fork's validation of a request's expressions, as its index exports it. */
const validations: Validations = dynalite;
const FORK = fileURLToPath(new URL("../../../packages/dynalite/", import.meta.url));
const PARSERS = ["conditionParser", "updateParser", "projectionParser"];
const pegjs = require("pegjs") as {
  generate(grammar: string, options: { output: "source"; format: "commonjs"; cache?: boolean }): string;
};
const grammar = (name: string) => readFileSync(join(FORK, "db", `${name}.pegjs`), "utf8");

/** Upstream's validation with upstream's parsers (PEG.js 0.10.0 without its cache, as dynalite's
 *  npm package ships them): a copy of the fork under node_modules/.cache (so that it resolves the
 *  same packages), its parsers generated from the same grammars without cache, read through its index. */
function upstreamValidations(): Validations {
  const dir = join(FORK, "../../node_modules/.cache/dynalite-unmemoised", String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const part of ["index.js", "validations", "db", "actions"]) cpSync(join(FORK, part), join(dir, part), { recursive: true });
  // The copy's store is the fork's own: Node strips no types under node_modules.
  const db = join(dir, "db", "index.js");
  writeFileSync(
    db,
    readFileSync(db, "utf8").replace("require('./sqlite-level.mts')", `require(${JSON.stringify(join(FORK, "db", "sqlite-level.mts"))})`),
  );
  for (const name of PARSERS) {
    writeFileSync(join(dir, "db", `${name}.js`), pegjs.generate(grammar(name), { output: "source", format: "commonjs" }));
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return require(join(dir, "index.js")) as Validations;
}

const S = (s: string) => ({ S: s });
const N = (n: number) => ({ N: String(n) });
const frozen = { ":frozen0": S("submitted"), ":frozen1": S("approved") };
const pending = (n: number) => ({
  ConditionExpression: Array.from({ length: n }, (_, j) => `(attribute_not_exists(#p${j}) OR #p${j} < :s${j})`).join(" AND "),
  UpdateExpression: `ADD #rev :one, #a1 :a1 SET updated_at = :at, ${Array.from({ length: n }, (_, j) => `#p${j} = :s${j}`).join(", ")}`,
  ExpressionAttributeNames: {
    "#rev": "rev",
    "#a1": "calc:underground",
    ...Object.fromEntries(Array.from({ length: n }, (_, j) => [`#p${j}`, `pending:CALC#${j}`])),
  },
  ExpressionAttributeValues: {
    ":one": N(n),
    ":a1": N(1),
    ":at": S("2026-11-25T10:00:00.000Z"),
    ...Object.fromEntries(Array.from({ length: n }, (_, j) => [`:s${j}`, S(String(j).padStart(40, "0"))])),
  },
});

/** Requests' expressions as the repositories send them, and ones dynalite refuses. */
const CASES: Record<string, unknown>[] = [
  {
    // The freeze guard (adapters/dynamodb/inventory-review-repository.ts).
    UpdateExpression:
      "SET company = if_not_exists(company, :c), #y = if_not_exists(#y, :y), #s = if_not_exists(#s, :draft), " +
      "history = if_not_exists(history, :none), comments = if_not_exists(comments, :none), " +
      "updated_at = if_not_exists(updated_at, :now), version = if_not_exists(version, :zero), last_changed_by = :e, " +
      "last_begun_at = :now ADD changed_by :set, writes_begun :one",
    ConditionExpression:
      "(attribute_not_exists(#s) OR NOT (#s IN (:frozen0, :frozen1))) AND (attribute_not_exists(held_at) OR held_at < :stale)",
    ExpressionAttributeNames: { "#y": "year", "#s": "status" },
    ExpressionAttributeValues: {
      ...frozen,
      ":c": S("c"),
      ":y": N(2024),
      ":draft": S("draft"),
      ":none": { L: [] },
      ":now": S("2026"),
      ":zero": N(0),
      ":one": N(1),
      ":e": S("a@b"),
      ":set": { SS: ["a@b"] },
      ":stale": S("2025"),
    },
  },
  pending(1),
  pending(25),
  { ConditionExpression: "attribute_not_exists(PK)" },
  {
    ConditionExpression: "attribute_not_exists(#s) OR #s < :seq",
    ExpressionAttributeNames: { "#s": "sequence" },
    ExpressionAttributeValues: { ":seq": S("1") },
  },
  { KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)", ExpressionAttributeValues: { ":pk": S("A"), ":sk": S("B#") } },
  {
    KeyConditionExpression: "GSI1PK = :pk AND GSI1SK BETWEEN :a AND :b",
    ExpressionAttributeValues: { ":pk": S("A"), ":a": S("1"), ":b": S("2") },
  },
  {
    FilterExpression: "is_deleted = :no AND (size(#l) > :n OR contains(#l, :x))",
    ExpressionAttributeNames: { "#l": "list" },
    ExpressionAttributeValues: { ":no": { BOOL: false }, ":n": N(2), ":x": S("x") },
  },
  {
    FilterExpression: "attribute_type(#a, :t) AND NOT (#b <> :v)",
    ExpressionAttributeNames: { "#a": "a", "#b": "b" },
    ExpressionAttributeValues: { ":t": S("S"), ":v": N(1) },
  },
  {
    UpdateExpression: "SET #l = list_append(if_not_exists(#l, :e), :x), n = n + :one REMOVE held_at, #m.a[2] DELETE s :set",
    ExpressionAttributeNames: { "#l": "list", "#m": "map" },
    ExpressionAttributeValues: { ":e": { L: [] }, ":x": { L: [S("x")] }, ":one": N(1), ":set": { SS: ["a"] } },
  },
  {
    ProjectionExpression: "#file.#key, #results.#data, #coefficients, a[1].b",
    ExpressionAttributeNames: { "#file": "file", "#key": "key", "#results": "results", "#data": "data", "#coefficients": "c" },
  },
  // Refused: syntax, reserved words, undefined and unused names and values, misused functions.
  { ConditionExpression: "(attribute_not_exists(PK)" },
  { ConditionExpression: "((a = :v))", ExpressionAttributeValues: { ":v": N(1) } },
  { ConditionExpression: "status = :v", ExpressionAttributeValues: { ":v": N(1) } },
  { ConditionExpression: "#x = :v", ExpressionAttributeValues: { ":v": N(1) } },
  { ConditionExpression: "a = :v", ExpressionAttributeValues: { ":v": N(1), ":w": N(2) } },
  { ConditionExpression: "a = :v", ExpressionAttributeNames: { "#n": "n" }, ExpressionAttributeValues: { ":v": N(1) } },
  { ConditionExpression: "a BETWEEN :b AND :a", ExpressionAttributeValues: { ":a": N(1), ":b": N(2) } },
  { ConditionExpression: "begins_with(a, :n)", ExpressionAttributeValues: { ":n": N(1) } },
  { ConditionExpression: "attribute_type(a, :t)", ExpressionAttributeValues: { ":t": S("Q") } },
  { ConditionExpression: "unknown_fn(a)" },
  { ConditionExpression: "a = a" },
  { ConditionExpression: "a IN ()" },
  { ConditionExpression: "size(:v) > :n", ExpressionAttributeValues: { ":v": N(1), ":n": N(0) } },
  { ConditionExpression: "attribute_not_exists(PK) AND" },
  { ConditionExpression: "" },
  { UpdateExpression: "SET a = :v SET b = :v", ExpressionAttributeValues: { ":v": N(1) } },
  { UpdateExpression: "ADD a :s", ExpressionAttributeValues: { ":s": S("x") } },
  { UpdateExpression: "SET a = :v, a = :w", ExpressionAttributeValues: { ":v": N(1), ":w": N(2) } },
  { UpdateExpression: "SET a = b + :s", ExpressionAttributeValues: { ":s": S("x") } },
  { UpdateExpression: "REMOVE a, a.b" },
  { UpdateExpression: "SET a = if_not_exists(:v, b)", ExpressionAttributeValues: { ":v": N(1) } },
  { ProjectionExpression: "a, a.b" },
  { ProjectionExpression: "a,, b" },
];

/** What `validation` answers for `data`'s expressions, and what it made of them. A syntax error's
 *  list of what PEG.js expected is left out: with its cache PEG.js lists the alternatives it tried at
 *  that position the first time only (one tried again inside a predicate is answered from the cache),
 *  so the list may be shorter; the position and what was found are compared. DynamoDB's own message
 *  («Syntax error; token: …») lists none, and dynalite's suite checks only «Syntax error; ». */
function validated(data: Record<string, unknown>, validation: Validations): string {
  const copy = structuredClone(data);
  const error = validation.validateExpressions(copy)?.replace(/Syntax error; Expected .* but /, "Syntax error; Expected … but ");
  return JSON.stringify({ error, ...copy });
}

describe("the local engine's memoised expression parsers", () => {
  const upstream = upstreamValidations();

  it.each(PARSERS)("%s is what pegjs --cache makes of upstream's grammar, byte for byte", (name) => {
    // The generated source after Apache-2.0's change notice (db/parser-notice.txt, `npm run build:parsers`).
    expect(readFileSync(join(FORK, "db", `${name}.js`), "utf8")).toBe(
      readFileSync(join(FORK, "db", "parser-notice.txt"), "utf8") +
        pegjs.generate(grammar(name), { output: "source", format: "commonjs", cache: true }),
    );
  });

  it.each(CASES.map((data, i) => [i, data] as const))("case %i answers as upstream's own", (_, data) => {
    expect(validated(data, validations)).toBe(validated(data, upstream));
  });

  it("the refused cases are refused", () => {
    const refused = CASES.slice(CASES.findIndex((data) => data.ConditionExpression === "(attribute_not_exists(PK)"));
    for (const data of refused) expect(JSON.parse(validated(data, validations)).error, JSON.stringify(data)).toMatch(/./);
  });
});

interface LevelWrite {
  type: "put" | "del";
  key: string;
}
interface EngineStore {
  db: Record<"put" | "del" | "batch", (...args: unknown[]) => unknown>;
  tableDb: { put(key: string, value: unknown, cb: (error?: Error) => void): void };
}

describe("the local engine's item writes", () => {
  // A table as ensureTable makes it: its items keyed by PK and SK, listed by the index GSI1.
  const table = {
    TableName: "items",
    TableStatus: "ACTIVE",
    AttributeDefinitions: ["PK", "SK", "GSI1PK", "GSI1SK"].map((name) => ({ AttributeName: name, AttributeType: "S" })),
    KeySchema: [
      { AttributeName: "PK", KeyType: "HASH" },
      { AttributeName: "SK", KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: "GSI1",
        IndexStatus: "ACTIVE",
        KeySchema: [
          { AttributeName: "GSI1PK", KeyType: "HASH" },
          { AttributeName: "GSI1SK", KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      },
    ],
  };
  const engine = require("dynalite/db/index.js") as { create(options: Record<string, unknown>): EngineStore };
  /** The fork's answer to an operation (its HTTP handler's steps once a body is read). */
  const act = (operation: string, store: EngineStore, data: Record<string, unknown>) =>
    new Promise<void>((done, fail) =>
      dynalite.answer(
        store as unknown as dynalite.Store,
        `DynamoDB_20120810.${operation}`,
        { TableName: "items", ...data },
        (status, body) => (status === 200 ? done() : fail(new Error(JSON.stringify(body)))),
      ),
    );

  it("writes an item and its index entries in one batch, so a crash leaves both or neither", async () => {
    const store = engine.create({});
    await new Promise<void>((done, fail) => store.tableDb.put("items", table, (error) => (error ? fail(error) : done())));
    // Every write to the store the item calls make, as the batches they go in.
    const spies = (["put", "del", "batch"] as const).map((method) => vi.spyOn(store.db, method));
    const item = { PK: S("COMPANY#1"), SK: S("CALC#1"), GSI1PK: S("LIST#1"), GSI1SK: S("2026"), results: S("{}") };
    await act("PutItem", store, { Item: item });
    await act("DeleteItem", store, { Key: { PK: item.PK, SK: item.SK } });
    const [puts, dels, batches] = spies.map((spy) => spy.mock.calls.length);
    expect({ puts, dels, batches }).toEqual({ puts: 0, dels: 0, batches: 2 });
    const writes = spies[2]!.mock.calls.map(([operations]) =>
      (operations as unknown as LevelWrite[]).map(({ type, key }) => ({ type, key })),
    );
    expect(writes).toEqual([
      [
        { type: "put", key: expect.stringMatching(/^index-global~items~GSI1~/) },
        { type: "put", key: expect.stringMatching(/^item-items~/) },
      ],
      [
        { type: "del", key: expect.stringMatching(/^index-global~items~GSI1~/) },
        { type: "del", key: expect.stringMatching(/^item-items~/) },
      ],
    ]);
  });
});

describe("a data folder's store", () => {
  it("is the SQLite store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engine-store-"));
    const { server, store, opened } = createEngine({ path: dir });
    try {
      await opened;
      // (Its class as dynalite requires it, not as this test's loader imports it: one module, two loaders.)
      expect((store as { db: object }).db.constructor.name).toBe(SqliteLevel.name);
      expect(existsSync(join(dir, DATA_FILE))).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
