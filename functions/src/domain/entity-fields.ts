// The labels of the company's requisites, a facility's and an emission point's fields as the
// profile's forms show them: the change log of the requisites (company/requisites-audit.ts) and what
// changed after a year was sent for review (inventory/sent.ts) name a field by them.
/** The fields shown, in the order of the profile's forms, with their labels there. */
export const COMPANY_FIELDS: Record<string, string> = {
  name: "Название",
  email: "E-mail",
  ogrn: "ОГРН / ОГРНИП",
  okved: "ОКВЭД",
  inn: "ИНН",
  kpp: "КПП",
  region: "Регион",
  postal_address: "Почтовый адрес",
  responsible_name: "Ответственный за отчет: ФИО",
  responsible_position: "Должность",
  responsible_phone: "Телефон ответственного",
  responsible_email: "E-mail ответственного",
  time_zone: "Часовой пояс",
};
export const FACILITY_FIELDS: Record<string, string> = {
  name: "Название",
  kind: "Тип",
  licence_number: "Номер лицензии",
  address: "Адрес",
  is_active: "Площадка действует",
};
export const POINT_FIELDS: Record<string, string> = {
  name: "Название",
  kind: "Вид источника",
  instrument: "Средство измерений",
  frequency: "Периодичность измерений",
  in_service_from: "В эксплуатации с",
  in_service_to: "В эксплуатации по",
  co2_content_pct: "Содержание CO2, % об.",
  co2_content_source: "Источник содержания CO2",
  is_active: "Источник действует",
};
