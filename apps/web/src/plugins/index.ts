/**
 * The one place plugins are installed: built-ins first, then each plugin module, whose import
 * registers its entries. To add a plugin, add one import line here.
 */
import "./texts.ts";
import "./builtins.tsx";
import "./examples/multiple-choice.tsx";
