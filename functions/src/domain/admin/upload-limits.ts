// The caps of the files an administrator uploads, as this server applies them: documents and videos
// from the environment (config.ts), models fixed. The admin screens read them here and check a file
// before sending it, so a cap changed by the operator is the cap the screen says.
import type { Actor, Deps } from "../context";
import { MAX_MODEL_BYTES } from "../forecast/models";
import { assertAdmin } from "../audit";

export function adminUploadLimits(deps: Deps, actor: Actor) {
  assertAdmin(actor);
  return {
    document_max_bytes: deps.config.documentMaxBytes,
    video_max_bytes: deps.config.videoMaxBytes,
    model_max_bytes: MAX_MODEL_BYTES,
  };
}
