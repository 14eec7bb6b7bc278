// GET v1/signing-keys/ (declared in contract/routes/signing-keys.ts): public, no token.
import { routeApp } from "./openapi-routes";
import { signingKeysRoute } from "../contract/routes/signing-keys";
import { VERIFY_PY_SHA256 } from "../export/verify-script";

export const signingKeyRoutes = routeApp().openapi(signingKeysRoute, async (c) =>
  c.json({ keys: await c.get("deps").signer.keys(), verify_py_sha256: VERIFY_PY_SHA256 }, 200, { "Cache-Control": "public, max-age=300" }),
);
