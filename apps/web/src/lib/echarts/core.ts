// echarts' core and the SVG renderer; each chart type and component loads on its own (pieces.ts).
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

echarts.use([SVGRenderer]);

export { echarts };
