import { describe, expect, it } from 'vitest';
import { LruMap, LruMaps } from './lru-map.js';

describe('LruMap', () => {
  it('drops the least recently used entry beyond its bound, a read counting as a use', () => {
    const map = new LruMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the most recent: b goes first
    map.set('d', 4);
    expect([map.get('b'), map.get('c'), map.get('a'), map.get('d')]).toEqual([undefined, 3, 1, 4]);
    expect(map.size).toBe(3);
  });

  it('never drops an entry read at least once per half its size of insertions, and drops one never read', () => {
    const map = new LruMap<string, number>(10);
    map.set('hot', 1);
    map.set('cold', 2);
    for (let i = 0; i < 1_000; i++) {
      map.set(`k${i}`, i);
      if (i % 4 === 0) expect(map.get('hot')).toBe(1);
    }
    expect([map.get('hot'), map.get('cold'), map.size]).toEqual([1, undefined, 10]);
  });

  it('replaces a key in place without counting it twice', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('a', 2);
    map.set('b', 3);
    expect([map.get('a'), map.get('b'), map.size, map.weight]).toEqual([2, 3, 2, 2]);
  });

  it('bounds the total weight, drops as many entries as a heavy one needs and never keeps one heavier than the bound', () => {
    const map = new LruMap<string, string>(10, (text) => text.length);
    map.set('a', 'xxxx');
    map.set('b', 'yyyy');
    map.set('c', 'zz');
    expect(map.weight).toBe(10);
    map.set('d', 'wwwwwwww'); // 8: a and b must go, c stays (2 + 8 = 10)
    expect([map.get('a'), map.get('b'), map.get('c'), map.get('d')]).toEqual([undefined, undefined, 'zz', 'wwwwwwww']);
    map.set('e', 'x'.repeat(11));
    expect([map.get('e'), map.size, map.weight]).toEqual([undefined, 2, 10]);
  });

  it('forgets deleted and cleared entries with their weight', () => {
    const map = new LruMap<string, string>(10, (text) => text.length);
    map.set('a', 'xxx');
    map.set('b', 'yy');
    map.delete('a');
    map.delete('missing');
    expect([map.get('a'), map.size, map.weight]).toEqual([undefined, 1, 2]);
    map.clear();
    expect([map.get('b'), map.size, map.weight]).toEqual([undefined, 0, 0]);
  });
});

describe('LruMaps', () => {
  it('makes one map per owner on first use and hands the same one back', () => {
    let made = 0;
    const maps = new LruMaps<string, number>(() => { made++; return new LruMap(2); });
    const a = {};
    const b = {};
    maps.of(a).set('x', 1);
    expect(maps.of(a).get('x')).toBe(1);
    expect(maps.of(b).get('x')).toBeUndefined();
    expect(maps.of(a)).toBe(maps.of(a));
    expect(made).toBe(2);
  });
});
