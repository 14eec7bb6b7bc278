// Company requisites as the admin API accepts them (docs/api.md: name, e-mail, ОГРН, ОКВЭД, region,
// postal address; ИНН and КПП for the 296-FZ report). The /admin company form validates with the same schema.
import * as z from "zod";
import { TIME_ZONE_NAMES } from "@core/company-clock";
import { requiredName } from "./common";
import { LIMITS } from "./limits";

export const COMPANY_NAME_MAX: number = LIMITS.name.company;
export const COMPANY_TEXT_MAX: number = LIMITS.text.companyText;

/** ОГРН (13 digits) or ОГРНИП (15 digits) with a correct check digit.
 *  ОГРН: the last digit = (first 12 digits as a number mod 11) mod 10.
 *  ОГРНИП: the last digit = (first 14 digits mod 13) mod 10.
 *  (Приказ ФНС России от 18.02.2020 № ЕД-7-14/110@ describes the registration number structure; the
 *  rule is the one the ФНС «Прозрачный бизнес» service and every registry client check.) */
export function isValidOgrn(value: string): boolean {
  const divisor = value.length === 13 ? 11n : value.length === 15 ? 13n : undefined;
  if (!divisor || !/^\d+$/.test(value)) return false;
  const body = BigInt(value.slice(0, -1));
  const check = Number((body % divisor) % 10n);
  return check === Number(value.at(-1));
}

/** ИНН with correct check digits: 10 digits (an organisation), 12 (an individual entrepreneur).
 *  Each check digit = (Σ digit × weight mod 11) mod 10 (the ФНС rule every registry client checks). */
export function isValidInn(value: string): boolean {
  if (!/^\d{10}$|^\d{12}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = (weights: number[]) => (weights.reduce((sum, w, i) => sum + w * digits[i], 0) % 11) % 10;
  if (digits.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === digits[9];
  return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === digits[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === digits[11];
}

/** КПП: the tax office (4 digits), the reason (2 digits or capital Latin letters), a number (3
 *  digits). It has no check digit. */
export const KPP_RE = /^\d{4}[\dA-Z]{2}\d{3}$/;

/** ОКВЭД 2 code: NN.NN with an optional third level .N or .NN (e.g. 05.10, 05.10.1, 46.71.11). */
export const OKVED_RE = /^\d{2}\.\d{2}(\.\d{1,2})?$/;

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (max = COMPANY_TEXT_MAX) => z.string("ожидается строка").check(z.trim(), z.maxLength(max, `не длиннее ${max} символов`));

const name = requiredName("укажите название компании", COMPANY_NAME_MAX);

/** A phone number as people write it: digits, spaces, +, parentheses, hyphens; 5–15 digits. */
export const PHONE_RE = /^\+?[\d\s()-]+$/;
export function isValidPhone(value: string): boolean {
  const digits = value.replace(/\D/g, "").length;
  return PHONE_RE.test(value) && digits >= 5 && digits <= 15;
}

/** ИНН and КПП begin with the code of the tax office that gave them: 0000 is no office's (a value of
 *  zeros passes the check digits). */
const NO_TAX_OFFICE = "0000";

/** The requisites' rules, each once: the problem with a filled-in value as users read it at the
 *  field, or undefined. The schemas below, the domain (for callers that skip them) and the web's
 *  forms, before sending, read them. */
export const REQUISITE_RULES = {
  email: (v: string) => (EMAIL_RE.test(v) ? undefined : "Укажите корректный e-mail"),
  ogrn: (v: string) => (isValidOgrn(v) ? undefined : "ОГРН — 13 цифр, ОГРНИП — 15 цифр, с верной контрольной цифрой"),
  okved: (v: string) => (OKVED_RE.test(v) ? undefined : "Код ОКВЭД в формате NN.NN или NN.NN.NN"),
  inn: (v: string) =>
    !isValidInn(v)
      ? "ИНН — 10 цифр (организация) или 12 цифр, с верными контрольными цифрами"
      : v.startsWith(NO_TAX_OFFICE)
        ? "ИНН с кодом налогового органа 0000 не выдается"
        : undefined,
  kpp: (v: string) =>
    !KPP_RE.test(v)
      ? "КПП — 9 знаков, например 420501001"
      : v.startsWith(NO_TAX_OFFICE)
        ? "КПП с кодом налогового органа 0000 не выдается"
        : undefined,
  responsible_phone: (v: string) => (isValidPhone(v) ? undefined : "Телефон — от 5 до 15 цифр, например +7 (3842) 12-34-56"),
  responsible_email: (v: string) => (EMAIL_RE.test(v) ? undefined : "Укажите корректный e-mail"),
} as const;

export type RuledRequisite = keyof typeof REQUISITE_RULES;

/** How long each ruled requisite may be, in characters: the schemas refuse more, the forms take no more. */
export const REQUISITE_MAX: Record<RuledRequisite, number> = {
  email: LIMITS.email,
  ogrn: 15,
  okved: 8,
  inn: 12,
  kpp: 9,
  responsible_phone: 40,
  responsible_email: LIMITS.email,
};

/** The problem with a requisite as typed (trimmed; empty is no problem), or undefined. */
export function requisiteProblem(field: RuledRequisite, value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === "" ? undefined : REQUISITE_RULES[field](trimmed);
}

/** What a company keeps once set (the 296-FZ report and its passport name the company by them): its
 *  staff may correct them on Профиль but not blank them. */
export const KEPT_REQUISITES = { inn: "ИНН", kpp: "КПП", ogrn: "ОГРН" } as const;

export const keptRequisiteProblem = (field: keyof typeof KEPT_REQUISITES) =>
  `${KEPT_REQUISITES[field]} уже указан — его можно исправить, но не стереть`;

/** A text field checked by its rule, the message named by the field (docs/api.md: «field: text»). */
const ruled = (field: RuledRequisite) =>
  text(REQUISITE_MAX[field]).check(
    z.superRefine((value, ctx) => {
      const problem = requisiteProblem(field, value);
      if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
    }),
  );

const email = ruled("email");
const ogrn = ruled("ogrn");
const okved = ruled("okved");
const inn = ruled("inn");
const kpp = ruled("kpp");

const phone = ruled("responsible_phone");
const responsibleEmail = ruled("responsible_email");

const requisites = {
  email: z.optional(email),
  ogrn: z.optional(ogrn),
  inn: z.optional(inn),
  kpp: z.optional(kpp),
  okved: z.optional(okved),
  region: z.optional(text()),
  postal_address: z.optional(text()),
  // Methodology 8.1: the person responsible for the report, printed on its passport.
  responsible_name: z.optional(text(COMPANY_NAME_MAX)),
  responsible_position: z.optional(text(COMPANY_NAME_MAX)),
  responsible_phone: z.optional(phone),
  responsible_email: z.optional(responsibleEmail),
  // The zone whose calendar dates the company's documents, exports and screens print.
  time_zone: z.optional(z.enum(TIME_ZONE_NAMES, "выберите часовой пояс из списка")),
};

export const companyCreateSchema = z.object({ name, ...requisites });
export const companyPatchSchema = z.object({ name: z.optional(name), ...requisites });

/** What a company's own staff may change on Профиль (docs/user-guide.md): its name and contacts, the
 *  registry details and the person responsible — every requisite the admin's form has. */
export const ownCompanyPatchSchema = companyPatchSchema.pick({
  name: true,
  email: true,
  region: true,
  inn: true,
  kpp: true,
  ogrn: true,
  okved: true,
  postal_address: true,
  responsible_name: true,
  responsible_position: true,
  responsible_phone: true,
  responsible_email: true,
  time_zone: true,
});

export type CompanyCreateInput = z.infer<typeof companyCreateSchema>;
export type CompanyPatchInput = z.infer<typeof companyPatchSchema>;
export type OwnCompanyPatchInput = z.infer<typeof ownCompanyPatchSchema>;
