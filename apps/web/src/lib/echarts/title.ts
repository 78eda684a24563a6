export { TitleComponent as default } from "echarts/components";
