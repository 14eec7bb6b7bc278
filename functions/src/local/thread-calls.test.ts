import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { DomainError, NotFound, TooManyRequests } from "../domain/errors";
import { FileRefused } from "../files/errors";
import { answerCalls, revived, shapeOf, threadCalls } from "./thread-calls";

function connected(services: Record<string, object>, bulk: Record<string, string[]> = {}) {
  const { port1, port2 } = new MessageChannel();
  answerCalls(port1, services);
  const calls = threadCalls(port2);
  return {
    service: <T>(name: string) => calls.service<T>(name, shapeOf(services[name], bulk[name])),
    close() {
      port1.close();
      port2.close();
    },
  };
}

describe("calls to the front thread", () => {
  it("answer with the service's value, its streams transferred, and carry its plain values", async () => {
    const front = connected({
      files: {
        jobsOf: ["export", "train"],
        async file(name: string) {
          return { kind: "body", fileName: name, body: new Response("содержимое").body };
        },
      },
    });
    const files = front.service<{ jobsOf: string[]; file(name: string): Promise<{ fileName: string; body: ReadableStream }> }>("files");
    expect(files.jobsOf).toEqual(["export", "train"]);
    const answer = await files.file("отчет.xlsx");
    expect(answer.fileName).toBe("отчет.xlsx");
    expect(await new Response(answer.body).text()).toBe("содержимое");
    front.close();
  });

  it("throw a domain error, a busy refusal with its wait, a refused file and a RangeError as they were thrown", async () => {
    const front = connected({
      failing: {
        notFound: async () => {
          throw new NotFound("Нет такого проекта");
        },
        busy: async () => {
          throw new TooManyRequests("Повторите через 7 с", 7);
        },
        file: async () => {
          throw new FileRefused("unsupported_media", "Файл не PDF");
        },
        range: async () => {
          throw new RangeError("bad argument");
        },
      },
    });
    const failing = front.service<Record<"notFound" | "busy" | "file" | "range", () => Promise<void>>>("failing");
    await expect(failing.notFound()).rejects.toSatisfy(
      (e) => e instanceof DomainError && e.kind === "not_found" && e.detail === "Нет такого проекта",
    );
    await expect(failing.busy()).rejects.toSatisfy((e) => e instanceof TooManyRequests && e.retryAfterSeconds === 7);
    await expect(failing.file()).rejects.toSatisfy((e) => e instanceof FileRefused && e.kind === "unsupported_media");
    await expect(failing.range()).rejects.toBeInstanceOf(RangeError);
    front.close();
  });

  it("call back a caller's function with what the service called it with, and drop the functions an argument carries", async () => {
    const front = connected({
      preview: {
        async read(actor: { id: string; handOn?: unknown }, kept: (columns: number[]) => void) {
          kept([1, 2, 3]);
          return { actor: actor.id, handOn: typeof actor.handOn };
        },
      },
    });
    const preview = front.service<{ read(actor: object, kept: (columns: number[]) => void): Promise<{ actor: string; handOn: string }> }>(
      "preview",
    );
    let columns: number[] = [];
    const answer = await preview.read({ id: "u-1", handOn: () => "slot" }, (c) => {
      columns = c;
    });
    expect(columns).toEqual([1, 2, 3]);
    expect(answer).toEqual({ actor: "u-1", handOn: "undefined" });
    front.close();
  });

  it("hand a bulk method's document on as bytes, which the rendering thread revives", async () => {
    const seen: unknown[] = [];
    const front = connected(
      {
        files: {
          async render(document: unknown, format: string) {
            seen.push(document);
            return revived({ op: "render", document, format });
          },
        },
      },
      { files: ["render"] },
    );
    const files = front.service<{ render(document: object, format: string): Promise<{ document: unknown; format: string }> }>("files");
    const document = { facility: "Шахта", handovers: Array.from({ length: 3 }, (_, i) => ({ shift: i + 1 })) };
    const answer = await files.render(document, "pdf");
    expect(seen[0]).toEqual({ __serialized: expect.any(Uint8Array) });
    expect(answer).toEqual({ op: "render", document, format: "pdf" });
    front.close();
  });
});
