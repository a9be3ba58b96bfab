/**
 * The peer as a whole process: `node peerProcess.js REQUEST.json` does for each file
 * of a multi_edit_files request what @modelcontextprotocol/server-filesystem's
 * edit_file does per call (validatePath, then applyFileEdits), with the request's
 * folder as the allowed directory.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { importPeerLibrary } from './peerLibrary';
import type { FileEditsInput } from './workloads';

async function main(requestPath: string): Promise<void> {
  const peer = await importPeerLibrary();
  peer.setAllowedDirectories([dirname(requestPath)]);
  const request = JSON.parse(await readFile(requestPath, 'utf8')) as { files: FileEditsInput[] };
  for (const file of request.files) {
    const edits = file.edits.map((edit) => ({ oldText: edit.old_string, newText: edit.new_string }));
    await peer.applyFileEdits(await peer.validatePath(file.file_path), edits);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 2;
});
