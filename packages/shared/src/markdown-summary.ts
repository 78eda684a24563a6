/**
 * Markdown reduced to plain text for a card's summary (a category card on its list and on the home
 * page). Not rendered as markdown there: the card is itself a link, and links inside a link are
 * invalid, so a link keeps only its text.
 */
export function markdownSummary(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, "")
    .replace(/<[^>]*>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "")
    .replace(/^\s{0,3}(?:[-*_]\s*){3,}$/gm, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(^|[^\w*~])(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\2(?![\w*~])/g, "$1$3")
    .replace(/\s+/g, " ")
    .trim();
}
