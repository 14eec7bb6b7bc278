// Types of dynalite-answer.mjs.
import type { EventEmitter } from "node:events";

export interface EngineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
/** Hands one request to `server` (dynalite's HTTP server) as its loopback port would and calls
 *  `reply` with the answer. */
export function answerRequest(server: EventEmitter, headers: Record<string, string>, body: string, reply: (answer: EngineAnswer) => void): void;
