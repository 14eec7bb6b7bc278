// GET v1/users/get_me/, v1/users/statistics/, PATCH v1/users/company/, GET v1/users/company/audit/,
// PATCH v1/users/me/ and POST v1/users/me/password/ (docs/api.md) served: the declarations are in routes/users.ts.
import { getMe, updateOwnProfile } from "../domain/company/users";
import { changeOwnPassword } from "../domain/company/auth";
import { companyStatistics } from "../domain/inventory/statistics";
import { updateOwnCompany } from "../domain/admin/companies";
import { listRequisitesAudit } from "../domain/company/requisites-audit";
import { routeApp } from "./openapi-routes";
import {
  changePasswordRoute,
  getMeRoute,
  patchMeRoute,
  patchOwnCompanyRoute,
  requisitesAuditRoute,
  statisticsRoute,
} from "../contract/routes/users";

export const userRoutes = routeApp()
  .openapi(getMeRoute, async (c) => c.json(await getMe(c.get("deps"), c.get("actor")), 200))
  .openapi(statisticsRoute, async (c) => c.json(await companyStatistics(c.get("deps"), c.get("actor")), 200))
  .openapi(patchOwnCompanyRoute, async (c) => c.json(await updateOwnCompany(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(requisitesAuditRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await listRequisitesAudit(c.get("deps"), c.get("actor"), { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  })
  .openapi(patchMeRoute, async (c) => c.json(await updateOwnProfile(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(changePasswordRoute, async (c) => {
    const body = c.req.valid("json");
    const tokens = await changeOwnPassword(c.get("deps"), c.get("actor"), { ...body, clientAddress: c.get("clientAddressOf")(c) });
    return c.json(tokens, 200);
  });
