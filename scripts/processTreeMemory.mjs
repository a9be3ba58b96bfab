// Samples the memory of a process and all its descendants (found through /proc, so Linux only):
// the sum of their proportional set sizes (PSS: shared pages split between the processes that map
// them), and keeps the peak. Elsewhere it reports nothing rather than a wrong figure.
import fs from 'node:fs';

const SAMPLE_INTERVAL_MS = 500;

/** Parent pid of every process now alive. */
function parentsByPid() {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name in parentheses may hold spaces; the fields after it are plain.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended between listing and reading
    }
  }
  return parents;
}

function descendantsOf(rootPid) {
  const children = new Map();
  for (const [pid, parent] of parentsByPid()) {
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(pid);
  }
  const found = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop();
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** PSS of one process in bytes (RSS when the kernel has no smaps_rollup); 0 once it has ended. */
function processBytes(pid) {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (pss) return Number(pss[1]) * 1024;
  } catch {
    // no smaps_rollup (old kernel), or the process ended: try status
  }
  try {
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return rss ? Number(rss[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts sampling the tree under `rootPid`; `stop()` returns the peak in bytes, or undefined where
 * /proc is missing.
 */
export function watchTreeMemory(rootPid) {
  if (!fs.existsSync('/proc/self/stat')) return { stop: () => undefined };
  let peak = 0;
  const sample = () => {
    const total = descendantsOf(rootPid).reduce((sum, pid) => sum + processBytes(pid), 0);
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
