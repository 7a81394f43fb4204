'use strict';
// A small-multiples line chart as plain SVG text: one panel per algorithm,
// both axes logarithmic (x: input size; y: a ratio, so 2x and 0.5x are the
// same distance from 1), one series per implementation, one shared legend.
// No dependencies: the chart is a few hundred elements.
//
// chart({ title, subtitle, xLabel, yLabel, panels: [{ title, series: [{ name,
//   points: [[x, y], ...] }] }] }) -> SVG text

const COLORS = ['#d62728', '#1f77b4', '#7f7f7f', '#9467bd', '#2ca02c', '#000000', '#ff7f0e', '#8c564b'];
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmtSize = (n) => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} B`);
const fmtRatio = (v) => `${v >= 1 ? +v.toFixed(0) : +v.toPrecision(1)}x`;

// Log-scale ticks for a ratio axis: 1, 2, 5 per decade inside [lo, hi].
function ratioTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

function chart({ title, subtitle = '', xLabel, yLabel, panels }) {
  const cols = Math.min(3, panels.length), rows = Math.ceil(panels.length / cols);
  const pw = 300, ph = 210, ml = 64, mr = 16, mt = 34, mb = 46; // panel plot area and its margins
  const top = 96, left = 24, cw = ml + pw + mr, chH = mt + ph + mb;
  const width = left * 2 + cols * cw, height = top + rows * chH + 30;

  // Shared scales, so panels compare at a glance.
  const all = panels.flatMap((p) => p.series.flatMap((s) => s.points));
  const xs = [...new Set(all.map(([x]) => x))].sort((a, b) => a - b);
  const ys = all.map(([, y]) => y).filter((y) => y > 0);
  const [xlo, xhi] = [xs[0], xs[xs.length - 1]];
  const ylo = 10 ** (Math.floor(Math.log10(Math.min(...ys)) * 2) / 2);
  const yhi = 10 ** (Math.ceil(Math.log10(Math.max(...ys)) * 2) / 2);
  const sx = (x) => (xhi === xlo ? pw / 2 : ((Math.log(x) - Math.log(xlo)) / (Math.log(xhi) - Math.log(xlo))) * pw);
  const sy = (y) => ph - ((Math.log(y) - Math.log(ylo)) / (Math.log(yhi) - Math.log(ylo))) * ph;
  const names = [...new Set(panels.flatMap((p) => p.series.map((s) => s.name)))];
  const color = (n) => COLORS[names.indexOf(n) % COLORS.length];
  const dash = (n) => (/ceiling/.test(n) ? ' stroke-dasharray="6 4"' : '');

  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      'font-family="Helvetica, Arial, sans-serif" font-size="12">',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="26" font-size="17" font-weight="bold">${esc(title)}</text>`,
    `<text x="${left}" y="46" fill="#555">${esc(subtitle)}</text>`,
  ];
  // Legend: one row of swatches under the title.
  let lx = left;
  for (const n of names) {
    out.push(`<line x1="${lx}" y1="72" x2="${lx + 26}" y2="72" stroke="${color(n)}" stroke-width="3"${dash(n)}/>`,
      `<text x="${lx + 32}" y="76">${esc(n)}</text>`);
    lx += 46 + n.length * 7;
  }
  panels.forEach((p, i) => {
    const ox = left + (i % cols) * cw + ml, oy = top + Math.floor(i / cols) * chH + mt;
    out.push(`<g transform="translate(${ox},${oy})">`,
      `<text x="${pw / 2}" y="-12" text-anchor="middle" font-size="14" font-weight="bold">${esc(p.title)}</text>`,
      `<rect width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
    for (const v of ratioTicks(ylo, yhi)) {
      const y = sy(v).toFixed(1);
      out.push(`<line x1="0" y1="${y}" x2="${pw}" y2="${y}" stroke="${v === 1 ? '#777' : '#e4e4e4'}"/>`,
        `<text x="-6" y="${y}" dy="4" text-anchor="end">${fmtRatio(v)}</text>`);
    }
    for (const x of xs) {
      const X = sx(x).toFixed(1);
      out.push(`<line x1="${X}" y1="0" x2="${X}" y2="${ph}" stroke="#f0f0f0"/>`,
        `<text x="${X}" y="${ph + 16}" text-anchor="middle" font-size="11">${fmtSize(x)}</text>`);
    }
    for (const s of p.series) {
      const pts = s.points.filter(([, y]) => y > 0).sort((a, b) => a[0] - b[0]);
      const d = pts.map(([x, y], k) => `${k ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color(s.name)}" stroke-width="2"${dash(s.name)}/>`);
      for (const [x, y] of pts) { // a dot per measurement, its value as a tooltip
        out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="2.5" fill="${color(s.name)}">` +
          `<title>${esc(`${s.name}, ${fmtSize(x)}: ${y.toFixed(2)}x`)}</title></circle>`);
      }
    }
    // Axis titles: x under every panel, y beside the first column only.
    out.push(`<text x="${pw / 2}" y="${ph + 34}" text-anchor="middle" fill="#333">${esc(xLabel)}</text>`);
    if (i % cols === 0) {
      out.push(`<text transform="translate(-46,${ph / 2}) rotate(-90)" text-anchor="middle" fill="#333" ` +
        `font-size="11">${esc(yLabel)}</text>`);
    }
    out.push('</g>');
  });
  out.push('</svg>', '');
  return out.join('\n');
}

module.exports = { chart };
