// An SVG line chart of held-out success per round, one line per arm, with the last quarter
// (the rounds the targets use) shaded.
import { lastQuarter, type Figures } from "./figures.ts";

const COLORS: Record<string, string> = {
  floor: "#7f7f7f",
  defaults: "#1f77b4",
  recommended: "#2ca02c",
  ungoverned: "#d62728",
  premature: "#ff7f0e",
  oracle: "#9467bd",
};

export function chart(all: Figures[], title: string): string {
  const W = 760;
  const H = 420;
  const m = { left: 56, right: 190, top: 40, bottom: 48 };
  const rounds = all[0].held_out_success_by_round.length;
  const x = (r: number) => m.left + (r / Math.max(1, rounds - 1)) * (W - m.left - m.right);
  const y = (v: number) => m.top + (1 - v) * (H - m.top - m.bottom);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  parts.push(`<text x="${m.left}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`);
  const q = lastQuarter(rounds);
  parts.push(`<rect x="${x(rounds - q) - 4}" y="${m.top}" width="${x(rounds - 1) - x(rounds - q) + 8}" height="${H - m.top - m.bottom}" fill="#f2f2f2"/>`);
  for (let v = 0; v <= 1.0001; v += 0.2) {
    parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${y(v)}" y2="${y(v)}" stroke="#dddddd"/>`);
    parts.push(`<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`);
  }
  const step = Math.max(1, Math.round(rounds / 8));
  for (let r = 0; r < rounds; r += step) parts.push(`<text x="${x(r)}" y="${H - m.bottom + 18}" text-anchor="middle">${r + 1}</text>`);
  parts.push(`<text x="${(m.left + W - m.right) / 2}" y="${H - 10}" text-anchor="middle">round</text>`);
  parts.push(`<text x="16" y="${(m.top + H - m.bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(m.top + H - m.bottom) / 2})">held-out success</text>`);
  all.forEach((f, i) => {
    const color = COLORS[f.arm] ?? "#000000";
    const points = f.held_out_success_by_round.map((v, r) => `${x(r).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`);
    const ly = m.top + 10 + i * 20;
    parts.push(`<line x1="${W - m.right + 16}" x2="${W - m.right + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    parts.push(`<text x="${W - m.right + 46}" y="${ly + 4}">${escape(f.label)}</text>`);
  });
  parts.push(`<text x="${W - m.right + 16}" y="${m.top + 10 + all.length * 20 + 10}" fill="#666666">shaded: last quarter</text>`);
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
