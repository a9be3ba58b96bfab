import { NodeFileStore } from '../../../src/node/store/nodeFileStore';

/** The Node store as VS Code's is to the history: it gives no file a second name, so a large UTF-8 text is copied beside its record. */
export class StoreWithoutLinks extends NodeFileStore {
  override async linkOriginal(): Promise<boolean> {
    return false;
  }
}
