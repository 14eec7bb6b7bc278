// GET v1/users/get_me/, v1/users/statistics/, PATCH v1/users/company/ and GET v1/users/company/audit/ (docs/api.md) served: the declarations are in routes/users.ts.
import { getMe } from "../domain/company/users";
import { companyStatistics } from "../domain/inventory/statistics";
import { updateOwnCompany } from "../domain/admin/companies";
import { listRequisitesAudit } from "../domain/company/requisites-audit";
import { routeApp } from "./openapi-routes";
import { getMeRoute, patchOwnCompanyRoute, requisitesAuditRoute, statisticsRoute } from "../contract/routes/users";

export const userRoutes = routeApp()
  .openapi(getMeRoute, async (c) => c.json(await getMe(c.get("deps"), c.get("actor")), 200))
  .openapi(statisticsRoute, async (c) => c.json(await companyStatistics(c.get("deps"), c.get("actor")), 200))
  .openapi(patchOwnCompanyRoute, async (c) => c.json(await updateOwnCompany(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(requisitesAuditRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await listRequisitesAudit(c.get("deps"), c.get("actor"), { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  });
