// Version checks scenarios answer `needs` with: what a VS Code build has, and the scenarios not yet
// adapted to newer builds, which run on 1.100 only and say why they are skipped elsewhere.

/** Whether this VS Code is newer than 1.100, the minimum engines.vscode allows. */
export function isNewerThan1100(vscodeVersion) {
  const [major, minor] = vscodeVersion.split('.').map(Number);
  return major > 1 || minor > 100;
}

/** undefined (the scenario runs) on VS Code 1.100 and older; otherwise why it is skipped. */
export function onlyUpTo1100(vscodeVersion, why) {
  return isNewerThan1100(vscodeVersion) ? `not yet adapted to VS Code ${vscodeVersion}: ${why}` : undefined;
}
