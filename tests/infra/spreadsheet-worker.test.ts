// The spreadsheet worker in AWS (exports and xlsx templates out of the API's bundle): the API's
// invoking adapter against a mocked Lambda client; the worker function on an in-memory dynalite
// with S3 mocked (what only AWS has); and both together, an API Gateway event through the API,
// the invoke's JSON both ways, into the worker and back.
import { localRuntime } from "@server/local/subscribers";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { InvokeCommand, LambdaClient, type InvokeCommandInput } from "@aws-sdk/client-lambda";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { s3BlobStore } from "@server/adapters/blob/s3-blob-store";
import { lambdaSpreadsheets, SpreadsheetWorkerFailed } from "@server/adapters/spreadsheets/lambda-worker";
import type { WorkerAnswer } from "@server/adapters/spreadsheets/protocol";
import { configFromEnv } from "@server/config";
import { createCalculation } from "@server/domain/calculations/calculations";
import { systemClock, type Actor, type Deps } from "@server/domain/context";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { DomainError } from "@server/domain/errors";
import { createProject } from "@server/domain/calculations/projects";
import { createCompany, createUser } from "@server/domain/company/users";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { ExportDeps } from "@server/export/project-export";
import { apiHandler } from "@server/lambda/api";
import { answer } from "@server/lambda/spreadsheets";
import { LOCAL_TABLE, openMemoryStorage, type OpenStorage } from "@server/local/storage";
import type { Project } from "@server/contract/schemas/project";
import { apiGatewayEvent } from "./api-gateway-event";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const lambda = mockClient(LambdaClient);
const s3 = mockClient(S3Client);
afterEach(() => {
  lambda.reset();
  s3.reset();
  // A spy on the console or stdout is gone after its test, even one that failed.
  vi.restoreAllMocks();
});
// The infra files share their worker's modules: the next file gets the SDK's send() back.
afterAll(() => {
  lambda.restore();
  s3.restore();
});

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const REGION = "eu-central-1";
const EXPORTS_BUCKET = "exports-bucket";
const quiet = { info: () => {} };
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const decode = (payload: InvokeCommandInput["Payload"]) => JSON.parse(new TextDecoder().decode(payload as Uint8Array)) as unknown;
/** An invoke's output as Lambda answers it (the SDK's blob adapter is a Uint8Array). */
const invoked = (value: unknown, functionError?: string) => ({
  StatusCode: 200,
  FunctionError: functionError,
  Payload: encode(value) as never,
});

async function workbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

describe("the API's invoke of the worker", () => {
  const worker = lambdaSpreadsheets(new LambdaClient({ region: REGION }), "spreadsheet-fn", "export-job-fn");
  const actor = { id: "u1", company: "c1", email: "anna@example.com", role: "staff" } as const;

  it("sends the actor's four fields and the export's parameters, and returns an inline file as bytes", async () => {
    lambda
      .on(InvokeCommand)
      .resolves(invoked({ kind: "body", fileName: "Шахта.xlsx", contentType: XLSX, base64: Buffer.from([1, 2, 3]).toString("base64") }));
    const result = await worker.exportProject({ ...actor, first_name: "Анна" } as Actor, "p1", "xlsx", { detail: true, decimals: 3 });
    expect(result).toEqual({ kind: "body", fileName: "Шахта.xlsx", contentType: XLSX, body: new Uint8Array([1, 2, 3]) });
    const [call] = lambda.commandCalls(InvokeCommand);
    expect(call.args[0].input).toMatchObject({ FunctionName: "spreadsheet-fn", InvocationType: "RequestResponse" });
    expect(decode(call.args[0].input.Payload)).toEqual({ op: "export", actor, projectId: "p1", format: "xlsx", detail: true, decimals: 3 });
  });

  it("returns a large file as the presigned address the worker stored it under", async () => {
    lambda
      .on(InvokeCommand)
      .resolves(invoked({ kind: "redirect", url: "https://exports.example/exports/c1/p1/x.xls", fileName: "Шахта.xls" }));
    expect(await worker.exportProject(actor, "p1", "xls", {})).toEqual({
      kind: "redirect",
      url: "https://exports.example/exports/c1/p1/x.xls",
      fileName: "Шахта.xls",
    });
  });

  it("turns the worker's domain refusals into the same DomainError (not found, invalid at a field)", async () => {
    const problems = [{ field: "format", code: "invalid", message: "ожидается xlsx или pdf", params: {} }];
    lambda
      .on(InvokeCommand)
      .resolvesOnce(invoked({ kind: "error", error: { kind: "not_found", detail: "Проект не найден" } }))
      .resolvesOnce(invoked({ kind: "error", error: { kind: "invalid", detail: "Формат: ожидается xlsx или pdf", problems } }));
    const notFound = await worker.exportProject(actor, "p2", "txt", {}).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(DomainError);
    expect(notFound).toMatchObject({ kind: "not_found", detail: "Проект не найден" });
    await expect(worker.exportProject(actor, "p2", "txt", {})).rejects.toMatchObject({
      kind: "invalid",
      detail: "Формат: ожидается xlsx или pdf",
      problems,
    });
  });

  it("does not believe an error kind no DomainError carries, nor an unreadable answer", async () => {
    lambda
      .on(InvokeCommand)
      .resolvesOnce(invoked({ kind: "error", error: { kind: "server_error", detail: "x" } }))
      .resolvesOnce({ StatusCode: 200, Payload: new TextEncoder().encode("not json") as never });
    await expect(worker.exportProject(actor, "p1", "txt", {})).rejects.toBeInstanceOf(SpreadsheetWorkerFailed);
    await expect(worker.template("sensitivity")).rejects.toBeInstanceOf(SpreadsheetWorkerFailed);
  });

  it("reports an unhandled worker failure with its type and message, never its stack", async () => {
    lambda
      .on(InvokeCommand)
      .resolves(
        invoked({ errorType: "RangeError", errorMessage: "Invalid array length", trace: ["RangeError: at secret/path.js:1"] }, "Unhandled"),
      );
    const failure = (await worker.exportProject(actor, "p1", "xlsx", {}).catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(SpreadsheetWorkerFailed);
    expect(failure.message).toMatch(/Unhandled.*RangeError: Invalid array length/);
    expect(failure.message).not.toContain("secret/path");
  });

  it("asks for a report passport with the actor's four fields, the year, the facility and the format", async () => {
    lambda.on(InvokeCommand).resolves(
      invoked({
        kind: "body",
        fileName: "Паспорт отчета 2025.pdf",
        contentType: "application/pdf",
        base64: Buffer.from([37]).toString("base64"),
      }),
    );
    const result = await worker.inventoryReport({ ...actor, first_name: "Анна" } as Actor, { year: 2025, facility: "f1", format: "pdf" });
    expect(result).toEqual({
      kind: "body",
      fileName: "Паспорт отчета 2025.pdf",
      contentType: "application/pdf",
      body: new Uint8Array([37]),
    });
    const [call] = lambda.commandCalls(InvokeCommand);
    expect(decode(call.args[0].input.Payload)).toEqual({ op: "inventory_report", actor, year: 2025, facility: "f1", format: "pdf" });
  });

  it("asks for a template by type and returns its bytes", async () => {
    lambda
      .on(InvokeCommand)
      .resolves(invoked({ kind: "body", fileName: "sensitivity.xlsx", contentType: XLSX, base64: Buffer.from("PK").toString("base64") }));
    expect(new TextDecoder().decode(await worker.template("sensitivity"))).toBe("PK");
    expect(decode(lambda.commandCalls(InvokeCommand)[0].args[0].input.Payload)).toEqual({ op: "template", type: "sensitivity" });
  });
});

describe("the worker function", () => {
  let storage: OpenStorage;
  let deps: Deps;
  /** What the worker has: the table and the exports area, no config, no secret. */
  let workerDeps: ExportDeps;
  let actor: Actor;
  let stranger: Actor;
  let project: Project;

  beforeAll(async () => {
    storage = await openMemoryStorage();
    const client = new S3Client({ region: REGION, credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" } });
    workerDeps = { repos: storage.repos, blobs: s3BlobStore(client, { exports: EXPORTS_BUCKET }), clock: systemClock };
    deps = {
      ...workerDeps,
      config: configFromEnv(randomBytes(32)),
      spreadsheets: inProcessSpreadsheets(() => deps),
      signer: ephemeralSigner(),
      runtime: localRuntime(() => deps),
    };
    await seedDictionaries(deps);
    const actorOf = async (name: string): Promise<Actor> => {
      const company = await createCompany(deps, { name });
      const user = await createUser(deps, {
        companyId: company.id,
        email: `${randomBytes(4).toString("hex")}@example.com`,
        password: "correct-horse",
      });
      return { id: user.id, company: company.id, email: user.email, role: user.role };
    };
    actor = await actorOf("ООО Шахта");
    stranger = await actorOf("ООО Соседи");
    project = await createProject(deps, actor, { name: "Шахта Северная", start_date: "2024-01-01", end_date: "2024-12-31" });
    await createCalculation(deps, actor, "underground", {
      name: "Вентиляция",
      project: project.id,
      values: { volume: 1000, p_co2: 1.8393, p_ch4: 0.668, ef_co2: 10.6, ef_ch4: 76 },
    });
  });
  afterAll(() => storage?.close());

  const worker = (inlineLimitBytes?: number) => inProcessSpreadsheets(() => workerDeps, { inlineLimitBytes });

  it("exports a project as a real xlsx, inline and base64, that exceljs reads back", async () => {
    const result = await answer(worker(), { op: "export", actor, projectId: project.id, format: "xlsx", detail: true, decimals: 3 }, quiet);
    // The detailed export saves as «… (подробный)», apart from the plain export (docs/api.md).
    expect(result).toMatchObject({ kind: "body", fileName: "Шахта Северная (подробный).xlsx", contentType: XLSX });
    const wb = await workbook(Buffer.from((result as Extract<WorkerAnswer, { kind: "body" }>).base64, "base64"));
    expect(wb.worksheets[0].name).toBe("Проект");
    const rows = wb.worksheets.flatMap((ws) => ws.getSheetValues().flat().map(String));
    expect(rows).toContain("Вентиляция");
    expect(rows).toContain("Шахта Северная");
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it("answers another company's project as a 404 refusal, not a failure", async () => {
    expect(await answer(worker(), { op: "export", actor: stranger, projectId: project.id, format: "txt" }, quiet)).toEqual({
      kind: "error",
      error: { kind: "not_found", detail: "Проект не найден" },
    });
  });

  it("answers an unsupported format 400 and a type without a template 404", async () => {
    expect(await answer(worker(), { op: "export", actor, projectId: project.id, format: "pdf" }, quiet)).toEqual({
      kind: "error",
      error: { kind: "invalid", detail: "Unsupported file type" },
    });
    expect(await answer(worker(), { op: "template", type: "torch_ch4" }, quiet)).toMatchObject({
      kind: "error",
      error: { kind: "not_found" },
    });
  });

  it("renders an xlsx template", async () => {
    const result = (await answer(worker(), { op: "template", type: "regres_methane" }, quiet)) as Extract<WorkerAnswer, { kind: "body" }>;
    const wb = await workbook(Buffer.from(result.base64, "base64"));
    expect(wb.worksheets.map((ws) => ws.name)).toEqual(["Данные", "Пояснения"]);
    expect(wb.getWorksheet("Данные")!.getRow(1).getCell(2).value).toBe("Расход воздуха в исходящей струе лавы (телеметрия), м³/мин");
  });

  it("stores a large export under exports/{company}/ and answers a presigned download address", async () => {
    const result = await answer(worker(1000), { op: "export", actor, projectId: project.id, format: "xls", detail: true }, quiet);
    expect(result).toMatchObject({ kind: "redirect", fileName: "Шахта Северная (подробный).xls" });
    const [put] = s3.commandCalls(PutObjectCommand);
    expect(put.args[0].input).toMatchObject({ Bucket: EXPORTS_BUCKET, ContentType: "application/vnd.ms-excel" });
    expect(put.args[0].input.Key).toMatch(new RegExp(`^exports/${actor.company}/${project.id}/[\\w-]+\\.xls$`));
    const url = new URL((result as Extract<WorkerAnswer, { kind: "redirect" }>).url);
    expect(url.hostname).toBe(`${EXPORTS_BUCKET}.s3.${REGION}.amazonaws.com`);
    expect(url.pathname).toBe(`/${put.args[0].input.Key}`);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
  });

  it("renders the year's report passport from the table, and answers another company's facility 404", async () => {
    const result = await answer(worker(), { op: "inventory_report", actor, year: 2024, format: "pdf" }, quiet);
    expect(result).toMatchObject({ kind: "body", fileName: "Паспорт отчета 2024.pdf", contentType: "application/pdf" });
    expect(
      Buffer.from((result as Extract<WorkerAnswer, { kind: "body" }>).base64, "base64")
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    const wb = await workbook(
      Buffer.from(
        (
          (await answer(worker(), { op: "inventory_report", actor, year: 2024, format: "xlsx" }, quiet)) as Extract<
            WorkerAnswer,
            { kind: "body" }
          >
        ).base64,
        "base64",
      ),
    );
    expect(wb.worksheets.map((ws) => ws.name)).toEqual([
      "Паспорт",
      "Выбросы",
      "Данные о деятельности",
      "Источники",
      "Измерения",
      // The gas burnt by flares, boilers and engines is a section of the passport of its own.
      "Сжигание газа",
      "Баланс метана",
      "Проверки",
    ]);
    expect(
      await answer(worker(), { op: "inventory_report", actor, year: 2024, facility: "no-such-facility", format: "xlsx" }, quiet),
    ).toMatchObject({
      kind: "error",
      error: { kind: "not_found" },
    });
  });

  it("fails the invoke on a request it cannot read (a fault between the functions, never a user's)", async () => {
    await expect(answer(worker(), { op: "export", actor: { id: "u" }, projectId: project.id, format: "xlsx" }, quiet)).rejects.toThrow(
      /malformed/,
    );
    await expect(answer(worker(), { op: "delete" }, quiet)).rejects.toThrow(/malformed/);
  });

  describe("handler", () => {
    beforeAll(() => {
      const env = {
        TABLE_NAME: LOCAL_TABLE,
        EXPORTS_BUCKET,
        UPLOADS_BUCKET: "uploads-bucket",
        DOCUMENTS_BUCKET: "documents-bucket",
        AWS_REGION: REGION,
        AWS_ACCESS_KEY_ID: "test",
        AWS_SECRET_ACCESS_KEY: "test",
        // The SDK's per-service endpoint override points the real client code at dynalite.
        AWS_ENDPOINT_URL_DYNAMODB: storage.endpoint!,
      };
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    });
    afterAll(() => vi.unstubAllEnvs());

    it("builds its ports from TABLE_NAME, EXPORTS_BUCKET, UPLOADS_BUCKET and DOCUMENTS_BUCKET alone (no secret) and answers", async () => {
      vi.resetModules();
      const { handler } = await import("@server/lambda/spreadsheets");
      vi.spyOn(console, "info").mockImplementation(() => {});
      const result = await handler({ op: "export", actor, projectId: project.id, format: "txt" });
      expect(result).toMatchObject({ kind: "body", fileName: "Шахта Северная.txt" });
      expect(Buffer.from((result as Extract<WorkerAnswer, { kind: "body" }>).base64, "base64").toString("utf8")).toContain("Вентиляция");
      expect(await handler({ op: "export", actor: stranger, projectId: project.id, format: "txt" })).toMatchObject({
        kind: "error",
        error: { kind: "not_found" },
      });
      vi.restoreAllMocks();
    });

    it("reads a forecast's rows from forecasts/ in the uploads bucket for the detailed export", async () => {
      const lava = await createProject(deps, actor, { name: "Лава", start_date: "2024-01-01", end_date: "2024-12-31" });
      const key = `forecasts/${actor.company}/f1/rows.json`;
      const now = new Date().toISOString();
      await deps.repos.calculations.create({
        id: "f1",
        type: "regres_methane",
        project: lava.id,
        company: actor.company,
        name: "Прогноз лавы",
        is_active: true,
        is_deleted: false,
        version: 1,
        inputs: { method: "xgboost" },
        results: { rows: 2, max_result: 1.25, data_key: key },
        coefficients: {},
        methodology_version: "2026.1",
        created_at: now,
        created_by: actor.email,
        updated_at: now,
        updated_by: actor.email,
      });
      const rows = [0.75, 1.25].map((result, i) => ({
        id: i + 1,
        x1: 1000,
        x2: 1010,
        x7: 30,
        x8: 50,
        x12: 0.5,
        x13: 9000,
        x15: 15,
        result,
      }));
      s3.on(GetObjectCommand, { Bucket: "uploads-bucket", Key: key }).resolves({
        Body: { transformToByteArray: async () => encode(rows) } as never,
        ContentType: "application/json",
      });
      vi.resetModules();
      const { handler } = await import("@server/lambda/spreadsheets");
      vi.spyOn(console, "info").mockImplementation(() => {});
      const result = (await handler({ op: "export", actor, projectId: lava.id, format: "xlsx", detail: true })) as Extract<
        WorkerAnswer,
        { kind: "body" }
      >;
      vi.restoreAllMocks();
      const wb = await workbook(Buffer.from(result.base64, "base64"));
      const sheet = wb.worksheets.find((ws) => ws.name.startsWith("Строки. Прогноз"))!;
      expect([3, 4].map((r) => (sheet.getRow(r).values as unknown[]).at(-1))).toEqual([0.75, 1.25]);
    });
  });

  describe("behind the API (API Gateway event → API → invoke → worker → API)", () => {
    let handler: ReturnType<typeof apiHandler>;
    let token: string;
    let strangerToken: string;
    let inlineLimitBytes: number | undefined;

    beforeAll(async () => {
      const apiDeps: Deps = {
        ...deps,
        spreadsheets: lambdaSpreadsheets(new LambdaClient({ region: REGION }), "spreadsheet-fn", "export-job-fn"),
      };
      handler = apiHandler(apiDeps);
      const signIn = async (email: string) => {
        const res = await handler(apiGatewayEvent({ path: "/api/token/", json: { email, password: "correct-horse", guardant_code: "" } }));
        expect(res.statusCode).toBe(200);
        return (JSON.parse(res.body) as { access: string }).access;
      };
      token = await signIn(actor.email);
      strangerToken = await signIn(stranger.email);
    });

    /** The Lambda service: the payload's JSON to the worker handler and its answer back. */
    function workerBehindLambda() {
      lambda
        .on(InvokeCommand)
        .callsFake(async (input: InvokeCommandInput) => invoked(await answer(worker(inlineLimitBytes), decode(input.Payload), quiet)));
    }
    const get = (path: string, bearer = token) => handler(apiGatewayEvent({ path, headers: { authorization: `Bearer ${bearer}` } }));

    it("answers an export with the worker's file", async () => {
      workerBehindLambda();
      const res = await get(`/api/v1/projects/${project.id}/export_to_xlsx/`);
      expect(res.statusCode).toBe(200);
      expect(res.headers?.["content-type"]).toBe(XLSX);
      expect(res.headers?.["content-disposition"]).toContain(encodeURIComponent("Шахта Северная.xlsx"));
      expect(res.isBase64Encoded).toBe(true);
      const wb = await workbook(Buffer.from(res.body, "base64"));
      expect(wb.worksheets.length).toBeGreaterThan(1);
    });

    it("answers another company's project 404 {detail} like the local host, not 500", async () => {
      workerBehindLambda();
      const res = await get(`/api/v1/projects/${project.id}/export_to_xls/`, strangerToken);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ detail: "Проект не найден" });
    });

    it("refuses an unsupported format and a type without a template without invoking the worker", async () => {
      workerBehindLambda();
      expect((await get(`/api/v1/projects/${project.id}/export_to_pdf/`)).statusCode).toBe(400);
      expect((await get(`/api/v1/torch_ch4/template/`)).statusCode).toBe(404);
      expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    });

    it("answers a template with the worker's xlsx, and the csv form by itself", async () => {
      workerBehindLambda();
      const xlsx = await get(`/api/v1/sensitivity/template/`);
      expect(xlsx.statusCode).toBe(200);
      expect((await workbook(Buffer.from(xlsx.body, "base64"))).worksheets.map((ws) => ws.name)).toEqual(["Данные", "Пояснения"]);
      const csv = await get(`/api/v1/sensitivity/template/?format=csv`);
      expect(csv.statusCode).toBe(200);
      expect(lambda.commandCalls(InvokeCommand)).toHaveLength(1);
    });

    it("hands a large export out as {download_url, file_name}", async () => {
      inlineLimitBytes = 1000;
      workerBehindLambda();
      const res = await get(`/api/v1/projects/${project.id}/export_to_xlsx/?detail=true`);
      inlineLimitBytes = undefined;
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual({
        download_url: expect.stringMatching(new RegExp(`^https://${EXPORTS_BUCKET}\\.s3\\.${REGION}\\.amazonaws\\.com/exports/`)),
        // The detailed export's name (docs/api.md).
        file_name: "Шахта Северная (подробный).xlsx",
      });
    });

    it("answers a failed worker with a logged 500 and a Russian detail, no internals", async () => {
      lambda.on(InvokeCommand).resolves(invoked({ errorType: "Error", errorMessage: "out of memory" }, "Unhandled"));
      const logged = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
      const res = await get(`/api/v1/projects/${project.id}/export_to_xlsx/`);
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(res.body)).toEqual({ detail: "Внутренняя ошибка сервера" });
      expect(String(logged.mock.calls.flat().join(" "))).toMatch(/spreadsheet worker failed.*out of memory/);
      logged.mockRestore();
    });
  });
});
