/**
 * vscode.l10n.t for the modules that stay free of the vscode import, so they are unit-tested as
 * plain data (the chat's rendering, recap and follow-ups): activation hands vscode.l10n.t over;
 * until then, and in unit tests, a message is formatted as written ("{0}" replaced by its argument).
 */
type Translate = (message: string, ...args: (string | number | boolean)[]) => string;

let translate: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (whole: string, index: string) => {
  const value = args[Number(index)];
  return value === undefined ? whole : String(value);
});

export function useTranslation(translation: Translate): void {
  translate = translation;
}

/** The message in the display language, its "{0}", "{1}"... replaced by `args`. */
export function localized(message: string, ...args: (string | number | boolean)[]): string {
  return translate(message, ...args);
}
