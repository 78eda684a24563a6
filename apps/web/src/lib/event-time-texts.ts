import { addTexts } from "./i18n.ts";

/** English texts of the event date-time fields. */
export const eventTimeTexts = {
  event_time: {
    placeholder: "Not set: pick a date and time",
    local: "Your time ({{zone}}): {{time}}",
    utc: "UTC: {{time}}",
    length: "Event length: {{length}}",
    days_one: "{{count}} day",
    days_other: "{{count}} days",
    hours_one: "{{count}} hour",
    hours_other: "{{count}} hours",
    minutes_one: "{{count}} minute",
    minutes_other: "{{count}} minutes",
    clear: "Clear {{label}}",
    hours: "Hours",
    minutes: "Minutes",
    choose: "Use this time",
    missing_hour: "Type the hour too.",
    next_month: "Next month",
    previous_month: "Previous month",
    next_year: "Next year",
    previous_year: "Previous year",
    next_decade: "Next decade",
    previous_decade: "Previous decade",
    month_level: "Choose a month",
    year_level: "Choose a year",
    problems: {
      end_before_start: "The end must come after the start.",
      registration_end_before_start: "Registration must close after it opens.",
      registration_opens_after_end: "Registration must open before the event ends.",
      registration_closes_after_end: "Registration must close by the time the event ends.",
      freeze_outside_event: "The scoreboard freeze must fall between the event's start and end.",
    },
  },
};

addTexts(eventTimeTexts);
