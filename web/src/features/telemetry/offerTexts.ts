// The figures «Данные АГК» and its dialog print alike.
export const number = (value: number, digits: number) =>
  value.toLocaleString("ru-RU", { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const percent = (share: number) => `${number(share * 100, 2)} %`;
export const monthText = (month: string) => `${month.slice(5)}.${month.slice(0, 4)}`;
