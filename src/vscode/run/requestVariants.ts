/** A new request made from a parsed one, in the wire form the runner takes. */
import { type ParsedRequest, requestInput } from '../../core/index';

/** The request with one edit's replace_all set. */
export function withReplaceAll(request: ParsedRequest, fileIndex: number, editIndex: number): unknown {
  return requestInput({
    ...request,
    files: request.files.map((file, index) => (index !== fileIndex ? file : {
      ...file,
      edits: file.edits.map((edit, at) => (at === editIndex ? { ...edit, replace_all: true } : edit)),
    })),
  });
}
