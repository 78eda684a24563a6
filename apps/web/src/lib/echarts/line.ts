export { LineChart as default } from "echarts/charts";
