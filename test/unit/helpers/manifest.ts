/**
 * package.json as VS Code shows it: every "%key%" string replaced by its text from
 * package.nls.json, the way VS Code localizes a manifest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Compiled to out/test/unit/helpers, so the repository root is four levels up.
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

const NLS_PLACEHOLDER = /^%([\w.-]+)%$/;

export function readJsonFile(relative: string): unknown {
  return JSON.parse(readFileSync(join(REPO_ROOT, relative), 'utf8'));
}

/** Replaces each "%key%" string in `value` with `strings[key]`; reports keys with no text. */
export function localize(value: unknown, strings: Record<string, string>, missing: string[] = []): unknown {
  if (typeof value === 'string') {
    const key = NLS_PLACEHOLDER.exec(value)?.[1];
    if (key === undefined) return value;
    if (strings[key] === undefined) missing.push(key);
    return strings[key] ?? value;
  }
  if (Array.isArray(value)) return value.map((item) => localize(item, strings, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, localize(item, strings, missing)]));
  }
  return value;
}

/** The placeholders package.json uses, in order of appearance. */
export function placeholdersOf(value: unknown): string[] {
  if (typeof value === 'string') {
    const key = NLS_PLACEHOLDER.exec(value)?.[1];
    return key === undefined ? [] : [key];
  }
  if (Array.isArray(value)) return value.flatMap(placeholdersOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(placeholdersOf);
  return [];
}

export interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image?: string; markdown?: string; altText?: string };
  completionEvents?: string[];
}

/** The parts of package.json the tests read. */
export interface Manifest {
  main: string;
  icon: string;
  extensionKind?: string[];
  capabilities: {
    untrustedWorkspaces: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces: { supported: boolean | 'limited'; description?: string };
  };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    walkthroughs: { id: string; steps: WalkthroughStep[] }[];
    jsonValidation: { url: string }[];
    configuration: { properties: Record<string, unknown> };
    keybindings: { command: string; key: string; mac?: string; when?: string }[];
    languageModelTools: { toolReferenceName: string }[];
    languageModelToolSets: { name: string; tools: string[] }[];
  };
}

/** Every file the manifest names for VS Code to load or show, relative to the package root. */
export function filesNamedBy(manifest: Manifest): string[] {
  const steps = manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);
  return [
    manifest.main,
    manifest.icon,
    ...steps.flatMap((step) => [step.media.image, step.media.markdown]),
    ...manifest.contributes.jsonValidation.map((validation) => validation.url),
  ].filter((file): file is string => file !== undefined).map((file) => file.replace(/^\.\//, ''));
}

/** package.json with its strings from package.nls.json, read as `Shape`. */
export function readLocalizedManifest<Shape = Manifest>(): Shape {
  const strings = readJsonFile('package.nls.json') as Record<string, string>;
  return localize(readJsonFile('package.json'), strings) as Shape;
}
