import { describe, expect, it } from 'vitest';
import { ReadQueue } from './queue.js';

describe('ReadQueue', () => {
  it('runs at most `limit` at once, all of them in the end, in order, a failure included', async () => {
    const queue = new ReadQueue(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const jobs = Array.from({ length: 10 }, (_, i) =>
      queue.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        order.push(i);
        if (i === 3) throw new Error('boom');
        return i;
      }),
    );
    const results = await Promise.allSettled(jobs);
    expect(most).toBe(2);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(order.slice().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(queue.active).toBe(0);
  });
});
