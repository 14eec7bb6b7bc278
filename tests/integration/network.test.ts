// The local server and the network (functions/src/local/network.ts): open to it (HOST=0.0.0.0) it
// refuses to start while a user's password is the demo login's, and starts once it was changed; on
// HTTPS (TLS_CERT, TLS_KEY) its API answers with HSTS; behind a reverse proxy on this machine
// (TRUST_PROXY=1) a sign-in is counted from the address the proxy names. The browser tier opens the
// app on HTTPS (tests/e2e/web-https.test.ts).
import { spawn } from "node:child_process";
import { request } from "node:https";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { clientAddress, tlsFromEnv } from "@server/local/network";
import { DEMO } from "../support/server";
import { runAdmin } from "../support/admin-command";
import { selfSignedCertificate } from "../support/self-signed";

const root = mkdtempSync(join(tmpdir(), "fugitive-network-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A request over HTTPS that trusts `ca` alone. */
function httpsCall(
  url: string,
  ca: Buffer,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; json: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request(url, { method: body ? "POST" : "GET", ca, headers: { "Content-Type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => done({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text || "{}") }));
    });
    req.on("error", fail);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe("a server open to the network", () => {
  it("refuses to start with the demo password, names the user and the way out, and starts once it is changed", async () => {
    const dataDir = join(root, "exposed");
    // `npm start`'s first start (demoYear): refused before the demo year's minutes of writing.
    await expect(startLocalServer({ dataDir, port: 0, host: "0.0.0.0", demo: DEMO, demoYear: true })).rejects.toThrow(
      "Сервер открыт в сеть (HOST=0.0.0.0), а у пользователя demo@example.com пароль демо-входа «demo-password», известный всем. " +
        "Смените его (npm run admin -- set-password --email demo@example.com --password '…') или запустите сервер с HOST=127.0.0.1",
    );
    // The loopback alone is the developer's start, demo password and all.
    const local = await startLocalServer({ dataDir, port: 0, host: "127.0.0.1", demo: DEMO });
    // The refused start left the demo user, whose password its message says to change, and no demo year.
    const [company] = await local.deps.repos.companies.list();
    expect((await local.deps.repos.users.listByCompany(company!.id)).map((u) => u.email)).toEqual([DEMO.email]);
    expect(await local.deps.repos.facilities.list(company!.id)).toEqual([]);
    await local.close();
    expect((await runAdmin(dataDir, ["set-password", "--email", DEMO.email, "--password", "свой-пароль-2026"])).status).toBe(0);
    const open = await startLocalServer({ dataDir, port: 0, host: "0.0.0.0", demo: DEMO });
    await open.close();
  }, 90_000); // three starts: 7-16 s at load 10-16
});

describe("npm start open to the network with the demo login", () => {
  it("exits 78 (a refused start, which the systemd unit does not restart) with its message, listening on nothing", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "functions/src/local.ts"], {
      cwd: fileURLToPath(new URL("../../", import.meta.url)),
      env: {
        ...process.env,
        DATA_DIR: join(root, "npm-start"),
        HOST: "0.0.0.0",
        PORT: "0",
        LOCAL_DEMO_EMAIL: "",
        LOCAL_DEMO_PASSWORD: "",
        LOCAL_COMPANY: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const code = await new Promise((done) => child.once("exit", done));
    expect(output).toContain(
      "Сервер открыт в сеть (HOST=0.0.0.0), а у пользователя demo@example.com пароль демо-входа «demo-password», известный всем.",
    );
    expect(output).not.toMatch(/URL:/);
    expect(code).toBe(78);
  }, 90_000); // a process start: 17 s at load 16
});

describe("HTTPS", () => {
  it("serves the API from TLS_CERT and TLS_KEY with HSTS; one without the other is refused", async () => {
    const { cert, key, certFile, keyFile } = selfSignedCertificate();
    expect(tlsFromEnv({ TLS_CERT: certFile, TLS_KEY: keyFile })).toEqual({ cert, key });
    expect(() => tlsFromEnv({ TLS_CERT: certFile })).toThrow(
      "Для HTTPS задайте оба файла: TLS_CERT (сертификат, PEM) и TLS_KEY (его закрытый ключ, PEM)",
    );
    expect(() => tlsFromEnv({ TLS_CERT: certFile, TLS_KEY: join(root, "missing.pem") })).toThrow(
      /^TLS_KEY=.*missing\.pem: файл не читается \(ENOENT\)$/,
    );
    const server = await startLocalServer({ dataDir: join(root, "tls"), port: 0, demo: DEMO, tls: { cert, key } });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const signIn = await httpsCall(`${server.url}/api/token/`, cert, { email: DEMO.email, password: DEMO.password, guardant_code: "" });
      expect(signIn.status).toBe(200);
      expect(signIn.headers["strict-transport-security"]).toBe("max-age=31536000");
      expect(typeof signIn.json.access).toBe("string");
    } finally {
      await server.close();
    }
  }, 90_000);

  it("behind a reverse proxy on this machine counts a client by the address the proxy names, and only then", () => {
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    expect(clientAddress("127.0.0.1", headers({ "x-real-ip": "10.1.2.3" }), true)).toBe("10.1.2.3");
    expect(clientAddress("127.0.0.1", headers({ "x-forwarded-for": "1.1.1.1, 10.1.2.4" }), true)).toBe("10.1.2.4");
    expect(clientAddress("127.0.0.1", headers({ "x-real-ip": "10.1.2.3" }), false)).toBe("127.0.0.1");
    // A client elsewhere cannot name another address for itself, nor write anything into the count.
    expect(clientAddress("10.9.9.9", headers({ "x-real-ip": "10.1.2.3" }), true)).toBe("10.9.9.9");
    expect(clientAddress("127.0.0.1", headers({ "x-real-ip": "<script>" }), true)).toBe("127.0.0.1");
  });
});
