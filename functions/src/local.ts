// `npm start`: the whole product on this machine. Storage under DATA_DIR, web app and API on PORT.
import { dataDirFromEnv } from "./local/storage";
import { startLocalServer } from "./local/server";
import { demoLoginFromEnv } from "./seed";

const dataDir = dataDirFromEnv();
const demo = demoLoginFromEnv();
const server = await startLocalServer({
  dataDir,
  port: Number(process.env.PORT || 3000),
  host: process.env.HOST || "127.0.0.1",
  demo,
}).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});

console.log(`\nЦифровая платформа расчета неорганизованных выбросов`);
console.log(`  URL:    ${server.url}`);
console.log(`  Логин:  ${demo.email}`);
console.log(`  Пароль: ${demo.password}`);
console.log(`  Данные: ${dataDir}\n`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("Остановка…");
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
