// One company per name as a reader sees it, and per legal entity: a name that only looks like
// another's (another dash, a zero-width space, a Latin «o» among the Cyrillic, other quotes or
// spaces) is the same name, and another company's ИНН or ОГРН with its КПП are that company's (a
// branch has a КПП of its own under its parent's ИНН and ОГРН).
import type { Actor, Deps } from "../context";
import { Conflict } from "../errors";
import type { Company } from "../../ports";
import { lineOf } from "../../contract/field-errors";

/** Latin letters drawn like Cyrillic ones (lower case), as a reader cannot tell them apart. */
const LATIN_AS_CYRILLIC: Record<string, string> = {
  a: "а",
  b: "в",
  c: "с",
  e: "е",
  h: "н",
  k: "к",
  m: "м",
  o: "о",
  p: "р",
  t: "т",
  x: "х",
  y: "у",
};

/** What a name reads as: compatibility forms folded (NFKC), invisible characters dropped, case, ё,
 *  look-alike Latin letters, and every run of punctuation, dashes, quotes and spaces made one space. */
export function lookAlikeKey(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/[\p{Cf}\p{Cc}]/gu, "")
    .toLocaleLowerCase("ru")
    .replaceAll("ё", "е")
    .replace(/[abcehkmoptxy]/g, (letter) => LATIN_AS_CYRILLIC[letter])
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Whether two companies' names read the same. */
export const sameName = (a: string, b: string) => lookAlikeKey(a) === lookAlikeKey(b);

/** 409 when another company (not `self`'s) has a name that reads as `name`. */
export async function refuseTakenName(deps: Pick<Deps, "repos">, self: Pick<Actor, "company"> | undefined, name: string): Promise<void> {
  const twin = await deps.repos.companies.findByName(name);
  if (twin && twin.id !== self?.company) throw new Conflict(`Компания «${name}» уже существует`);
}

/** 409 when another company (not `self`'s) has the ИНН, or the ОГРН, of `requisites` with its КПП.
 *  The other company is not named: its requisites are its own. */
export async function refuseTakenRequisites(
  deps: Pick<Deps, "repos">,
  self: Pick<Actor, "company"> | undefined,
  requisites: Partial<Pick<Company, "inn" | "kpp" | "ogrn">>,
): Promise<void> {
  const kpp = requisites.kpp ?? "";
  const others = (await deps.repos.companies.list()).filter((c) => c.id !== self?.company);
  for (const [field, label] of [
    ["inn", "ИНН"],
    ["ogrn", "ОГРН"],
  ] as const) {
    const value = requisites[field];
    if (value && others.some((c) => c[field] === value && (c.kpp ?? "") === kpp)) {
      throw new Conflict(
        lineOf({
          field,
          message:
            `${label} ${value}${kpp ? ` с КПП ${kpp}` : ""} уже указан у другой организации на платформе — ` +
            "проверьте реквизиты или обратитесь к администратору платформы",
        }),
      );
    }
  }
}
