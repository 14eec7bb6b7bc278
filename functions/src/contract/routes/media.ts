// v1/media/, declared: the settings videos. GET / (bearer) lists them with signed URLs; GET
// /{kind}/?token= streams one with byte ranges for <video>, which cannot send the bearer header.
// Served by http/media.ts: two sub-apps, the stream one mounted before requireUser.
import * as z from "zod";
import { mediaStatusSchema } from "../schemas/answers";
import type { VideoType } from "../schemas/uploads";
import { access, binaryFile, json, listOf, pathParam, route, userAccess } from "./declare";

const settingsVideos = { scope: "platform", note: "settings videos are platform-wide" } as const;
const videos = userAccess("media", settingsVideos);
/** The stream: <video> sends no header, so its signed URL's token is the credential. */
const signedVideos = access("media", "signed", settingsVideos);

export const listRoute = route(videos("listMedia", "The settings videos with signed URLs (10 minutes)", []), {
  get: "/",
  cost: "light",
  200: json(listOf(mediaStatusSchema), "Both videos"),
});

/** Which settings video; another name answers 404. */
export const mediaKindParam = pathParam("Settings video: instruction or presentation");

/** The settings video a path names. */
export const mediaParams = z.object({ kind: mediaKindParam });

/** A settings video's body: one entry per type the server takes (its answers' too). */
export const videoContent = { "video/mp4": binaryFile(), "video/webm": binaryFile() } satisfies Record<VideoType, unknown>;

export const streamRoute = route(
  signedVideos("streamMedia", "A settings video, with byte ranges; the signed URL token is the credential", [404, 416]),
  {
    get: "/{kind}",
    cost: "light",
    params: mediaParams,
    // Checked by the domain, which answers 401 without it as for a bad one.
    query: z.object({ token: z.optional(z.string().meta({ description: "From GET v1/media/" })) }),
    200: { description: "The video", content: videoContent },
    206: { description: "A byte range (Range: bytes=a-b)", content: videoContent },
  },
);

/** The bearer route of v1/media/, as http/media.ts's mediaRoutes serves it. */
export const MEDIA_ROUTES = [listRoute] as const;

/** The signed-URL route of v1/media/, as http/media.ts's mediaStreamRoutes serves it. */
export const MEDIA_STREAM_ROUTES = [streamRoute] as const;
