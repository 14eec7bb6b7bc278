// КЭП of a climate project's period, declared: the file the executor signs, the
// detached signature brought back, the period's signatures (served by http/climate.ts); and
// the CA certificates an administrator loads as their trust anchors (served by http/admin.ts).
import * as z from "zod";
import { climateSignatureSchema, trustRootSchema } from "../schemas/climate-signatures";
import { access, fileAnswer, fileForm, json, listOf, pathParam, route, userAccess } from "./declare";
import { LIMITS } from "../schemas/limits";

const projectScoped = userAccess("climate", { scope: "company", ids: [{ in: "path", name: "id", object: "climateProject" }] });
const periodParams = z.object({ id: pathParam("Climate project id"), period: pathParam("Monitoring period id") });

export const climateSignaturePayloadRoute = route(
  projectScoped(
    "climateSignaturePayload",
    "The file the executor signs with their КЭП: the period's signed manifest",
    [404],
    "JSON: the project, the executor's requisites, the period's bounds, carbon units and totals, and the SHA-256 of each file of " +
      "the period the platform keeps. Made from the stored period alone: the same bytes for the same period state.",
  ),
  {
    get: "/{id}/periods/{period}/signatures/payload",
    cost: "heavy",
    params: periodParams,
    200: fileAnswer("The manifest to sign", "application/json"),
  },
);

export const createClimateSignatureRoute = route(
  projectScoped(
    "createClimateSignature",
    "Bring the detached КЭП (CMS, GOST R 34.10-2012) of the period's signed file",
    [400, 404, 409, 503],
    `A multipart form with \`file_data\`: the detached signature as CryptoPro or КриптоАРМ save it (DER, PEM or base64; at most ${LIMITS.climate.signatureBytes} bytes). ` +
      "Checked by OpenSSL with the GOST engine against signatures/payload/ as it is now: a signature of another file, a broken one, " +
      "a key other than GOST R 34.10-2012, a certificate not valid now or at the signing time it states, and (where CA certificates are " +
      "loaded) a chain to none of them are 400 naming why; the same signature again is 409; a server without the engine 503. " +
      "Kept with the period and in the company's change log.",
  ),
  {
    post: "/{id}/periods/{period}/signatures",
    cost: "heavy",
    params: periodParams,
    body: fileForm("The detached signature (.sig, .p7s)"),
    bodyCap: "form",
    201: json(climateSignatureSchema, "The signature as kept: the signer, the certificate's validity, the chain's state"),
  },
);

export const listClimateSignaturesRoute = route(
  projectScoped(
    "listClimateSignatures",
    "The period's КЭП, the earliest first, each saying whether it is over the period as it is now",
    [404],
  ),
  {
    get: "/{id}/periods/{period}/signatures",
    cost: "heavy",
    params: periodParams,
    200: json(listOf(climateSignatureSchema), "The signatures"),
  },
);

/** The routes above, in CLIMATE_ROUTES. */
export const CLIMATE_SIGNATURE_ROUTES = [climateSignaturePayloadRoute, createClimateSignatureRoute, listClimateSignaturesRoute] as const;

const admin = access("admin", "admin", { scope: "admin", note: "Platform-wide: the trust anchors of every company's КЭП check" });
const rootParams = z.object({ id: pathParam("The certificate's SHA-256, hex") });

export const listTrustRootsRoute = route(admin("adminListCaRoots", "The CA certificates loaded as trust anchors of КЭП chains", []), {
  get: "/ca-roots",
  cost: "light",
  200: json(listOf(trustRootSchema), "The certificates"),
});

export const createTrustRootsRoute = route(
  admin(
    "adminCreateCaRoots",
    "Load CA certificates (an accredited CA's root, or its intermediate) as trust anchors of КЭП chains",
    [400],
    "A multipart form with `file_data`: a .cer (DER or PEM, several in one PEM file). Each must be a CA's (CA:TRUE) and valid now; " +
      "one loaded already is left as it is. None ship with the platform: until one is loaded a signature's chain is not checked.",
  ),
  {
    post: "/ca-roots",
    cost: "light",
    body: fileForm("The CA's certificate (.cer, .crt, .pem)"),
    bodyCap: "form",
    201: json(listOf(trustRootSchema), "The certificates added"),
  },
);

export const removeTrustRootRoute = route(admin("adminRemoveCaRoot", "Remove a CA certificate from the trust anchors", [404]), {
  delete: "/ca-roots/{id}",
  cost: "light",
  params: rootParams,
  200: json(z.object({ detail: z.string() }), "Removed"),
});

export const TRUST_ROOT_ROUTES = [listTrustRootsRoute, createTrustRootsRoute, removeTrustRootRoute] as const;
