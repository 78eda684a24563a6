import zxcvbn from "zxcvbn";
import { LIMITS } from "./constants.ts";

/**
 * Password strength by zxcvbn (0 to 4), judged the same way on the client's 5-part bar and on
 * the server. Kept out of the package index so the web app can load the checker lazily.
 */
export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  strong: boolean;
  /** The checker's warning, else its first suggestion, else "". */
  feedback: string;
}

export function passwordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  // zxcvbn is quadratic in the length; past 100 characters only the prefix decides the score.
  const result = zxcvbn(password.slice(0, 100), userInputs.filter(Boolean));
  const score = result.score as PasswordStrength["score"];
  return {
    score,
    strong: score >= LIMITS.passwordStrengthMin,
    feedback: result.feedback.warning || result.feedback.suggestions[0] || "",
  };
}
