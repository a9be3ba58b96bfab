/**
 * Reads a history record back, by the core's schema. Loaded only when a record is read
 * (undo, history, a record a crash left pending), so a command that only applies edits
 * never loads the schema library (the CLI bundles this module apart).
 */
import { type HistoryEntry, historyEntrySchema } from '../../core/index';

export function parseHistoryEntry(json: unknown): HistoryEntry | undefined {
  const parsed = historyEntrySchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
