// A process with nothing to do but one stat task (stat-pool.test.ts): it prints the answer once
// the task is done, unless the process ends first.
import { statPool } from './stat-pool.js';

const [folder] = process.argv.slice(2);
void statPool
  .run([
    {
      paths: `${folder}/missing`,
      kinds: Int8Array.of(0),
      stats: new Float64Array(5),
      groups: Int32Array.of(-1, 0, 1),
      owners: folder!,
      seen: new Float64Array(3).fill(NaN),
    },
  ])
  .then(([answer]) => console.log(JSON.stringify({ differ: answer!.differ, added: answer!.added })));
