// `npm start`: the whole product on this machine. Storage under DATA_DIR, web app and API on PORT.
// SIGINT (Ctrl-C) and SIGTERM stop it cleanly, also while it is still starting: requests in flight
// finish, then the store closes. `npm start` execs this process (package.json), so a signal sent to
// npm reaches it.
import { dataDirFromEnv, StoreRefusedError } from "./local/storage";
import { STOP_WITHIN_MS, startLocalServer } from "./local/server";
import { AppThreadsSettingError, appThreadsFromEnv } from "./local/app-threads";
import { startStopWatchdog } from "./local/stop-watchdog";
import { demoReadingsFromEnv } from "./local/demo-feed";
import { BackupSettingError, backupScheduleFromEnv } from "./local/backup-schedule";
import { NetworkSettingError, tlsFromEnv } from "./local/network";
import { DataFormatError } from "./local/data-format";
import { StorageMigrationError } from "./local/leveldb-migration";
import { demoLoginFromEnv, reachableUrls, startBanner, usersByCompany } from "./seed";

/** The exit status of a start refused for its settings or data folder (EX_CONFIG of sysexits.h). */
const EXIT_REFUSED = 78;
const REFUSED = [
  DataFormatError,
  NetworkSettingError,
  BackupSettingError,
  StorageMigrationError,
  StoreRefusedError,
  AppThreadsSettingError,
];

// the data folder holds password hashes, signing keys and the engine's secret: what this
// process makes is its owner's alone (folders 0700, files 0600), as the systemd unit's UMask=0077
// already gives (infra/onprem/fugitive-emissions.service). A umask is the process's, its threads' too.
process.umask(0o077);

const dataDir = dataDirFromEnv();
const demo = demoLoginFromEnv();
// Inside the promise: a setting refused (its message in Russian) ends the start like any failure.
const starting = (async () =>
  startLocalServer({
    dataDir,
    port: Number(process.env.PORT || 3000),
    host: process.env.HOST || "127.0.0.1",
    demo,
    demoYear: true,
    // The demo mine's simulated readings go on while it runs (docs/operations.md).
    demoReadings: demoReadingsFromEnv(),
    backups: backupScheduleFromEnv(),
    tls: tlsFromEnv(),
    trustProxy: process.env.TRUST_PROXY === "1",
    // The routes in app threads, a company's requests on one at a time (local/app-threads.ts).
    appThreads: appThreadsFromEnv(),
  }))().catch((error: Error) => {
  console.error(error.message);
  // A start refused for its settings or its folder exits 78 (EX_CONFIG): the systemd unit does not
  // restart it (infra/onprem/fugitive-emissions.service), since a restart would not change them.
  process.exit(REFUSED.some((kind) => error instanceof kind) ? EXIT_REFUSED : 1);
});

let stopping = false;
const watchdog = startStopWatchdog();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // npm forwards the signal it gets, and a terminal's Ctrl-C reaches npm and this process alike:
  // the first one stops, the copies are ignored.
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("Остановка…");
    // Whatever the close waits for, the process ends within STOP_WITHIN_MS: what
    // it cut short is as a kill leaves it, which the next start takes up (the readings' queue, the jobs).
    const late = `Остановка не завершилась за ${STOP_WITHIN_MS / 1000} с: процесс завершен`;
    setTimeout(() => {
      console.error(late);
      process.exit(0);
    }, STOP_WITHIN_MS - 300).unref();
    // The timer above needs this thread; the watchdog's thread ends it when this one is busy.
    watchdog.arm(STOP_WITHIN_MS - 100, late);
    starting
      .then((server) => server.close())
      .then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
  });
}

const server = await starting;
if (!stopping) {
  const users = await usersByCompany(server.deps);
  console.log(startBanner(reachableUrls(server.url, process.env.HOST), dataDir, demo, server.firstStart, users).join("\n"));
}
