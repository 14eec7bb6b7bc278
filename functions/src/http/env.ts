// The Hono environment shared by all sub-apps: the injected dependencies and, after the auth
// middleware, the acting user.
import type { Actor, Deps } from "../domain/context";

export interface AppEnv {
  Variables: {
    deps: Deps;
    actor: Actor;
  };
}
