/** What the chat participant's handlers share. */
import type { FailureFeed } from '../problems/failureFeed';
import type { Services } from '../run/services';

export interface ChatDeps {
  readonly services: Services;
  /** The diagnostics: the chat waits for them before it offers their quick fixes as buttons. */
  readonly feed: FailureFeed;
}
