/**
 * Flagship's logo: the mark (a pennant that doubles as a prompt, with a cursor beneath; the same
 * drawing as the favicon) and the wordmark. Decorative where a text name sits beside it.
 */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false" className="logo-mark">
      <rect width="32" height="32" rx="8" fill="#0b1220" />
      <path d="M9 6v20" stroke="#e2e8f0" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M11 7l14 5.5L11 18z" fill="#2dd4bf" />
      <rect x="17" y="22" width="8" height="2.5" rx="1.25" fill="#2dd4bf" />
    </svg>
  );
}

/** The mark with the wordmark, named "Flagship" for screen readers. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <span className="logo" role="img" aria-label="Flagship">
      <LogoMark size={size} />
      <span className="logo-word" aria-hidden style={{ fontSize: size * 0.7 }}>
        flagship<span className="logo-cursor">_</span>
      </span>
    </span>
  );
}
