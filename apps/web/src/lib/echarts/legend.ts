export { LegendComponent as default } from "echarts/components";
