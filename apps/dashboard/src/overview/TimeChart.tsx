import { useEffect, useId, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

// Only the pieces these bar charts use are registered, so the bundle carries nothing else of chart.js.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface Props {
  title: string;
  /** Category labels (days). */
  labels: readonly string[];
  values: readonly number[];
  /** How a value reads in the tooltip, the summary and the table ("12.30 USD", "3"). */
  format: (value: number) => string;
  /** Column header of the day in the data table, naming its time zone. */
  dayHeader: string;
}

/**
 * A bar chart over days (chart.js on a canvas). The canvas is an image named by a one-line summary;
 * the exact figures are in a table under a disclosure, for screen readers and keyboard users alike.
 */
export function TimeChart({ title, labels, values, format, dayHeader }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const headingId = useId();
  const total = values.reduce((a, b) => a + b, 0);
  const peak = values.reduce((best, v, i) => (v > (values[best] ?? 0) ? i : best), 0);
  const summary = `${title}: ${format(total)} over ${labels.length} days${total > 0 ? `, highest on ${labels[peak]} with ${format(values[peak] ?? 0)}` : ''}.`;

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: { labels: [...labels], datasets: [{ label: title, data: [...values], backgroundColor: '#334155' }] },
      options: {
        // No animation: the figures are read, not watched, and reduced-motion users get none either.
        animation: false,
        maintainAspectRatio: false,
        plugins: { tooltip: { callbacks: { label: (item) => format(Number(item.raw)) } } },
        scales: { x: { ticks: { maxRotation: 0, autoSkipPadding: 12 } }, y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [labels, values, title, format]);

  return (
    <figure aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="mb-2 text-sm font-semibold">{title}</h2>
      <div className="relative h-48">
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
      <details className="mt-2 text-xs">
        <summary className="cursor-pointer text-slate-700">{title} as a table</summary>
        <table className="mt-2 w-full text-left" aria-label={`${title} per day`}>
          <thead><tr><th scope="col" className="font-medium">{dayHeader}</th><th scope="col" className="font-medium">{title}</th></tr></thead>
          <tbody>{labels.map((l, i) => <tr key={l}><td>{l}</td><td>{format(values[i] ?? 0)}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}
