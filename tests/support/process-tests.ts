// The test files beside the code that start processes, run in the integration tier, not the unit tier
// (vitest.config.ts): the local host's servers on the local DynamoDB engine, but for the backup archive's
// (tar.test.ts: bytes in memory) and the backups' timing (backup-schedule.test.ts: a few empty files), the GBDT command line, LibreOffice reading the xls export back, OpenSSL
// signing and checking КЭП (some 80 openssl processes; Streebog compared with `openssl dgst`).
export const PROCESS_TESTS = [
  "functions/src/local/**/!(tar|backup-schedule).test.ts",
  "wasm-core/src/gbdt/cli.test.ts",
  "functions/src/export/xls-writer.test.ts",
  "functions/src/adapters/signing/gost-verifiers.test.ts",
  "functions/src/adapters/signing/streebog-openssl.test.ts",
];
