// What the report passport costs per calculation (docs/performance.md, «Report passport»): the
// layout alone, from a passport of N sources shaped as the inventory builds them (an underground
// mine's line: the activity datum, five coefficients with their sources and tiers, CO2 and CH4),
// so the figure is pdfkit's and exceljs's, not the reads'. `npm run bench -- passport`; with
// `--rss` it also renders the 10 000-source PDF and xlsx in one process and prints its peak RSS
// (sampled every 10 ms), against the job function's 1 536 MB (infra/lib/stack.ts).
import { performance } from "node:perf_hooks";
import type { Passport, PassportSource } from "@server/export/inventory-passport";
import { passportPdf } from "@server/export/inventory-passport-pdf";
import { passportXlsx } from "@server/export/inventory-passport-xlsx";

const SIZES = (process.env.PASSPORT_SIZES ?? "100,1000,3000").split(",").map(Number);
const RSS_SIZE = 10_000;

const coefficient = (label: string, value: number, unit: string, tier: string) => ({
  label,
  value,
  unit,
  decimals: 4,
  source: "Приказ Минприроды России № 371 от 27.05.2022, табл. 1.2, запись 3 (версия 1)",
  tier,
});

function source(i: number): PassportSource {
  const volume = 1000 + (i % 997) * 13.7;
  const gases = [
    { gas: "CO2" as const, t: (volume * 10.6 * 1.8393) / 100, t_co2e: (volume * 10.6 * 1.8393) / 100 },
    { gas: "CH4" as const, t: (volume * 76 * 0.668) / 100, t_co2e: ((volume * 76 * 0.668) / 100) * 28 },
  ];
  // Every third source gave up part of its methane to a flare (D26: gross, netting, net).
  const netting = i % 3 === 0 ? [{ gas: "CH4" as const, t: gases[1].t / 4, t_co2e: gases[1].t_co2e / 4 }] : [];
  const net = gases.map((g) => (g.gas === "CH4" && netting.length ? { ...g, t: g.t * 0.75, t_co2e: g.t_co2e * 0.75 } : g));
  return {
    gases,
    netting,
    net,
    t_co2e: net.reduce((sum, g) => sum + g.t_co2e, 0),
    name: `Расчет выбросов шахты № ${i + 1}`,
    project: `Шахта «Северная» — ${2025}`,
    point:
      i % 2 === 0
        ? `Источник выбросов «Вентиляционный ствол № ${(i % 5) + 1}» (вентиляционный ствол (вентилятор)); средство измерений: АПР-2; периодичность измерений: непрерывно`
        : "",
    ipcc: "1.B.1.a.i.1 Подземная добыча: добыча",
    method: "Коэффициенты Приказа № 371 (уровень 1). Газ принят за 100 % CH4",
    formula: "Приказ № 371, формула 1.1: E = V × EF × ρ × 10⁻³",
    period: i % 3 === 0 ? "01.01.2025 — 31.12.2025" : "",
    activity: [{ label: "Добыча угля", value: volume, unit: "тыс. т", decimals: 2, tier: "" }],
    coefficients: [
      coefficient("Плотность CO2", 1.8393, "кг/м³", "Уровень 1"),
      coefficient("Плотность CH4", 0.668, "кг/м³", "Уровень 1"),
      coefficient("Содержание CO2", 10.6, "% об.", "Уровень 3 (измерения организации)"),
      coefficient("Содержание CH4", 76, "% об.", "Уровень 3 (измерения организации)"),
      coefficient("Коэффициент выбросов CH4", 18 + (i % 7), "м³/т", "Уровень 1"),
    ],
  };
}

/** A passport of `n` sources over two facilities, the rest of its sections as a real year has them. */
export function syntheticPassport(n: number): Passport {
  const half = Math.ceil(n / 2);
  const facility = (name: string, from: number, count: number) => ({
    name,
    details: "Добыча угля подземным способом, Кемеровская область — Кузбасс",
    t_co2e: 1_000_000,
    categories: [
      {
        title: "Категория 3. Выбросы от подземной добычи угля: 1 000 000,00 т CO2-экв.",
        t_co2e: 1_000_000,
        sources: Array.from({ length: count }, (_, k) => source(from + k)),
      },
    ],
  });
  return {
    title: "Паспорт отчета о выбросах парниковых газов за 2025 год",
    requisites: [
      ["Наименование", "АО «Угольная компания»"],
      ["ИНН", "7707083893"],
      ["КПП", "770701001"],
      ["Адрес", "650000, г. Кемерово, ул. Весенняя, д. 5"],
    ],
    period: "01.01.2025 — 31.12.2025",
    responsible: [
      ["ФИО", "Иванов Иван Иванович"],
      ["Должность", "Главный эколог"],
      ["Телефон", "+7 384 200-00-00"],
      ["Электронная почта", "eco@example.com"],
    ],
    signing: "15.03.2026",
    year: 2025,
    status: "Утверждена",
    approvals: ["Утверждена 14.03.2026, Петров Петр"],
    version: { number: 1, sha256: "0".repeat(64) },
    scope: "Все площадки",
    gwp: "ПГП CH4 = 28 (AR5)",
    facilities: [facility("Шахта «Северная»", 0, half), facility("Шахта «Южная»", half, n - half)],
    totals: [{ category: "3", ipcc: "1.B.1.a.i.1", gas: "CH4", t: 35_714, t_co2e: 1_000_000 }],
    gases: [
      { gas: "CO2", t: 100_000, t_co2e: 100_000, note: "" },
      { gas: "CH4", t: 35_714, t_co2e: 1_000_000, note: "" },
      { gas: "N2O", t: null, t_co2e: null, note: "Не образуется" },
    ],
    activity: [{ facility: "Шахта «Северная»", label: "Добыча угля подземным способом", value: 2_450_000.5, unit: "т", decimals: 2 }],
    measurements: [],
    destruction: [],
    balance: [],
    total_t_co2e: 1_100_000,
    rounding: {},
    threshold: "Отчет обязателен: выбросы организации 1 100 000 т CO2-экв. (296-ФЗ, ст. 14, ч. 2–3; постановление № 355)",
    measured_vs_estimated: "Сравнивать не с чем: нет шахты с измеренным выбросом и оценкой по добыче угля",
    checks: [],
    footnote: "Паспорт повторяет сведения формы отчета.",
    generated: "24.11.2026 04:00",
    issued: new Date("2026-11-24T01:00:00Z"),
    zone: "Asia/Novokuznetsk",
  } as Passport;
}

/** Wall time and this process's CPU time (user + system): on a shared machine the CPU time is the
 *  figure that holds still. */
async function timed(render: () => Promise<Uint8Array>): Promise<{ ms: number; cpu: number; bytes: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const bytes = await render();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpu: (used.user + used.system) / 1000, bytes: bytes.byteLength };
}

export async function run(): Promise<void> {
  // The fonts and pdfkit's first layout are loaded once, outside the figures.
  await passportPdf(syntheticPassport(10));
  console.log("sources  PDF wall ms  CPU ms/source  PDF MB  xlsx wall ms  CPU ms/source  xlsx MB");
  for (const n of SIZES) {
    const passport = syntheticPassport(n);
    const pdf = await timed(() => passportPdf(passport));
    const xlsx = await timed(() => passportXlsx(passport));
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1).padStart(6);
    console.log(
      `${String(n).padStart(7)}  ${pdf.ms.toFixed(0).padStart(11)}  ${(pdf.cpu / n).toFixed(2).padStart(13)}  ${mb(pdf.bytes)}  ` +
        `${xlsx.ms.toFixed(0).padStart(12)}  ${(xlsx.cpu / n).toFixed(2).padStart(13)}  ${mb(xlsx.bytes)}`,
    );
  }
  if (process.argv.includes("--rss")) {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const passport = syntheticPassport(RSS_SIZE);
    const pdf = await timed(() => passportPdf(passport));
    const xlsx = await timed(() => passportXlsx(passport));
    clearInterval(sampler);
    console.log(
      `${RSS_SIZE} sources in one process: PDF ${(pdf.ms / 1000).toFixed(1)} s, xlsx ${(xlsx.ms / 1000).toFixed(1)} s, ` +
        `peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`,
    );
  }
}
