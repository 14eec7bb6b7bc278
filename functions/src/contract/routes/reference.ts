// v1/reference/, declared: the permissible methane concentrations by the act in force,
// and an administrator's confirmation of a new edition. Served by http/reference.ts.
import * as z from "zod";
import { methaneLimitEditionSchema, methaneLimitSchema } from "../schemas/journal";
import { access, json, route, userAccess } from "./declare";

const platform = userAccess("reference", { scope: "platform", note: "reference data, the same for every company" });
const admin = access("reference", "admin", { scope: "admin", note: "platform operators act across companies; staff get 403" });

export const listMethaneLimitsRoute = route(
  platform(
    "listMethaneLimits",
    "The permissible methane concentrations by place with their act, point and edition, and whether each holds today",
    [],
    "Order 506's rows (`valid_to: \"2027-01-01\"`) and every edition an administrator confirmed after it, with who and when; `in_force` on the server's clock. From the day no edition holds, the screens that draw a limit say «редакция правил не подтверждена».",
  ),
  { get: "/methane-limits", cost: "light", 200: json(z.array(methaneLimitSchema), "Every edition's rows") },
);

export const confirmMethaneLimitsRoute = route(
  admin(
    "confirmMethaneLimits",
    "Confirm the edition in force from a day: its act and a value for each place (kept with who and when; the editions before it stay)",
    [400, 409],
  ),
  {
    post: "/methane-limits",
    cost: "light",
    body: methaneLimitEditionSchema,
    201: json(z.array(methaneLimitSchema), "Every edition's rows after it"),
  },
);

/** Every route of v1/reference/ above, in the order http/reference.ts serves them. */
export const REFERENCE_ROUTES = [listMethaneLimitsRoute, confirmMethaneLimitsRoute] as const;
