// Drawing the results into the page: the mask on a canvas, the legend, the timing tables.
import { CLASS_COLOURS, CLASS_NAMES, cssColour } from './palette.mjs';
import { formatMillis, formatSpeedup } from './timing.mjs';

/** One canvas pixel per mask pixel, coloured by class (CSS scales the canvas up, pixelated). */
export function drawMask(canvas, mask, width, height) {
  const image = new ImageData(width, height);
  for (let p = 0; p < mask.length; p += 1) {
    const [r, g, b] = CLASS_COLOURS[mask[p]];
    image.data.set([r, g, b, 255], p * 4);
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
}

/** A swatch, the name and the share of pixels for every class; classes absent from the mask are dimmed. */
export function fillLegend(list, mask) {
  const counts = new Array(CLASS_NAMES.length).fill(0);
  for (const c of mask) counts[c] += 1;
  list.replaceChildren(
    ...CLASS_NAMES.map((name, c) => {
      const item = document.createElement('li');
      item.dataset.class = String(c);
      if (counts[c] === 0) item.classList.add('absent');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = cssColour(CLASS_COLOURS[c]);
      const share = document.createElement('span');
      share.className = 'share';
      share.textContent = `${((100 * counts[c]) / mask.length).toFixed(1)}%`;
      item.append(swatch, `${c} ${name}`, share);
      return item;
    }),
  );
}

/** Which class a pointer over the canvas is on, and the scores behind it. */
export function describePixel(event, canvas, result, width, height) {
  const box = canvas.getBoundingClientRect();
  const x = Math.min(width - 1, Math.floor(((event.clientX - box.left) / box.width) * width));
  const y = Math.min(height - 1, Math.floor(((event.clientY - box.top) / box.height) * height));
  const c = result.mask[y * width + x];
  const score = result.scores.data[(c * height + y) * width + x];
  return `pixel (${x}, ${y}): class ${c} ${CLASS_NAMES[c]}, score ${score.toFixed(3)}`;
}

/**
 * Rows of a timing table: [{ name, millis, agree, ours? }]. The bar shows the time; the text
 * says how onnx-extrema compares with each loop.
 */
export function fillTimings(table, rows) {
  const ours = rows.find((row) => row.ours).millis;
  const slowest = Math.max(...rows.map((row) => row.millis));
  table.tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      if (row.ours) tr.className = 'ours';
      const name = document.createElement('td');
      name.innerHTML = row.name;
      const time = document.createElement('td');
      time.className = 'time';
      time.textContent = formatMillis(row.millis);
      const barCell = document.createElement('td');
      barCell.className = 'bar-cell';
      const bar = document.createElement('span');
      bar.className = 'bar';
      bar.style.width = `${Math.max(1, (100 * row.millis) / slowest)}%`;
      const compare = document.createElement('span');
      compare.className = 'compare';
      compare.textContent = row.ours ? '' : `onnx-extrema is ${formatSpeedup(ours, row.millis)}`;
      barCell.append(bar, compare);
      const agree = document.createElement('td');
      if (!row.ours) {
        agree.className = row.agree ? 'agree' : 'differ';
        agree.textContent = row.agree ? '✓ yes' : `✗ ${row.agreeText || 'no'}`;
      }
      tr.append(name, time, barCell, agree);
      return tr;
    }),
  );
}
