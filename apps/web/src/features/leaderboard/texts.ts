import { addTexts } from "../../lib/i18n.ts";

/** English texts of the projector board. */
export const projectorTexts = {
  projector: {
    time_now: "Time",
    first_bloods: "Latest first bloods",
    first_blood_by: "{{challenge}}, first solved by {{solver}} at {{time}}",
    no_first_bloods: "No first bloods yet.",
    frozen: "Scoreboard frozen since {{time}}",
    frozen_ended: "Frozen since {{time}}: the final board is revealed at the prize-giving",
  },
};

addTexts(projectorTexts);
