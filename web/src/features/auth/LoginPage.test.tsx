// @vitest-environment jsdom
// The sign-in form against the server's answers (docs/user-guide.md, /login): when the server demands
// the Guardant key code the field appears and the code typed is sent, a wrong one is said so; after
// too many failed attempts the server's own sentence is shown. The server's side of both (the code
// configured, the attempts counted per e-mail) is tests/integration/auth.test.ts's.
import { screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { failure, type Answer } from "../../testing/contract-api";
import { fakeJwt } from "../../testing/fakes";
import { signedInUser } from "../../testing/fixtures";
import { closeApp, openSignedOut, type OpenApp } from "../../testing/render-app";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** A refusal of the key code, as the server answers it: 401 with the machine code beside its sentence. */
const guardantRequired = (detail: string): Answer => ({ ...failure(401, detail), body: { detail, code: "guardant_required" } });
const exp = () => Math.floor(Date.now() / 1000) + 3600;

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
