// The Hono environment shared by all sub-apps: the injected dependencies, how the host tells who
// is calling and, after the auth middleware, the acting user.
import type { Context } from "hono";
import type { Actor, Deps, PendingActor } from "../domain/context";
import type { RefusalPace, RequestPace } from "./request-pace";

/** How the host tells the app who is calling (socket address locally, source IP in Lambda). */
export type ClientAddressOf = (c: Context) => string;

export interface AppEnv {
  Variables: {
    deps: Deps;
    clientAddressOf: ClientAddressOf;
    /** The pace of each user's requests, where the host keeps one (the local server). */
    pace?: RequestPace;
    /** the requests refused for their token, per source address (the local server). */
    refusals?: RefusalPace;
    /** R7: the pace of each gateway key's pushes (the local server). */
    gatewayPace?: RequestPace;
    /** the host holds no server-sent stream open (AWS): the stream route answers 404. */
    noLiveStream?: boolean;
    actor: Actor;
    /** In place of `actor`, on a route that reads the user beside its own first reads (http/auth.ts). */
    pendingActor?: PendingActor;
  };
}
