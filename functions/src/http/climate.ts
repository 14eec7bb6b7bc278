// v1/climate-projects/: the stateless evaluation of a monitoring period (domain/climate/evaluate.ts)
// and the stored projects (domain/climate/projects.ts). Declared in contract/routes/climate.ts.
import { wholeList } from "../contract/routes/declare";
import type { ClimateInputs } from "@core/climate-project";
import {
  climateDayMinutesRoute,
  climateEvaluateRoute,
  climatePeriodPackRoute,
  createClimatePeriodRoute,
  createClimateProjectRoute,
  getClimatePeriodRoute,
  getClimateReportRoute,
  listClimatePeriodsRoute,
  patchClimateReportRoute,
  getClimateProjectRoute,
  listClimateProjectsRoute,
  patchClimateProjectRoute,
  recomputeClimatePeriodRoute,
  reviewClimatePeriodRoute,
} from "../contract/routes/climate";
import {
  climateSignaturePayloadRoute,
  createClimateSignatureRoute,
  listClimateSignaturesRoute,
} from "../contract/routes/climate-signatures";
import { addClimateSignature, listClimateSignatures, type Payload, periodOf, signatureRoom } from "../domain/climate/signatures";
import { heavyFile, heavyWork } from "../domain/heavy-work";
import type { Actor, Deps } from "../domain/context";
import { attachmentDisposition } from "../files/file-names";
import { readUploadForm } from "./multipart";
import { reviewClimatePeriod } from "../domain/climate/approvals";
import { evaluateClimateRequest } from "../domain/climate/evaluate";
import { climateDayMinutesText } from "../domain/climate/day-minutes";
import { createClimatePeriod, getClimatePeriod, listClimatePeriods, recomputeClimatePeriod } from "../domain/climate/periods";
import { createClimateProject, getClimateProject, listClimateProjects, patchClimateProject } from "../domain/climate/projects";
import { LIMITS } from "../contract/schemas/limits";
import { heavyFileAnswer, jobAnswer } from "./heavy-file";
import { getClimateReport, patchClimateReport } from "../domain/climate/report";
import { exportJob } from "../domain/export-jobs";
import { climatePackNeedsJob } from "../domain/climate/pack-size";
import { routeApp } from "./openapi-routes";

const REPORT_TYPES = { xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", pdf: "application/pdf" } as const;

export const climateRoutes = routeApp()
  .openapi(climateEvaluateRoute, async (c) =>
    c.json(await evaluateClimateRequest(c.get("deps"), c.get("actor"), c.req.valid("json") as ClimateInputs), 200),
  )
  .openapi(listClimateProjectsRoute, async (c) => c.json(wholeList(await listClimateProjects(c.get("deps"), c.get("actor"))), 200))
  .openapi(createClimateProjectRoute, async (c) =>
    c.json(await createClimateProject(c.get("deps"), c.get("actor"), c.req.valid("json")), 201),
  )
  .openapi(getClimateProjectRoute, async (c) =>
    c.json(await getClimateProject(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
  )
  .openapi(patchClimateProjectRoute, async (c) =>
    c.json(await patchClimateProject(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  // Its minutes read and laid out off the request thread, as a facility's minute reads.
  .openapi(climateDayMinutesRoute, async (c) => {
    const text = await climateDayMinutesText(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("query").date);
    return c.body(text, 200, { "Content-Type": "application/json" }) as never;
  })
  // A long period is computed as a job where the host runs jobs (202 and its state), else here (201).
  .openapi(createClimatePeriodRoute, async (c) => {
    const started = await createClimatePeriod(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json"));
    if (started.job) return jobAnswer(c, started.job) as never;
    // Computed in the host's threads: their answer's text as it is.
    if (started.text !== undefined) return c.body(started.text, 201, { "Content-Type": "application/json" }) as never;
    return c.json(started.period, 201);
  })
  .openapi(listClimatePeriodsRoute, async (c) =>
    c.json(wholeList(await listClimatePeriods(c.get("deps"), c.get("actor"), c.req.valid("param").id)), 200),
  )
  .openapi(getClimatePeriodRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    return c.json(await getClimatePeriod(c.get("deps"), c.get("actor"), id, period), 200);
  })
  // the verifier's pack, made by the spreadsheet worker as the inventory's pack is
  // (export/climate-pack.ts), in a heavy-work slot; each part within the registry's attachment limit.
  .openapi(climatePeriodPackRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    const deps = c.get("deps");
    const actor = c.get("actor");
    const partBytes = deps.config.climatePackPartBytes ?? LIMITS.climate.packPartBytes;
    const request = { project: id, period, partBytes };
    // A long period's pack is a job where the host runs jobs (the answer 202 and its state); a
    // period of another company, or none, is 404 before any job is queued.
    if (deps.spreadsheets.jobsOf?.includes("climate_pack") === true && (await climatePackNeedsJob(deps, actor, id, period))) {
      return jobAnswer(
        c,
        await exportJob(deps, actor, { op: "climate_pack", ...request }, (job) =>
          deps.spreadsheets.climatePack(actor, { ...request, job }),
        ),
      ) as never;
    }
    return heavyFileAnswer(c, () => deps.spreadsheets.climatePack(actor, request)) as never;
  })
  // КЭП (domain/climate/signatures.ts): the file to sign — the pack's manifest.json
  // (export/climate-pack.ts), made from the period's stored readings in a heavy-work slot — and the
  // signature brought back, checked against it.
  .openapi(climateSignaturePayloadRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    const file = await signingPayload(c.get("deps"), c.get("actor"), id, period)();
    // The exact bytes signed, as a file (its JSON is not an API answer).
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/json",
      "Content-Disposition": attachmentDisposition(file.file_name),
    }) as never;
  })
  .openapi(createClimateSignatureRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    // A period of another company (404) or at its cap (400) is refused before the form is read.
    await signatureRoom(c.get("deps"), c.get("actor"), id, period);
    const { file } = await readUploadForm(c, "file_data", "signature.sig");
    const deps = c.get("deps");
    const actor = c.get("actor");
    return c.json(await addClimateSignature(deps, actor, id, period, file, signingPayload(deps, actor, id, period)), 201);
  })
  .openapi(listClimateSignaturesRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    const deps = c.get("deps");
    const actor = c.get("actor");
    const results = await listClimateSignatures(deps, actor, id, period, signingPayload(deps, actor, id, period));
    return c.json(wholeList(results), 200);
  })
  .openapi(getClimateReportRoute, async (c) => {
    const deps = c.get("deps");
    const { id, period } = c.req.valid("param");
    const report = await getClimateReport(deps, c.get("actor"), id, period);
    const format = c.req.valid("query").format;
    if (!format) return c.json(report, 200);
    const bytes = await heavyFile(deps, c.get("actor"), () =>
      deps.spreadsheets.climateReportFile(report, format, deps.clock.now().toISOString()),
    );
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": REPORT_TYPES[format],
      "Content-Disposition": attachmentDisposition(`${report.file_name}.${format}`),
      "Cache-Control": "no-store",
    }) as never;
  })
  .openapi(patchClimateReportRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    return c.json(await patchClimateReport(c.get("deps"), c.get("actor"), id, period, c.req.valid("json")), 200);
  })
  .openapi(reviewClimatePeriodRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    return c.json(await reviewClimatePeriod(c.get("deps"), c.get("actor"), id, period, c.req.valid("json")), 200);
  })
  .openapi(recomputeClimatePeriodRoute, async (c) => {
    const { id, period } = c.req.valid("param");
    const started = await recomputeClimatePeriod(c.get("deps"), c.get("actor"), id, period, c.req.valid("json"));
    if (started.job) return jobAnswer(c, started.job) as never;
    if (started.text !== undefined) return c.body(started.text, 200, { "Content-Type": "application/json" }) as never;
    return c.json(started.period, 200);
  });

/** The file the executor signs: the period's pack's manifest, after the period is found (404 first). */
function signingPayload(deps: Deps, actor: Actor, project: string, period: string): Payload {
  return async () => {
    await periodOf(deps, actor, project, period);
    // Made by the spreadsheet worker, where the pack is made (verify.py and the report are there).
    return heavyWork(deps, actor, async () => {
      const file = await deps.spreadsheets.climatePackManifest(actor, { project, period });
      if (file.kind !== "body") throw new Error(`climate pack manifest: the worker answered ${file.kind}`);
      const { body } = file;
      return {
        file_name: file.fileName,
        bytes: body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer()),
      };
    });
  };
}
