// v1/abatement/: the stateless evaluation (domain/abatement/evaluate.ts) and the stored assessments
// (domain/abatement/assessments.ts) with their export. Declared in contract/routes/abatement.ts.
import { wholeList } from "../contract/routes/declare";
import type { AbatementRequest } from "@core/abatement";
import {
  abatementEvaluateRoute,
  abatementStreamsRoute,
  createAssessmentRoute,
  exportAssessmentRoute,
  getAssessmentRoute,
  listAssessmentsRoute,
  patchAssessmentRoute,
} from "../contract/routes/abatement";
import { createAssessment, getAssessment, inventoryStreams, listAssessments, patchAssessment } from "../domain/abatement/assessments";
import { evaluateAbatementRequest } from "../domain/abatement/evaluate";
import { parseInventoryYear } from "../domain/inventory/year";
import { attachmentDisposition } from "../files/file-names";
import { routeApp } from "./openapi-routes";
import { heavyFile } from "../domain/heavy-work";

const CONTENT_TYPES = { xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", pdf: "application/pdf" } as const;

// the security review's R4: an evaluation (evaluate, a create, a change) takes its heavy-work slot before its
// body is read (http/heavy-bodies.ts): a burst past the budgets is refused before any of it is parsed.
export const abatementRoutes = routeApp()
  .openapi(
    abatementEvaluateRoute,
    async (c) =>
      c.body(await evaluateAbatementRequest(c.get("deps"), c.get("actor"), c.req.valid("json") as AbatementRequest), 200, {
        "Content-Type": "application/json",
      }) as never,
  )
  .openapi(abatementStreamsRoute, async (c) =>
    c.json(wholeList(await inventoryStreams(c.get("deps"), c.get("actor"), parseInventoryYear(c.req.valid("query").year))), 200),
  )
  .openapi(listAssessmentsRoute, async (c) => c.json(wholeList(await listAssessments(c.get("deps"), c.get("actor"))), 200))
  .openapi(createAssessmentRoute, async (c) => c.json(await createAssessment(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(getAssessmentRoute, async (c) => c.json(await getAssessment(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchAssessmentRoute, async (c) =>
    c.json(await patchAssessment(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(exportAssessmentRoute, async (c) => {
    const deps = c.get("deps");
    const assessment = await getAssessment(deps, c.get("actor"), c.req.valid("param").id);
    const format = c.req.valid("query").format ?? "xlsx";
    const bytes = await heavyFile(deps, c.get("actor"), () =>
      deps.spreadsheets.abatementFile(assessment, format, deps.clock.now().toISOString()),
    );
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": attachmentDisposition(`Снижение выбросов ${assessment.name}.${format}`),
      "Cache-Control": "no-store",
    }) as never;
  });
