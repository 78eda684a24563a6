import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { addTexts, i18n, Trans } from "./i18n.ts";

addTexts({
  test_texts: {
    greeting: "Hello {{name}}, you have {{ points }} points",
    files_one: "{{count}} file",
    files_other: "{{count}} files",
    only_base: "{{count}} things",
    steps: ["one", "two"],
    help: { "dotted.key": "A key with a dot" },
    link: "Read the <terms>terms</terms> and the <privacy>policy</privacy>.",
  },
  generic: { unknown: "Not replaced" },
});

describe("texts", () => {
  it("fills {{name}} from the options, unescaped, and a missing one as empty", () => {
    expect(i18n.t("test_texts.greeting", { name: "<b>Ann</b>", points: 3 })).toBe("Hello <b>Ann</b>, you have 3 points");
    expect(i18n.t("test_texts.greeting", { points: 0 })).toBe("Hello , you have 0 points");
  });

  it("picks the plural form by count, and the key itself when it has none", () => {
    expect(i18n.t("test_texts.files", { count: 1 })).toBe("1 file");
    expect(i18n.t("test_texts.files", { count: 0 })).toBe("0 files");
    expect(i18n.t("test_texts.files", { count: 7 })).toBe("7 files");
    expect(i18n.t("test_texts.only_base", { count: 1 })).toBe("1 things");
  });

  it("gives the key when there is no text, or the default value when one is given", () => {
    expect(i18n.t("test_texts.nothing")).toBe("test_texts.nothing");
    expect(i18n.t("test_texts.nothing", { defaultValue: "" })).toBe("");
    expect(i18n.exists("test_texts.nothing")).toBe(false);
    expect(i18n.exists("test_texts.greeting")).toBe(true);
  });

  it("returns lists only when asked, and finds keys that hold dots", () => {
    expect(i18n.t("test_texts.steps", { returnObjects: true })).toEqual(["one", "two"]);
    expect(i18n.t("test_texts.steps")).toBe("test_texts.steps");
    expect(i18n.t("test_texts.help.dotted.key")).toBe("A key with a dot");
  });

  it("keeps the app's own texts when a feature adds the same key", () => {
    expect(i18n.t("generic.unknown")).toBe("Unknown error occurred.");
    expect(i18n.t("errors.not_found", { defaultValue: "none" })).not.toBe("none");
  });

  it("draws the elements named in a text with their inner text", () => {
    const html = renderToStaticMarkup(
      createElement(Trans, { i18nKey: "test_texts.link", components: { terms: createElement("a", { href: "/terms" }), privacy: createElement("a", { href: "/privacy" }) } }),
    );
    expect(html).toBe('Read the <a href="/terms">terms</a> and the <a href="/privacy">policy</a>.');
  });
});
