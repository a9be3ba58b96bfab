/** The peer's library module, @modelcontextprotocol/server-filesystem: an ES module, loaded by import(). */
export const PEER_LIBRARY = '@modelcontextprotocol/server-filesystem/dist/lib.js';

/** What the benchmark calls of it. */
export interface PeerLibrary {
  setAllowedDirectories(directories: string[]): void;
  validatePath(path: string): Promise<string>;
  applyFileEdits(path: string, edits: { oldText: string; newText: string }[], dryRun?: boolean): Promise<string>;
}

export async function importPeerLibrary(): Promise<PeerLibrary> {
  const specifier: string = PEER_LIBRARY;
  return (await import(specifier)) as PeerLibrary;
}
