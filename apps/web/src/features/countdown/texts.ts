import { addTexts } from "../../lib/i18n.ts";

/** The countdown's unit names: short on the badge, spelt out for screen readers. */
addTexts({
  countdown: {
    short_d: "{{count}} d",
    short_h: "{{count}} h",
    short_m: "{{count}} m",
    short_s: "{{count}} s",
    long_d_one: "{{count}} day",
    long_d_other: "{{count}} days",
    long_h_one: "{{count}} hour",
    long_h_other: "{{count}} hours",
    long_m_one: "{{count}} minute",
    long_m_other: "{{count}} minutes",
    long_s_one: "{{count}} second",
    long_s_other: "{{count}} seconds",
  },
});
