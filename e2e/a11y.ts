import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Accessibility problems axe-core (the engine of Lighthouse's accessibility audits) finds on the page:
 * every WCAG 2.x A/AA rule and the best-practice rules, a superset of what Lighthouse scores.
 */
export async function axeViolations(target: Page): Promise<string[]> {
  await target.addScriptTag({ path: AXE_SCRIPT });
  return target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
}
