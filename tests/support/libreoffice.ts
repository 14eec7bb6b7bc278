// LibreOffice (Debian's libreoffice-calc-nogui, installed by .ci/run) as an independent reader of
// the xls export: every sheet converted to CSV as shown (number formats applied), UTF-8.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const LIBREOFFICE = ["/usr/bin/libreoffice", "/usr/bin/soffice"].find((path) => existsSync(path));

/** The user profile of this process's conversions, kept from one to the next: a start in a new
 *  profile fills it first, about 0,3 s more CPU and 0,4-1,8 s more wall time than a start in a filled
 *  one. Parallel workers must not share (and lock) one, hence the pid; a worker's conversions take turns. */
const profile = () => `-env:UserInstallation=file://${join(tmpdir(), `libreoffice-profile-${process.pid}`)}`;

/** Sheet name → CSV text. Filter options: comma, double quote, UTF-8, row 1, formatted as shown, all sheets. */
export function xlsToCsv(bytes: Uint8Array): Map<string, string> {
  return xlsToCsvs([bytes])[0];
}

/** Several books each read as `xlsToCsv` reads one, by one LibreOffice (its start is most of a small
 *  book's conversion). */
export function xlsToCsvs(books: Uint8Array[]): Map<string, string>[] {
  if (!LIBREOFFICE) throw new Error("LibreOffice is not installed");
  const dir = mkdtempSync(join(tmpdir(), "xls-"));
  try {
    const names = books.map((bytes, i) => {
      writeFileSync(join(dir, `book${i}.xls`), bytes);
      return join(dir, `book${i}.xls`);
    });
    execFileSync(
      LIBREOFFICE,
      [
        profile(),
        "--headless",
        "--convert-to",
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1",
        "--outdir",
        dir,
        ...names,
      ],
      { timeout: 120_000, stdio: "pipe" },
    );
    const sheets = books.map(() => new Map<string, string>());
    for (const file of readdirSync(dir)) {
      const match = /^book(\d+)-(.*)\.csv$/.exec(file);
      if (match) sheets[Number(match[1])].set(match[2], readFileSync(join(dir, file), "utf8"));
    }
    sheets.forEach((book, i) => {
      const whole = join(dir, `book${i}.csv`);
      if (book.size === 0 && existsSync(whole)) book.set("", readFileSync(whole, "utf8"));
    });
    return sheets;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A CSV opened as a Russian user's spreadsheet opens it: `;` between cells, UTF-8, the Russian
 *  locale (LCID 1049: decimal commas) reading numbers and dates, saved as .xlsx. */
export function russianCsvToXlsx(bytes: Uint8Array): Uint8Array {
  return russianCsvsToXlsx([bytes])[0];
}

/** Several CSVs each opened and saved as `russianCsvToXlsx` does, by one LibreOffice (its start
 *  is most of a conversion's time). */
export function russianCsvsToXlsx(files: Uint8Array[]): Uint8Array[] {
  if (!LIBREOFFICE) throw new Error("LibreOffice is not installed");
  const dir = mkdtempSync(join(tmpdir(), "csv-ru-"));
  try {
    const names = files.map((bytes, i) => {
      writeFileSync(join(dir, `book${i}.csv`), bytes);
      return join(dir, `book${i}.csv`);
    });
    execFileSync(
      LIBREOFFICE,
      [profile(), "--headless", "--infilter=CSV:59,34,76,1,,1049,false,true", "--convert-to", "xlsx", "--outdir", dir, ...names],
      { timeout: 120_000, stdio: "pipe" },
    );
    return files.map((_, i) => readFileSync(join(dir, `book${i}.xlsx`)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
