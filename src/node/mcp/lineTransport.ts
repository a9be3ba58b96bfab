/**
 * The server's stdio transport: one JSON-RPC message per line, as the SDK's own, with
 * two differences. Its bound fits the engine's file-size limit (the SDK's 10 MiB ended
 * the session on a 12 MB new_string). And a message over the bound is skipped to its
 * end and answered with a clean InvalidRequest error, so the session goes on. Lines
 * are gathered as a list of chunks and joined once, so a large message costs one copy.
 */
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Three times the 32 MB file-size limit: an old_string and a new_string each as large
 * as the largest file, with room for JSON escaping.
 */
export const MAX_MESSAGE_BYTES = 96 * 1024 * 1024;

/** How much of the start and the end of an oversized message is kept to find its id. */
const EDGE_BYTES = 4096;

const NEWLINE = 0x0a;
const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** The id as the first member (after "jsonrpc"), or as the last one, as the SDK's client writes it. */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
const TRAILING_ID = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an oversized message is skipped: its first bytes, and its last ones so far. */
  private oversized: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) {
      this.input.pause();
    }
    this.chunks = [];
    this.pendingBytes = 0;
    this.oversized = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) {
        resolve();
      } else {
        this.output.once('drain', resolve);
      }
    });
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (data: Buffer | string): void => {
    let chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE)) {
      this.take(chunk.subarray(0, newline));
      this.endLine();
      chunk = chunk.subarray(newline + 1);
    }
    if (chunk.length > 0) {
      this.take(chunk);
    }
  };

  private take(chunk: Buffer): void {
    if (this.oversized) {
      this.oversized.tail = lastBytes(Buffer.concat([this.oversized.tail, chunk]));
      this.oversized.bytes += chunk.length;
      return;
    }
    this.chunks.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > this.maxMessageBytes) {
      const pending = Buffer.concat(this.chunks);
      this.oversized = { head: pending.subarray(0, EDGE_BYTES), tail: lastBytes(pending), bytes: pending.length };
      this.chunks = [];
      this.pendingBytes = 0;
    }
  }

  private endLine(): void {
    if (this.oversized) {
      const skipped = this.oversized;
      this.oversized = undefined;
      this.refuseOversized(skipped.head, skipped.tail, skipped.bytes);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.pendingBytes = 0;
    if (line.trim() === '') {
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers a request whose id can be found at either end; a message without one is only reported. */
  private refuseOversized(head: Buffer, tail: Buffer, bytes: number): void {
    const id = idOf(head.toString('utf8'), tail.toString('utf8'));
    const megabytes = (bytes / (1024 * 1024)).toFixed(1);
    const limit = Math.round(this.maxMessageBytes / (1024 * 1024));
    const message = `The message is ${megabytes} MiB, over the ${limit} MiB this server reads in one message; split the edits into smaller requests`;
    this.onerror?.(new Error(`${message}${id === undefined ? ' (no request id found, so nobody was answered)' : ''}`));
    if (id !== undefined) {
      void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } });
    }
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}

function idOf(head: string, tail: string): RequestId | undefined {
  const found = LEADING_ID.exec(head) ?? TRAILING_ID.exec(tail);
  if (found === null) {
    return undefined;
  }
  const value = JSON.parse(found[1]) as unknown;
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}
