import { describe, expect, it } from 'vitest';
import { FairGate, TokenSubjects, gateSubject, readsPerSubject } from '../../../src/api/read-gate.js';

/** A piece of work that runs until the test ends it. */
function controlled() {
  let finish!: (fail?: boolean) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = (fail = false) => (fail ? reject(new Error('failed')) : resolve());
  });
  return { done, finish };
}

/** Lets every deferred turn and promise settle (setImmediate runs after the microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe('FairGate (serve computes a few GETs at a time, shared fairly between subjects)', () => {
  it('runs at most max at once, one subject in arrival order, and passes the turn on after a failure', async () => {
    const gate = new FairGate(2);
    const started: number[] = [];
    const works = Array.from({ length: 6 }, () => controlled());
    const results = Promise.allSettled(
      works.map((w, i) =>
        gate.run('a', async () => {
          started.push(i);
          await w.done;
          return i;
        }),
      ),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(gate.load).toEqual({ running: 2, waiting: 4 });
    works[1].finish(true);
    await settle();
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    works[2].finish();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    works[3].finish();
    works[4].finish(true);
    await settle();
    works[5].finish();
    expect((await results).map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives one subject at most its share, so that a later subject runs at once, before that subject queued more', async () => {
    const gate = new FairGate(4, 2);
    const started: string[] = [];
    const works = new Map<string, ReturnType<typeof controlled>>();
    const task = (subject: string, name: string) =>
      gate.run(subject, async () => {
        started.push(name);
        const w = controlled();
        works.set(name, w);
        await w.done;
      });
    // A asks for ten at once: it holds two of the four turns, the rest of its requests wait.
    const a = Array.from({ length: 10 }, (_, i) => task('user:a', `a${i}`));
    await settle();
    expect(started).toEqual(['a0', 'a1']);
    // B arrives later and runs at once: two turns are free, and A may not take them.
    const b = [task('user:b', 'b0'), task('user:b', 'b1'), task('user:b', 'b2')];
    await settle();
    expect(started).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(gate.load).toEqual({ running: 4, waiting: 9 });
    // A turn A frees goes to A's next request (B holds its share); one B frees goes to B's next.
    works.get('a0')!.finish();
    await settle();
    works.get('b0')!.finish();
    await settle();
    expect(started).toEqual(['a0', 'a1', 'b0', 'b1', 'a2', 'b2']);
    for (const w of works.values()) w.finish();
    await settle();
    // With B done, A gets its share again and no more.
    expect(gate.load.running).toBe(2);
    for (let round = 0; round < 5; round++) {
      for (const w of works.values()) w.finish();
      await settle();
    }
    await Promise.all([...a, ...b]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('hands freed turns round-robin between waiting subjects, whatever each queued', async () => {
    const gate = new FairGate(1, 1);
    const started: string[] = [];
    const works: ReturnType<typeof controlled>[] = [];
    const task = (subject: string, name: string) =>
      gate.run(subject, async () => {
        started.push(name);
        const w = controlled();
        works.push(w);
        await w.done;
      });
    const all = [
      ...Array.from({ length: 4 }, (_, i) => task('a', `a${i}`)),
      task('b', 'b0'),
      task('b', 'b1'),
      task('c', 'c0'),
    ];
    for (let i = 0; i < 7; i++) {
      await settle();
      works[i].finish();
    }
    await Promise.all(all);
    // a0 was running; then each waiting subject in turn: a, b, c, a, b, a.
    expect(started).toEqual(['a0', 'a1', 'b0', 'c0', 'a2', 'b1', 'a3']);
  });

  it('starts work on a later turn of the event loop, never where its request was read nor straight after the previous work', async () => {
    const deferred: (() => void)[] = [];
    const gate = new FairGate(1, 1, (resume) => deferred.push(resume));
    const started: string[] = [];
    const first = controlled();
    const one = gate.run('a', async () => {
      started.push('a0');
      await first.done;
    });
    const two = gate.run('a', () => {
      started.push('a1');
      return Promise.resolve();
    });
    await settle();
    // Even with a free turn, work waits for the event loop's next turn.
    expect(started).toEqual([]);
    deferred.shift()!();
    await settle();
    expect(started).toEqual(['a0']);
    first.finish();
    await one;
    await settle();
    // The turn is handed over, but a1 waits for the event loop's next turn too.
    expect(started).toEqual(['a0']);
    expect(deferred).toHaveLength(1);
    deferred.shift()!();
    await two;
    expect(started).toEqual(['a0', 'a1']);
  });
});

describe('gate subjects', () => {
  it('is the user for a person, the organization for its tokens', () => {
    expect(gateSubject({ kind: 'user', tokenId: 'at-1', userId: 'user-1', username: 'u', siteAdmin: false })).toBe(
      'user:user-1',
    );
    expect(gateSubject({ kind: 'team', tokenId: 'at-2', teamId: 'team-1', organizationId: 'org-1' })).toBe(
      'organization:org-1',
    );
    expect(gateSubject({ kind: 'organization', tokenId: 'at-3', organizationId: 'org-1' })).toBe('organization:org-1');
  });

  it('gives a subject one turn on SQLite, where reads do not overlap, and two on PostgreSQL', () => {
    expect(readsPerSubject('sqlite')).toBe(1);
    expect(readsPerSubject('postgres')).toBe(2);
  });

  it('remembers at most maxEntries tokens, forgetting the oldest first', () => {
    const subjects = new TokenSubjects(2);
    subjects.set('t1', 'user:a');
    subjects.set('t2', 'user:a');
    subjects.set('t3', 'user:b');
    expect([subjects.get('t1'), subjects.get('t2'), subjects.get('t3')]).toEqual([undefined, 'user:a', 'user:b']);
    subjects.delete('t2');
    expect(subjects.get('t2')).toBeUndefined();
  });
});
