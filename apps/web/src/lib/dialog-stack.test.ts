import { describe, expect, it } from "vitest";
import { DialogStack } from "./dialog-stack.ts";

describe("DialogStack", () => {
  it("locks on the first dialog and unlocks when the last one closes", () => {
    const stack = new DialogStack<string>();
    expect(stack.top).toBeNull();
    expect(stack.push("challenge")).toBe(true);
    expect(stack.push("solved")).toBe(false);
    expect(stack.top).toBe("solved");
    expect(stack.remove("solved")).toBe(false);
    expect(stack.top).toBe("challenge");
    expect(stack.remove("challenge")).toBe(true);
    expect(stack.top).toBeNull();
  });

  it("keeps the newest on top when an older dialog closes first", () => {
    const stack = new DialogStack<string>();
    stack.push("outer");
    stack.push("inner");
    expect(stack.remove("outer")).toBe(false);
    expect(stack.top).toBe("inner");
    expect(stack.remove("inner")).toBe(true);
  });
});
