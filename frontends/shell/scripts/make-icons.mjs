// Draws the worker app's home-screen icons: a white check mark in a ring on the
// theme's blue, full bleed so the same image serves as a maskable icon (the mark stays inside the
// central safe zone). Run once after changing the drawing: node frontends/shell/scripts/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const BLUE = [0x0f, 0x2a, 0x5c];
const WHITE = [0xff, 0xff, 0xff];
const SAMPLES = 4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function distanceToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Whether a point (in units of the icon's size, 0 to 1) is white. */
function inMark(x, y) {
  const r = Math.hypot(x - 0.5, y - 0.5);
  if (Math.abs(r - 0.3) < 0.035) return true;
  const stroke = 0.045;
  return distanceToSegment(x, y, [0.37, 0.51], [0.46, 0.6]) < stroke || distanceToSegment(x, y, [0.46, 0.6], [0.64, 0.4]) < stroke;
}

function png(size) {
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) if (inMark((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)) hits++;
      }
      const a = hits / (SAMPLES * SAMPLES);
      for (let c = 0; c < 3; c++) row[1 + px * 3 + c] = Math.round(BLUE[c] * (1 - a) + WHITE[c] * a);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = join(import.meta.dirname, '..', 'public', 'icons');
for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), png(size));
