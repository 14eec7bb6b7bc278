// The commands of `npm run admin -- <command> [options]` (the entry is ./cli.ts): companies and users without the web app. Works on
// DATA_DIR whether or not the server is running (it then goes through the server's dynalite),
// and on the AWS table with STORAGE=dynamodb TABLE_NAME=... (docs/deployment.md).
import { localRuntime } from "../local/subscribers";
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import { configFromEnv } from "../config";
import { passwordCostFromEnv } from "../local/password-cost";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { systemClock, type Deps } from "../domain/context";
import { inProcessSpreadsheets } from "../export/in-process";
import { DomainError } from "../domain/errors";
import { personName } from "../domain/person-name";
import { createCompany, createUser, setPassword, setUserActive, setUserDuty, setUserRole, validatePassword } from "../domain/company/users";
import { seedDictionaries } from "../domain/reference/dictionaries";
import { seedProductionCalendar } from "../domain/reference/production-calendar";
import { seedDefaultModels } from "../domain/forecast/models";
import { archiveUnapplied, drifted, reconcileCompanyStatistics, troubled, type ReconcileReport } from "../domain/inventory/statistics";
import { LambdaClient, rotateJwtSecret, SecretsManagerClient, type RotationTarget } from "./rotate-jwt-secret";
import { s3BlobStore } from "../adapters/blob/s3-blob-store";
import { BLOB_AREAS } from "../adapters/blob/areas";
import { S3Client } from "@aws-sdk/client-s3";
import { dataDirFromEnv, openSharedStorage, rotateLocalSigningKey, STORE_DIR } from "../local/storage";
import { migrateLevelDb, StorageMigrationError } from "../local/leveldb-migration";
import { BackupError, describeBackup, restoreBackup, takeBackup, verifyBackup } from "../local/backup";
import { CURRENT_DATA_FORMAT, checkDataFormat, DataFormatError, readDataFormat } from "../local/data-format";
import { join } from "node:path";
import { ROLES, type Role } from "../contract/schemas/common";
import { MINE_DUTIES as DUTIES, MINE_DUTY_LABELS as DUTY_LABELS, type MineDuty as Duty } from "@core/sensor-checks";
import { reportingYearProblem } from "@core/gwp-in-force";
import { ephemeralSigner } from "../adapters/signing/rsa-signer";

const USAGE = `Использование: npm run admin -- <команда> [параметры]

  create-company --name NAME [--email E] [--ogrn N] [--okved C] [--region R] [--address A]
  create-user    --company NAME --email E --password P [--first-name F] [--last-name L] [--role staff|reviewer|admin]
                 [--new-company]  (компании с таким названием еще нет: создать ее; без этого
                 параметра неизвестное название — ошибка, чтобы опечатка не создала компанию)
  list-users     [--company NAME]
  set-password   --email E --password P
  set-role       --email E --role staff|reviewer|admin
                 (reviewer — сотрудник, который утверждает инвентаризацию, отправленную другим;
                 admin — оператор платформы: раздел «Администрирование», все компании)
  set-duty       --email E --duty head_section|head_ab|chief_engineer|agk_operator|agk_electrician|deputy_head_agk|none
                 обязанность на шахте: кто подтверждает запись книги учета загазирований
                 (начальник участка, начальник участка АБ, главный инженер); none — никакой
  deactivate-user --email E
  activate-user   --email E
  audit-trail    [--day ГГГГ-ММ-ДД]  журнал изменений данных за сутки (UTC; по умолчанию сегодня)
  reconcile-statistics [--company NAME] [--dry-run] [--settle-seconds S] [--archive-unapplied]
                 сверить статистику компаний (профиль) с данными и исправить расхождения;
                 --dry-run — только показать их. Изменения, еще идущие через поток таблицы,
                 не исправляются: сверка смотрит дважды с паузой S с (по умолчанию 2, в AWS 10).
                 Показывает и то, что поток таблицы не смог учесть (расчеты со значениями вне
                 физических пределов); --archive-unapplied переносит такие расчеты в архив
                 и сверяет еще раз. Сбой одной компании не останавливает сверку остальных
  check-projects проекты, отчетный год которых не входит в их даты (их не меняет:
                 исправьте даты или отчетный год проекта в приложении)
  damaged-calculations [--company NAME]
                 расчеты, сохраненные не в том виде (например, без результатов): чтения
                 и выгрузки их пропускают, инвентаризация называет; архивируйте их в приложении
  seed           справочники, модели прогноза и производственный календарь по умолчанию, если их еще нет
                 (в AWS нужен также UPLOADS_BUCKET: модели хранятся в нем)
  rotate-jwt-secret [--overlap-hours H]
                 новый секрет подписи токенов; прежний действует еще H часов (по умолчанию —
                 срок refresh-токена), так что никто не теряет сеанс. Локально — перезапустите
                 сервер; в AWS нужны APP_SECRET_ARN и API_FUNCTION_NAME (выводы стека)
  backup --to FILE
                 резервная копия папки данных (DATA_DIR) в один файл .tar.gz: снимок базы
                 данных на один момент, файлы и опись с контрольными суммами; можно при
                 работающем сервере. Пишется рядом и переименовывается, когда готова
  verify-backup FILE
                 проверить копию по ее описи (без сервера и папки данных)
  migrate-storage
                 перенести папку данных прежней версии (LevelDB, DATA_DIR/dynamodb) в хранилище
                 SQLite (DATA_DIR/sqlite) и сверить каждую запись; прежняя папка удаляется только
                 после сверки. Сервер делает это и сам при первом запуске; при остановленном сервере
  restore --from FILE
                 восстановить копию в пустую или новую папку DATA_DIR (сначала проверяется
                 опись); затем запустите сервер на этой папке
  rotate-signing-key
                 новый ключ подписи утвержденных версий (локально, в папке данных); открытые ключи
                 прежних остаются в GET /api/v1/signing-keys/, так что подписанные ими версии
                 проверяются по-прежнему. Перезапустите сервер. В AWS ключ — KMS: добавьте новый ключ
                 в стек и в конец VERSION_SIGNING_KEY_IDS`;

const options = {
  name: { type: "string" },
  company: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  "first-name": { type: "string" },
  "last-name": { type: "string" },
  "new-company": { type: "boolean" },
  role: { type: "string" },
  duty: { type: "string" },
  ogrn: { type: "string" },
  okved: { type: "string" },
  region: { type: "string" },
  address: { type: "string" },
  day: { type: "string" },
  "overlap-hours": { type: "string" },
  "dry-run": { type: "boolean" },
  "settle-seconds": { type: "string" },
  "archive-unapplied": { type: "boolean" },
  to: { type: "string" },
  from: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`не указан параметр --${flag}`);
  return value;
}

class UsageError extends Error {}

/** Where a command prints: the console, or a test's buffer. */
export interface AdminOutput {
  log(line: string): void;
  error(line: string): void;
}

async function run(
  io: AdminOutput,
  deps: Deps,
  /** Resolves once the table's stream has handled this process's writes (locally: in-process). */
  settled: () => Promise<void>,
  dataDir: string,
  command: string | undefined,
  args: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>["values"],
): Promise<number | undefined> {
  switch (command) {
    case "create-company": {
      const company = await createCompany(deps, {
        name: required(args.name, "name"),
        email: args.email,
        ogrn: args.ogrn,
        okved: args.okved,
        region: args.region,
        postal_address: args.address,
      });
      io.log(`Компания создана: ${company.name} (${company.id})`);
      return;
    }
    case "create-user": {
      const companyName = required(args.company, "company");
      const role = (args.role ?? "staff") as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role: ${ROLES.join(", ")}`);
      // A password refused (too short, known to all) makes no company either.
      validatePassword(required(args.password, "password"));
      // The company named, exactly (but for case): a look-alike name finds none, and cannot be made.
      const named = companyName.trim().toLocaleLowerCase("ru");
      const found = (await deps.repos.companies.list()).find((c) => c.name.trim().toLocaleLowerCase("ru") === named);
      if (found && args["new-company"]) throw new UsageError(`--new-company: компания «${found.name}» уже есть`);
      if (!found && !args["new-company"]) {
        const names = (await deps.repos.companies.list()).map((c) => `«${c.name}»`).sort();
        throw new UsageError(`компания «${companyName}» не найдена (есть: ${names.join(", ") || "ни одной"}); новую создает --new-company`);
      }
      const company = found ?? (await createCompany(deps, { name: companyName }));
      const user = await createUser(deps, {
        companyId: company.id,
        email: required(args.email, "email"),
        password: required(args.password, "password"),
        first_name: args["first-name"],
        last_name: args["last-name"],
        role,
      });
      io.log(`Пользователь создан: ${user.email} (${user.role}) в компании «${company.name}»`);
      return;
    }
    case "list-users": {
      const companies = await deps.repos.companies.list();
      const wanted = args.company?.trim().toLocaleLowerCase("ru");
      const chosen = wanted ? companies.filter((c) => c.name.toLocaleLowerCase("ru") === wanted) : companies;
      if (wanted && chosen.length === 0) throw new UsageError(`компания «${args.company}» не найдена`);
      for (const company of chosen) {
        io.log(`${company.name} (${company.id})`);
        for (const user of await deps.repos.users.listByCompany(company.id)) {
          const name = personName(user);
          io.log(`  ${user.email}\t${user.role}\t${user.is_active ? "активен" : "отключен"}\t${name}`);
        }
      }
      return;
    }
    case "set-password":
      await setPassword(deps, required(args.email, "email"), required(args.password, "password"));
      io.log("Пароль изменен");
      return;
    case "set-role": {
      const role = required(args.role, "role") as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role: ${ROLES.join(", ")}`);
      await setUserRole(deps, required(args.email, "email"), role);
      io.log(`Роль изменена: ${role}`);
      return;
    }
    case "set-duty": {
      const named = required(args.duty, "duty");
      const duty = named === "none" ? null : (named as Duty);
      if (duty !== null && !DUTIES.includes(duty)) throw new UsageError(`--duty: ${DUTIES.join(", ")}, none`);
      await setUserDuty(deps, required(args.email, "email"), duty);
      io.log(duty ? `Обязанность: ${DUTY_LABELS[duty]}` : "Обязанность снята");
      return;
    }
    case "deactivate-user":
    case "activate-user":
      await setUserActive(deps, required(args.email, "email"), command === "activate-user");
      io.log(command === "activate-user" ? "Пользователь включен" : "Пользователь отключен");
      return;
    case "audit-trail": {
      const day = args.day ?? new Date().toISOString().slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new UsageError("--day: ожидается дата ГГГГ-ММ-ДД");
      const entries = await deps.repos.auditTrail.day(day);
      for (const e of entries) {
        const versions =
          e.old_version === undefined && e.new_version === undefined ? "" : ` v${e.old_version ?? "–"}→${e.new_version ?? "–"}`;
        io.log(`${e.at}\t${e.event}\t${e.item_pk} ${e.item_sk}${versions}\t${e.changed.join(", ")}`);
      }
      io.log(`Изменений за ${day}: ${entries.length}`);
      return;
    }
    case "reconcile-statistics": {
      const settle = args["settle-seconds"] === undefined ? (process.env.STORAGE === "dynamodb" ? 10 : 2) : Number(args["settle-seconds"]);
      if (!Number.isFinite(settle) || settle < 0) throw new UsageError("--settle-seconds: неотрицательное число секунд");
      const companies = await deps.repos.companies.list();
      const wanted = args.company?.trim().toLocaleLowerCase("ru");
      const chosen = wanted ? companies.filter((c) => c.name.toLocaleLowerCase("ru") === wanted) : companies;
      if (wanted && chosen.length === 0) throw new UsageError(`компания «${args.company}» не найдена`);
      const reconcile = (c: { id: string }) =>
        reconcileCompanyStatistics(deps, c.id, { settleMs: settle * 1000, repair: !args["dry-run"] });
      // Each company on its own: one that fails is reported and the others go on.
      let reports = await Promise.all(chosen.map(reconcile));
      if (args["archive-unapplied"] && !args["dry-run"]) {
        const archived = await Promise.all(reports.map((r) => archiveUnapplied(deps, r)));
        for (const [i, ids] of archived.entries()) {
          for (const id of ids) io.log(`${chosen[i].name}: расчет ${id} перенесен в архив`);
        }
        if (archived.some((ids) => ids.length > 0)) {
          await settled();
          reports = await Promise.all(chosen.map(reconcile));
        }
      }
      for (const [i, report] of reports.entries()) printReconcile(io, chosen[i].name, report);
      const withDrift = reports.filter(drifted).length;
      const failed = reports.filter((r) => r.failed !== undefined).length;
      const unapplied = reports.reduce((n, r) => n + r.unapplied.length, 0);
      io.log(
        `Компаний: ${reports.length}; с расхождениями: ${withDrift}; исправлено лет и списков: ${reports.reduce((n, r) => n + r.repaired, 0)}` +
          (failed > 0 ? `; не сверено компаний: ${failed}` : "") +
          (unapplied > 0 ? `; проектов, которые поток таблицы не смог учесть: ${unapplied}` : ""),
      );
      return reports.some(troubled) ? 1 : 0;
    }
    case "check-projects": {
      let found = 0;
      for (const company of await deps.repos.companies.list()) {
        for (const p of await deps.repos.projects.listAllOfCompany(company.id)) {
          const problem = reportingYearProblem(p);
          if (!problem) continue;
          found++;
          io.log(`${company.name}: проект ${p.id} «${p.name}» (${p.start_date} – ${p.end_date}): ${problem.message}`);
        }
      }
      io.log(`Проектов с отчетным годом вне дат: ${found}`);
      return found > 0 ? 1 : 0;
    }
    case "damaged-calculations": {
      const companies = await deps.repos.companies.list();
      const wanted = args.company?.trim().toLocaleLowerCase("ru");
      const chosen = wanted ? companies.filter((c) => c.name.toLocaleLowerCase("ru") === wanted) : companies;
      if (wanted && chosen.length === 0) throw new UsageError(`компания «${args.company}» не найдена`);
      let active = 0;
      let archived = 0;
      for (const company of chosen) {
        for (const d of await deps.repos.calculations.listDamagedOfCompany(company.id)) {
          if (d.is_deleted) archived++;
          else active++;
          const where = d.project ? `проект ${d.project}` : "без проекта";
          io.log(`${company.name}: расчет ${d.id} (${d.type}, «${d.name}», ${where}${d.is_deleted ? ", в архиве" : ""}): ${d.problem}`);
        }
      }
      io.log(`Поврежденных расчетов: ${active}; в архиве: ${archived}`);
      // An archived one is seen to: only those still active ask for the operator.
      return active > 0 ? 1 : 0;
    }
    case "seed": {
      if (process.env.STORAGE === "dynamodb" && !process.env.UPLOADS_BUCKET) {
        throw new UsageError("в AWS укажите UPLOADS_BUCKET (вывод стека UploadsBucketName): модели прогноза хранятся в нем");
      }
      const dictionaries = await seedDictionaries(deps);
      const models = await seedDefaultModels(deps);
      const calendar = await seedProductionCalendar(deps);
      io.log(`Записано элементов справочников: ${dictionaries}; моделей прогноза: ${models}; лет производственного календаря: ${calendar}`);
      return;
    }
    case "rotate-jwt-secret": {
      const maxHours = deps.config.refreshTtlSeconds / 3600;
      const given = args["overlap-hours"];
      if (given !== undefined && !/^\d+([.,]\d+)?$/.test(given)) throw new UsageError("--overlap-hours: неотрицательное число часов");
      const hours = given === undefined ? maxHours : Number(given.replace(",", "."));
      // Past the refresh token's lifetime the old secret would outlive every token it signed.
      if (hours > maxHours) {
        throw new UsageError(`--overlap-hours: не больше срока действия токена обновления (${maxHours} ч)`);
      }
      const result = await rotateJwtSecret(rotationTarget(dataDir), Math.round(hours * 3600), deps.clock.now());
      io.log(`Секрет подписи токенов заменен; прежний действует до ${result.previousValidUntil.toISOString()}`);
      if (result.apiRestarted === false) {
        io.log("API_FUNCTION_NAME не указан: запущенные экземпляры API прочитают новый секрет при следующем холодном старте");
      } else if (result.apiRestarted) {
        io.log("Экземпляры API перезапущены с новым секретом");
      } else {
        io.log("Перезапустите сервер (npm start), чтобы он подписывал токены новым секретом");
      }
      return;
    }
    case "rotate-signing-key": {
      if (process.env.STORAGE === "dynamodb") {
        throw new UsageError("в AWS версии подписывает ключ KMS: добавьте новый ключ в стек и в конец VERSION_SIGNING_KEY_IDS");
      }
      const key = rotateLocalSigningKey(dataDir, deps.clock.now());
      io.log(`Ключ подписи версий заменен: ${key.fingerprint_sha256} (kid ${key.kid}). Перезапустите сервер (npm start)`);
      return;
    }
    default:
      throw new UsageError(command ? `неизвестная команда ${command}` : "не указана команда");
  }
}

function printReconcile(io: AdminOutput, name: string, report: ReconcileReport): void {
  if (report.failed !== undefined) io.log(`${name} (${report.company}): не сверено: ${report.failed}`);
  for (const { project, problem, calculations } of report.unapplied) {
    io.log(`${name} (${report.company}): проект ${project} не учтен потоком таблицы: ${problem}`);
    for (const c of calculations) io.log(`  расчет ${c.id} (${c.type}, «${c.name}»): ${c.problem}`);
  }
  if (!drifted(report)) return;
  const state = report.unsettled
    ? "не исправлено: данные менялись во время сверки, повторите"
    : report.repaired > 0
      ? "исправлено"
      : "не исправлено";
  io.log(`${name} (${report.company}): ${state}`);
  for (const { year, stored, counted } of report.drift) {
    const calculations = (f: typeof stored) => Object.values(f.calculations).reduce((n, c) => n + c, 0);
    io.log(
      `  ${year}: проекты ${stored.projects_active}/${stored.projects_archived} → ${counted.projects_active}/${counted.projects_archived}, ` +
        `расчеты ${calculations(stored)} → ${calculations(counted)}, т CO2-экв. ${stored.total_co2e} → ${counted.total_co2e}`,
    );
  }
  for (const { stored, counted } of report.lists) {
    io.log(
      `  проект ${stored.project}, расчеты ${stored.type}: действующие ${stored.active} → ${counted.active}, в архиве ${stored.archived} → ${counted.archived}`,
    );
  }
  for (const { project, difference } of report.bounds) {
    io.log(`  проект ${project}: занятое на строках под их пределом пересчитано по расчетам (строк: ${Object.keys(difference).length})`);
  }
}

function rotationTarget(dataDir: string): RotationTarget {
  if (process.env.STORAGE !== "dynamodb") return { kind: "local", dataDir };
  const secretArn = process.env.APP_SECRET_ARN;
  if (!secretArn) throw new UsageError("в AWS укажите APP_SECRET_ARN (вывод стека AppSecretArn)");
  return {
    kind: "aws",
    secrets: new SecretsManagerClient({ region: process.env.AWS_REGION }),
    secretArn,
    lambda: new LambdaClient({ region: process.env.AWS_REGION }),
    apiFunctionName: process.env.API_FUNCTION_NAME || undefined,
  };
}

/** The stack's buckets named by the same environment variables the API gets (stack outputs
 *  UploadsBucketName, DocumentsBucketName); an area whose bucket is not given cannot be written. */
function awsBlobStore() {
  const buckets = Object.entries(BLOB_AREAS).flatMap(([area, { bucket }]) => (process.env[bucket] ? [[area, process.env[bucket]!]] : []));
  return s3BlobStore(new S3Client({ region: process.env.AWS_REGION }), Object.fromEntries(buckets));
}

const BACKUP_COMMANDS = new Set(["backup", "restore", "verify-backup", "migrate-storage"]);

/** The commands on a data folder's files rather than its storage (local/backup.ts): none opens the
 *  folder's engine through the repositories. */
async function backupCommand(
  io: AdminOutput,
  dataDir: string,
  positionals: string[],
  args: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>["values"],
): Promise<number> {
  if (process.env.STORAGE === "dynamodb")
    throw new UsageError("резервные копии — для локальной установки; в AWS таблицу копирует DynamoDB (docs/deployment.md)");
  switch (positionals[0]) {
    case "backup": {
      const report = await takeBackup(dataDir, required(args.to, "to"), { dataFormat: () => readDataFormat(dataDir) });
      io.log(`Резервная копия записана: ${report.file} (${describeBackup(report.manifest)}; ${(report.duration_ms / 1000).toFixed(1)} с)`);
      return 0;
    }
    case "migrate-storage": {
      const moved = await migrateLevelDb(dataDir, STORE_DIR);
      if (!moved) {
        io.log(`В папке ${dataDir} нет хранилища LevelDB: переносить нечего`);
        return 0;
      }
      io.log(
        `Хранилище перенесено в SQLite: записей ${moved.to.records} (элементов ${Object.values(moved.to.items).reduce((sum, n) => sum + n, 0)}), ` +
          `SHA-256 ${moved.to.sha256} совпадает с прежним; прежняя папка сохранена как ${moved.kept}: удалите ее, когда убедитесь, что данные на месте (${(moved.duration_ms / 1000).toFixed(1)} с)`,
      );
      return 0;
    }
    case "verify-backup": {
      const file = positionals[1] ?? args.from;
      if (!file) throw new UsageError("укажите файл копии: verify-backup FILE");
      const manifest = await verifyBackup(file);
      io.log(`Копия цела: ${file}, сделана ${manifest.created_at} на ${manifest.host} (${describeBackup(manifest)})`);
      return 0;
    }
    default: {
      const from = required(args.from, "from");
      const manifest = await restoreBackup(from, dataDir, ({ data_format }) => {
        if (data_format !== undefined && data_format > CURRENT_DATA_FORMAT) {
          throw new DataFormatError(
            `Копия ${from} сделана более новой версией платформы (формат папки данных ${data_format}, эта версия понимает до ${CURRENT_DATA_FORMAT}): восстановите ее той версией или более новой`,
          );
        }
      });
      io.log(
        `Копия от ${manifest.created_at} восстановлена в ${dataDir} (${describeBackup(manifest)}). Запустите сервер с DATA_DIR=${dataDir}`,
      );
      return 0;
    }
  }
}

/** Runs one admin command line; resolves to the process's exit code (2: usage, 1: refused). */
export async function adminCommand(argv: string[], io: AdminOutput = console): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    io.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    io.log(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  const dataDir = dataDirFromEnv();
  if (BACKUP_COMMANDS.has(parsed.positionals[0]!)) {
    try {
      return await backupCommand(io, dataDir, parsed.positionals, parsed.values);
    } catch (error) {
      if (error instanceof UsageError) {
        io.error(`Ошибка: ${error.message}\n\n${USAGE}`);
        return 2;
      }
      if (error instanceof BackupError || error instanceof DataFormatError || error instanceof StorageMigrationError) {
        io.error(`Ошибка: ${error.message}`);
        return 1;
      }
      throw error;
    }
  }
  if (process.env.STORAGE !== "dynamodb") {
    try {
      await checkDataFormat(dataDir);
    } catch (error) {
      if (!(error instanceof DataFormatError)) throw error;
      io.error(`Ошибка: ${error.message}`);
      return 1;
    }
  }
  const storage = await openSharedStorage(dataDir);
  const deps: Deps = {
    repos: storage.repos,
    blobs: process.env.STORAGE === "dynamodb" ? awsBlobStore() : fsBlobStore(join(dataDir, "blobs")),
    clock: systemClock,
    // The admin command signs no tokens; the secret is only there to complete the config.
    // On the AWS table the passwords are real ones: hashed at the production cost whatever the shell says.
    config: { ...configFromEnv(randomBytes(32)), passwordCost: process.env.STORAGE === "dynamodb" ? undefined : passwordCostFromEnv() },
    spreadsheets: inProcessSpreadsheets(() => deps),
    // The admin command approves no version: a key of its own completes the dependencies.
    signer: ephemeralSigner(),
    // The local host's subscribers, in this process: the admin command's own writes heard as the server's.
    runtime: localRuntime(() => deps),
  };
  try {
    return (await run(io, deps, storage.settled, dataDir, parsed.positionals[0], parsed.values)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.error(`Ошибка: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof DomainError) {
      io.error(`Ошибка: ${error.detail}`);
      return 1;
    }
    throw error;
  } finally {
    await storage.close();
  }
}
