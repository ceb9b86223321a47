// The code a stat thread runs (stat-pool.ts), kept as plain JavaScript text: a worker thread
// loads it with `eval`, so it runs as it is under the built server and under the test runner
// alike (a worker cannot load the TypeScript sources, and the build does not copy .js files).
// It only tells where the disk may differ from the index: for its share of the index's paths,
// an lstat whose fields differ from the entry's (or that finds nothing), and for its share of
// the folders, the names a listing holds that the index does not. It reads no content and
// enters nothing: whatever it names is looked at again by the scan, through its handles.
//
// Task (one message, stat-verify.ts builds it): { id, paths, kinds, stats, groups, owners }
//   paths   its entries' absolute paths, joined by NUL, grouped by the folder that holds them
//   kinds   Int8Array per entry: 0 file, 1 folder, 2 link, 3 special; -1 not compared (looked at anyway)
//   stats   Float64Array, 5 per entry: mode (permission bits), size, mtimeMs, ctimeMs, ino
//   groups  Int32Array, 3 per folder: its own reference (handed back as is), then the first and
//           end entry of what the index holds in it
//   owners  the folders' absolute paths, joined by NUL
//   seen    Float64Array, 3 per folder: ino, mtimeMs, ctimeMs as a listing found it holding
//           nothing the index lacks (NaN: list it)
// Answer: { id, differ: entry[] (of this task), unlistable: ref[], added: [ref, name][],
//           clean: Float64Array, 3 per folder: its `seen` for the next verification (NaN: none) }
export const STAT_WORKER_SOURCE = String.raw`
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const RACY_MS = 2000;
const S_IFMT = 0o170000, S_IFREG = 0o100000, S_IFDIR = 0o040000, S_IFLNK = 0o120000;
const kindOf = (mode) => {
  const t = mode & S_IFMT;
  return t === S_IFREG ? 0 : t === S_IFDIR ? 1 : t === S_IFLNK ? 2 : 3;
};
parentPort.on('message', (task) => {
  try {
    parentPort.postMessage({ id: task.id, ...verify(task) });
  } catch (e) {
    parentPort.postMessage({ id: task.id, error: String((e && e.message) || e) });
  }
});
function verify({ paths: pathText, kinds, stats, groups, owners: ownerText, seen }) {
  const paths = pathText === '' ? [] : pathText.split('\u0000');
  const owners = ownerText.split('\u0000');
  const differ = [], unlistable = [], added = [];
  const clean = new Float64Array(3 * owners.length).fill(NaN);
  for (let g = 0; g < owners.length; g++) {
    const ref = groups[3 * g], from = groups[3 * g + 1], to = groups[3 * g + 2];
    const owner = owners[g];
    for (let i = from; i < to; i++) {
      const kind = kinds[i];
      if (kind < 0) continue;
      let st;
      try {
        st = fs.lstatSync(paths[i], { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      const k = 5 * i;
      if (
        !st ||
        kindOf(st.mode) !== kind ||
        (st.mode & 0o7777) !== stats[k] ||
        // A folder by its mode alone (its times move with its names); the rest by every field.
        (kind !== 1 &&
          (st.size !== stats[k + 1] || st.mtimeMs !== stats[k + 2] || st.ctimeMs !== stats[k + 3] || st.ino !== stats[k + 4]))
      )
        differ.push(i);
    }
    // A folder listed clean before (nothing the index lacks) whose stat has not moved since
    // holds the same names: creating, removing or renaming one moves its ctime.
    const k3 = 3 * g;
    const listedAt = Date.now();
    let own;
    try {
      own = fs.lstatSync(owner, { throwIfNoEntry: false });
    } catch {
      own = undefined;
    }
    if (own && own.ino === seen[k3] && own.mtimeMs === seen[k3 + 1] && own.ctimeMs === seen[k3 + 2]) {
      clean[k3] = seen[k3];
      clean[k3 + 1] = seen[k3 + 1];
      clean[k3 + 2] = seen[k3 + 2];
      continue;
    }
    let names;
    try {
      names = fs.readdirSync(owner);
    } catch {
      unlistable.push(ref);
      continue;
    }
    const known = new Set();
    const cut = owner.length + 1;
    for (let i = from; i < to; i++) known.add(paths[i].slice(cut));
    const before = added.length;
    for (const name of names) if (!known.has(name)) added.push([ref, name]);
    // Kept for the next verification only when its times are older than their tick could
    // hide (a change within the tick of the listing may leave them as they were).
    if (added.length === before && own && Math.max(own.mtimeMs, own.ctimeMs) < listedAt - RACY_MS) {
      clean[k3] = own.ino;
      clean[k3 + 1] = own.mtimeMs;
      clean[k3 + 2] = own.ctimeMs;
    }
  }
  return { differ, unlistable, added, clean };
}
`;
