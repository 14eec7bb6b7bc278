// The plotly chunk, imported only with import() by the infographics screen: react-plotly.js's
// factory bound to plotly's basic partial bundle (scatter, bar, pie; ~1 MB instead of ~4.6 MB for
// the full build). package.json overrides react-plotly.js's peer "plotly.js" with the same basic
// bundle, so the full build is never installed. The bundle uses no eval or new Function, so it
// runs under the CSP (script-src 'self'); it writes its styles into <style> elements, which
// style-src 'unsafe-inline' allows.
import createPlotlyComponent from "react-plotly.js/factory";
import Plotly from "plotly.js-basic-dist-min";

// Russian texts of the mode bar; the basic bundle ships only the English dictionary.
Plotly.register({
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
} as never);

export { Plotly };
export default createPlotlyComponent(Plotly);
