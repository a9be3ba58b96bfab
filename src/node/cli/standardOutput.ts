/** Writing the report to stdout: in chunks, so a report of tens of megabytes is never one string or one buffer. */
import { errnoOf, storeFailureFromError } from '../../core/index';

/** Characters handed to stdout at once. */
const CHUNK_CHARS = 1 << 16;

/** Writes the pieces in order; a closed pipe or a full device is returned as a reason, never thrown. */
export async function writeStdout(pieces: Iterable<string>): Promise<string | undefined> {
  for (const chunk of inChunks(pieces)) {
    const unwritten = await writeChunk(chunk);
    if (unwritten) {
      return unwritten;
    }
  }
  return undefined;
}

/** Small pieces joined up to about CHUNK_CHARS; a larger piece goes as it is. */
function* inChunks(pieces: Iterable<string>): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    pending.push(piece);
    length += piece.length;
    if (length >= CHUNK_CHARS) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (pending.length > 0) {
    yield pending.join('');
  }
}

/** Waits until stdout has taken the chunk, so at most one chunk is buffered at a time. */
function writeChunk(text: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const onError = (error: unknown): void => resolve(outputFault(error));
    process.stdout.once('error', onError);
    try {
      process.stdout.write(text, (error) => {
        process.stdout.off('error', onError);
        resolve(error ? outputFault(error) : undefined);
      });
    } catch (error) {
      process.stdout.off('error', onError);
      resolve(outputFault(error));
    }
  });
}

function outputFault(error: unknown): string {
  const errno = errnoOf(error);
  if (errno === 'EPIPE') {
    return 'it was closed';
  }
  return errno === undefined ? 'an unexpected error' : storeFailureFromError(error, 'write').detail;
}
