// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { deferredModule } from './deferred';

afterEach(() => cleanup());

describe('deferredModule', () => {
  it('shows the server form first, then the loaded code, loading once', async () => {
    let loads = 0;
    const code = deferredModule(async () => { loads++; return { Label: () => <b>live</b> }; });
    function Slot() {
      const m = code.use();
      return m ? <m.Label /> : <i>static</i>;
    }
    expect(renderToString(<Slot />)).toBe('<i>static</i>');
    render(<Slot />);
    expect(screen.getByText('static')).toBeTruthy();
    await act(async () => { await Promise.all([code.preload(), code.preload()]); });
    expect(screen.getByText('live')).toBeTruthy();
    expect(loads).toBe(1);
  });

  it('tries a failed load again', async () => {
    let attempts = 0;
    const code = deferredModule(async () => {
      if (++attempts === 1) throw new Error('offline');
      return 'loaded';
    });
    await expect(code.preload()).rejects.toThrow('offline');
    await expect(code.preload()).resolves.toBe('loaded');
  });
});
