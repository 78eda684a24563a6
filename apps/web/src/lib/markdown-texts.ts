import i18next from "i18next";

/** English texts of rendered markdown. */
export const markdownTexts = {
  markdown: {
    task_done: "Done",
    task_open: "Not done",
  },
};

i18next.addResourceBundle("en", "translation", markdownTexts, true, false);
