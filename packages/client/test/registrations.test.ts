// The array-backed registrations that bulk runs keep their aborts and sends in flight in.
import { describe, expect, it } from 'vitest';
import { abortRegistry } from '../src/internal/abort.js';
import { Registrations } from '../src/internal/registrations.js';

describe('Registrations', () => {
  it('holds entries until their removal runs, and reuses freed slots', () => {
    const r = new Registrations<string>();
    const removeA = r.add('a');
    const removeB = r.add('b');
    expect(r.size).toBe(2);
    removeA();
    removeA(); // a second run does nothing
    expect(r.size).toBe(1);
    expect(r.values()).toEqual(['b']);
    r.add('c'); // takes a's slot
    expect(r.values()).toEqual(['c', 'b']);
    removeB();
    expect(r.values()).toEqual(['c']);
  });

  it('keeps a slot that a removed entry left and another took', () => {
    const r = new Registrations<string>();
    const removeA = r.add('a');
    removeA();
    r.add('b'); // same slot
    removeA();
    expect(r.values()).toEqual(['b']);
  });
});

describe('abortRegistry', () => {
  it('aborts its signal, then runs every registration still held, once', () => {
    const run = abortRegistry();
    const fired: string[] = [];
    run.add(() => fired.push(`one (signal aborted: ${run.signal.aborted})`));
    const removeTwo = run.add(() => fired.push('two'));
    removeTwo();
    run.abort(new Error('stop'));
    run.abort(new Error('again'));
    expect(fired).toEqual(['one (signal aborted: true)']);
    expect((run.signal.reason as Error).message).toBe('stop');
  });
});
