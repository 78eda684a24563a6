import { addTexts } from "./i18n.ts";

/** English texts of rendered markdown. */
export const markdownTexts = {
  markdown: {
    task_done: "Done",
    task_open: "Not done",
    footnotes: "Footnotes",
    back_to_reference: "Back to reference {{reference}}",
    code: "Code",
    code_in: "Code ({{language}})",
  },
};

addTexts(markdownTexts);
