/** A product picture for the demo store: a gradient, a simple shape and the product's name, as SVG. */
export function placeholderImage(title: string, hue: number, shape: number, size = 800): Buffer {
  const h2 = (hue + 40) % 360;
  const shapes = [
    `<circle cx="400" cy="360" r="170" fill="hsl(${hue},45%,92%)" opacity=".9"/>`,
    `<rect x="240" y="200" width="320" height="320" rx="40" fill="hsl(${hue},45%,92%)" opacity=".9"/>`,
    `<path d="M400 170 L590 520 L210 520 Z" fill="hsl(${hue},45%,92%)" opacity=".9"/>`,
    `<ellipse cx="400" cy="360" rx="220" ry="140" fill="hsl(${hue},45%,92%)" opacity=".9"/>`,
  ];
  const safe = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 800 800">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,55%)"/><stop offset="1" stop-color="hsl(${h2},65%,35%)"/></linearGradient></defs>
<rect width="800" height="800" fill="url(#g)"/>${shapes[shape % shapes.length]}
<text x="400" y="680" font-family="Helvetica,Arial,sans-serif" font-size="44" font-weight="700" fill="#fff" text-anchor="middle">${safe}</text>
</svg>`;
  return Buffer.from(svg, 'utf8');
}
