type Translate = (key: string, options?: { defaultValue?: string }) => string;

/**
 * A setting's name as the config editor labels it ('enable_flag_submission' is 'Flag submission'),
 * from the one table of setting names; undefined for a key the table does not name.
 */
export function settingLabel(t: Translate, key: string): string | undefined {
  return t(`config.keys.${key}`, { defaultValue: "" }) || undefined;
}
