// What scenarios not yet adapted to newer VS Code answer from `needs`: they run on 1.100 only,
// and say why they are skipped elsewhere.

/** undefined (the scenario runs) on VS Code 1.100 and older; otherwise why it is skipped. */
export function onlyUpTo1100(vscodeVersion, why) {
  const [major, minor] = vscodeVersion.split('.').map(Number);
  return major === 1 && minor <= 100 ? undefined : `not yet adapted to VS Code ${vscodeVersion}: ${why}`;
}
