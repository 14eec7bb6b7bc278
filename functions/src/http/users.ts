// GET v1/users/get_me/ and v1/users/statistics/ (SPEC 7).
import { Hono } from "hono";
import { getMe } from "../domain/users";
import { companyStatistics } from "../domain/statistics";
import type { AppEnv } from "./env";

export const userRoutes = new Hono<AppEnv>({ strict: false })
  .get("/get_me", async (c) => c.json(await getMe(c.get("deps"), c.get("actor")), 200))
  .get("/statistics", async (c) => c.json(await companyStatistics(c.get("deps"), c.get("actor")), 200));
