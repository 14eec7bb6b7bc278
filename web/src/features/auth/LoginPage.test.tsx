// @vitest-environment happy-dom
// The sign-in form against the server's answers (docs/user-guide.md, /login): when the server demands
// the Guardant key code the field appears and the code typed is sent, a wrong one is said so; after
// too many failed attempts the server's own sentence is shown. The server's side of both (the code
// configured, the attempts counted per e-mail) is tests/integration/auth.test.ts's. A protected page
// sends a visitor here, and signing in leads back to it (a deep link with its query), never to
// another origin a crafted history entry names.
import { screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { failure, type Answer, type ContractApi } from "../../testing/contract-api";
import { TEST_NOW, fakeJwt, onTestClock } from "../../testing/fakes";
import { project, referenceDictionary, signedInUser, storedCalculation } from "../../testing/fixtures";
import { closeApp, openSignedOut, type OpenApp } from "../../testing/render-app";

let app: OpenApp;
onTestClock();

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** A refusal of the key code, as the server answers it: 401 with the machine code beside its sentence. */
const guardantRequired = (detail: string): Answer => ({ ...failure(401, detail), body: { detail, code: "guardant_required" } });
const exp = () => Math.floor(TEST_NOW / 1000) + 3600;

/** Pastes the e-mail and the password into their fields. */
async function enterCredentials({ user }: OpenApp, password: string) {
  await user.click(await screen.findByLabelText("Логин"));
  await user.paste("miner@example.com");
  await user.click(screen.getByLabelText("Пароль"));
  await user.paste(password);
}

it("asks for the Guardant key code when the server requires it, says a wrong one is wrong, and signs in with the right one", async () => {
  app = openSignedOut("/login", (api) =>
    api
      .on("login", ({ body }) => {
        const code = (body as { guardant_code: string }).guardant_code;
        if (code === "246810")
          return { access: fakeJwt({ exp: exp(), type: "access" }), refresh: fakeJwt({ exp: exp(), type: "refresh" }) };
        return guardantRequired(code === "" ? "Для входа введите код ключа Guardant" : "Неверный код ключа Guardant");
      })
      .on("getMe", signedInUser()),
  );
  const { user, api } = app;
  await enterCredentials(app, "right-password");
  expect(screen.queryByLabelText("Код ключа Guardant")).toBeNull();
  await user.click(screen.getByRole("button", { name: "Вход" }));
  expect((await screen.findByRole("alert")).textContent).toBe("Для входа введите код ключа Guardant");

  await user.type(screen.getByLabelText("Код ключа Guardant"), "111111");
  await user.click(screen.getByRole("button", { name: "Вход" }));
  expect(await screen.findByText("Неверный код ключа Guardant")).toBeTruthy();

  await user.clear(screen.getByLabelText("Код ключа Guardant"));
  await user.type(screen.getByLabelText("Код ключа Guardant"), "246810");
  await user.click(screen.getByRole("button", { name: "Вход" }));
  expect(await screen.findByRole("button", { name: "Начать работу" })).toBeTruthy();
  expect(window.location.pathname).toBe("/");
  expect(api.calls("login").map(({ body }) => body)).toEqual([
    { email: "miner@example.com", password: "right-password", guardant_code: "" },
    { email: "miner@example.com", password: "right-password", guardant_code: "111111" },
    { email: "miner@example.com", password: "right-password", guardant_code: "246810" },
  ]);
});

it("shows the server's message after too many failed attempts", async () => {
  const tooMany = "Слишком много неудачных попыток входа. Повторите попытку через 15 мин.";
  app = openSignedOut("/login", (api) =>
    api.on("login", () => (api.calls("login").length < 3 ? failure(401, "Неверный логин или пароль") : failure(429, tooMany))),
  );
  const { user } = app;
  await enterCredentials(app, "wrong-0");
  for (const attempt of [0, 1, 2]) {
    if (attempt > 0) {
      await user.clear(screen.getByLabelText("Пароль"));
      await user.paste(`wrong-${attempt}`);
    }
    await user.click(screen.getByRole("button", { name: "Вход" }));
    await screen.findByRole("alert");
    expect(screen.getByRole("alert").textContent).toBe(attempt < 2 ? "Неверный логин или пароль" : tooMany);
  }
});

// Moved from tests/e2e/web-projects.test.ts (the server's 401 sentence is tests/integration/auth.test.ts's).
it("shows a Russian message under the form for a wrong password", async () => {
  app = openSignedOut("/login", (api) => api.on("login", failure(401, "Неверный логин или пароль")));
  await enterCredentials(app, "wrong-password");
  await app.user.click(screen.getByRole("button", { name: "Вход" }));
  expect((await screen.findByRole("alert")).textContent).toBe("Неверный логин или пароль");
  expect(window.location.pathname).toBe("/login");
});

/** A server that signs the user in and answers the pages behind the form. */
const signsIn = (api: ContractApi) =>
  api
    .on("login", () => ({ access: fakeJwt({ exp: exp(), type: "access" }), refresh: fakeJwt({ exp: exp(), type: "refresh" }) }))
    .on("getMe", signedInUser());

// Moved from tests/e2e/web-projects.test.ts.
it("sends a visitor of a protected page to /login", async () => {
  app = openSignedOut("/projects", signsIn);
  await screen.findByText("Цифровая платформа расчета неорганизованных выбросов");
  expect(window.location.pathname).toBe("/login");
});

// Moved from tests/e2e/web-place.test.ts.
it("after signing in from a deep link, lands on the page asked for", async () => {
  const place = project({ name: "Шахта «Ёлочная»" });
  const torches = Array.from({ length: 11 }, (_, n) => {
    const name = `Факел ${String(11 - n).padStart(2, "0")}`;
    return storedCalculation("torch_ch4", { name, project: place.id, volume: 11 - n, koef_transform: 0.67 }, {}, { id: `torch-${n}` });
  });
  const deep = `/projects/${place.id}/calculations?type=torch_ch4&page=2`;
  app = openSignedOut(deep, (api) =>
    signsIn(api)
      .on("getProject", place)
      .on("getDictionary", ({ params }) => referenceDictionary(params.name))
      .on("listCalculations", ({ query }) => {
        const offset = Number(query.get("offset"));
        return { results: torches.slice(offset, offset + Number(query.get("limit"))), count: torches.length };
      }),
  );
  await enterCredentials(app, "right-password");
  expect(window.location.pathname).toBe("/login");
  await app.user.click(screen.getByRole("button", { name: "Вход" }));
  await screen.findByRole("heading", { name: "Расчеты — Шахта «Ёлочная»" });
  expect(window.location.pathname + window.location.search).toBe(deep);
  await screen.findByText("Факел 01");
  expect(document.querySelector(".ant-pagination-item-active")!.textContent).toBe("2");
});

// Moved from tests/e2e/web-place.test.ts.
it("never follows a target outside the app", async () => {
  // What a crafted history entry could carry: another origin must lead to the landing page.
  app = openSignedOut("/login", signsIn, { usr: { from: "//evil.example/x" }, key: "x", idx: 0 });
  await enterCredentials(app, "right-password");
  await app.user.click(screen.getByRole("button", { name: "Вход" }));
  await screen.findByRole("button", { name: "Начать работу" });
  expect(window.location.pathname).toBe("/");
});
