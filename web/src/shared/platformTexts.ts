// Product wording shared by the login page, the header and the landing page (docs/user-guide.md).
export const PLATFORM_TITLE = "Цифровая платформа расчета неорганизованных выбросов";

export const PLATFORM_SUBTITLE = "Расчет и мониторинг неорганизованных выбросов метана (CH₄) и диоксида углерода (CO₂) при добыче угля";

export const FUNDING_NOTE =
  "Платформа разработана научно-исследовательским институтом угольной отрасли в рамках государственной программы финансирования научных исследований.";
