// v1/facilities/: a company's facilities (list, create, PATCH).
import { Hono } from "hono";
import { createFacility, getFacility, listFacilities, patchFacility } from "../domain/facilities";
import { facilityCreateSchema, facilityPatchSchema } from "../schemas/facility";
import type { AppEnv } from "./env";
import { validate } from "./validate";

export const facilityRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", async (c) => c.json(await listFacilities(c.get("deps"), c.get("actor")), 200))
  .post("/", validate("json", facilityCreateSchema), async (c) => {
    return c.json(await createFacility(c.get("deps"), c.get("actor"), c.req.valid("json")), 201);
  })
  .get("/:id", async (c) => c.json(await getFacility(c.get("deps"), c.get("actor"), c.req.param("id")), 200))
  .patch("/:id", validate("json", facilityPatchSchema), async (c) => {
    return c.json(await patchFacility(c.get("deps"), c.get("actor"), c.req.param("id"), c.req.valid("json")), 200);
  });
