// Issue 105 item 6: an error's detail names its field in Russian («Дата: день 27.11.2026 еще не
// наступил», not «date: …»). The request names a field as the API spells it (`date`, `readings[3].t`);
// the answer's `errors` keep that spelling for machines (field-errors.ts) and the detail says each named
// part in words, an index as the item's number. The names are those of the mine's monitoring routes (the
// sensor register, the readings, the journal and gassings, events, live tiles, limits and facilities:
// field-names.test.ts holds every field those routes take to a name here); a field of another route not
// named here is said as the API spells it.

export const FIELD_NAMES: Readonly<Record<string, string>> = {
  act: "Акт",
  address: "Адрес",
  alarm: "Аварийный уровень A",
  area_m2: "Площадь сечения",
  batch: "Пакет показаний",
  cause: "Причина загазирования",
  chief_engineer: "Главный инженер",
  cleared_by: "Кто разгазировал",
  channels: "Каналы выработки",
  close: "Закрытие",
  co2_content_pct: "Содержание CO2",
  co2_content_source: "Источник содержания CO2",
  coal_t: "Потери добычи угля, т",
  code: "Код",
  comment: "Комментарий",
  conditions: "Условия расхода",
  content_type: "Тип файла",
  date: "Дата",
  development_m: "Потери проходки, м",
  dry_run: "Проверка без сохранения",
  duty: "Должность подтверждающего",
  edition: "Редакция",
  event: "Событие",
  events: "События",
  facility: "Площадка",
  features: "Столбцы модели",
  file_upload: "Файл",
  format: "Формат",
  frequency: "Периодичность",
  from: "Начало периода",
  gassing: "Загазирование",
  head_ab: "Начальник АБ",
  head_section: "Начальник участка",
  horizon: "Горизонт прогноза",
  id: "Идентификатор",
  in_service_from: "В эксплуатации с",
  in_service_to: "В эксплуатации по",
  instrument: "Средство измерения",
  investigated_by: "Кто расследовал",
  is_active: "Действует",
  key: "Ключ",
  kind: "Вид",
  label: "Название",
  level: "Уровень",
  licence_number: "Номер лицензии",
  limit: "Предел",
  limit_pct: "Предел, % об.",
  losses: "Потери",
  max_events: "Наибольшее число событий",
  measures: "Меры",
  method: "Метод",
  model: "Модель",
  month: "Месяц",
  months: "Месяцы",
  name: "Название",
  notified: "Оповещены",
  offset: "Смещение",
  place: "Место установки",
  point: "Источник выбросов",
  project: "Проект",
  readings: "Показания",
  reason: "Причина",
  role: "Роль",
  rostekhnadzor: "Ростехнадзор",
  rows: "Строки",
  section: "Участок",
  sensor: "Датчик",
  shift: "Смена",
  size: "Размер",
  t: "Время",
  to: "Конец периода",
  type: "Тип",
  valid_from: "Действует с",
  valid_to: "Действует по",
  value: "Значение",
  version: "Версия",
  warning: "Предупредительный уровень W",
  working: "Выработка",
  year: "Год",
};

/** A request's field in words: each part by its Russian name, an index as its item's number
 *  («readings[2].t» → «Показания, № 3, Время»); as the API spells it where a part has none here. */
export function fieldName(field: string): string {
  const parts = field.split(/\.|(?=\[)/).filter((part) => part !== "");
  // A field with a part not named here (another route's) is said as the API spells it.
  if (!parts.every((part) => part in FIELD_NAMES || /^\[\d+\]$/.test(part))) return field;
  return parts
    .map((part) => {
      const index = /^\[(\d+)\]$/.exec(part);
      return index ? `№ ${Number(index[1]) + 1}` : FIELD_NAMES[part];
    })
    .join(", ");
}
