/**
 * The runner's latest records by id, for a caller that holds only an id: the chat participant
 * reading a tool result finds the record of its own call, whatever else finished meanwhile.
 * No vscode import.
 */
import type { RequestRecord } from './requestRecord';

/** Records kept at most; the oldest is forgotten first. A caller looks its record up as soon as its call returns. */
const MAX_KEPT = 64;

export class RecentRecords {
  private readonly byId = new Map<number, RequestRecord>();

  remember(record: RequestRecord): void {
    this.byId.set(record.id, record);
    if (this.byId.size > MAX_KEPT) {
      this.byId.delete(this.byId.keys().next().value as number);
    }
  }

  get(id: number): RequestRecord | undefined {
    return this.byId.get(id);
  }
}
