// What a dispatch file's cells may be written as: one text for the upload dialog, the
// refusal of a time and docs/api.md. Plain constants, schema-free.

/** The times a dispatch file's line may carry: on the company's clock, seconds optional («T» may stand
 *  for the space), the year in four digits or two, the date in the time's cell or a column of its own;
 *  or ISO 8601 with its zone. */
export const DISPATCH_TIME_FORMATS =
  "«ДД.ММ.ГГГГ ЧЧ:ММ:СС» или «ДД.ММ.ГГГГ ЧЧ:ММ» (год можно двумя цифрами, «ДД.ММ.ГГ»; дата и время могут быть в отдельных столбцах «Дата» и «Время») по часам компании, или ISO 8601 с часовым поясом";
/** The values: a decimal comma or dot, digits grouped by a space. */
export const DISPATCH_VALUE_FORMATS = "десятичная запятая или точка («0,45», «7.21»), разряды через пробел";
