import type { ScrollIntent } from './router';

/** Scroll positions by history entry key; sessionStorage keeps them across a reload of the tab. */
const STORAGE_KEY = 'vitrine.scroll';
/** Entries remembered (older ones are dropped first). */
const POSITIONS_MAX = 100;

export interface ScrollMemory {
  save(key: string, y: number): void;
  get(key: string): number | undefined;
  /** Writes the positions to sessionStorage (on pagehide). */
  persist(): void;
}

export function scrollMemory(storage: Storage | undefined): ScrollMemory {
  const positions = new Map<string, number>(read(storage));
  return {
    save(key, y) {
      positions.delete(key);
      positions.set(key, y);
      if (positions.size > POSITIONS_MAX) positions.delete(positions.keys().next().value!);
    },
    get: (key) => positions.get(key),
    persist() {
      try {
        storage?.setItem(STORAGE_KEY, JSON.stringify([...positions]));
      } catch {
        // Storage full or blocked: positions are then kept for this page only.
      }
    },
  };
}

function read(storage: Storage | undefined): [string, number][] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number') : [];
  } catch {
    return [];
  }
}

/** Applies a state's scroll intent (after the page is in the DOM). */
export function applyScroll(intent: ScrollIntent): void {
  if (intent.kind === 'top') window.scrollTo(0, 0);
  else if (intent.kind === 'restore') window.scrollTo(0, intent.y);
  else if (intent.kind === 'hash') document.getElementById(intent.id)?.scrollIntoView();
}
