import { addTexts } from "../lib/i18n.ts";

export const pluginTexts = {
  plugins: {
    medal: "Medal",
    medal_gold: "Gold medal",
    medal_silver: "Silver medal",
    medal_bronze: "Bronze medal",
    medal_first_blood: "First blood!",
    unknown_medal: "Unknown medal type",
    choices: "Choices",
    choices_help: "One answer per line. Set the flag (plaintext) to the right answer.",
    choose: "Choose an answer",
  },
};

addTexts(pluginTexts);
