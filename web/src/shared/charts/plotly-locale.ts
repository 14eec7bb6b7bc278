// Russian texts of the mode bar and number format, registered by each plotly bundle the app loads
// (plotly.ts, plotly-strict.ts).
export const PLOTLY_RU = {
  moduleType: "locale",
  name: "ru",
  dictionary: {
    "Download plot as a PNG": "Скачать как PNG",
    "Download plot": "Скачать",
    "Taking snapshot - this may take a few seconds": "Сохранение изображения…",
    "Image download succeeded": "Изображение сохранено",
    Reset: "Сбросить",
    Zoom: "Масштаб",
    Pan: "Сдвиг",
    "Zoom in": "Увеличить",
    "Zoom out": "Уменьшить",
    Autoscale: "Автомасштаб",
    "Reset axes": "Сбросить оси",
    "Box Select": "Выделение прямоугольником",
    "Lasso Select": "Выделение лассо",
    "Show closest data on hover": "Ближайшие данные при наведении",
    "Compare data on hover": "Сравнить данные при наведении",
    "Toggle Spike Lines": "Направляющие линии",
    "Double-click to zoom back out": "Двойной щелчок — вернуть масштаб",
  },
  format: { decimal: ",", thousands: " " },
} as never;
