export { BarChart as default } from "echarts/charts";
