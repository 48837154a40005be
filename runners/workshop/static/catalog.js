"use strict";
// The catalog: every puzzle a row (its picture, name, kind, summary), filtered as one types.
const body = document.getElementById("puzzles");
const search = document.getElementById("search");
const shown = document.getElementById("shown");
let rows = [];

function row(puzzle) {
  const tr = document.createElement("tr");
  tr.dataset.text = (puzzle.name + " " + puzzle.kind + " " + puzzle.summary).toLowerCase();
  tr.dataset.ref = puzzle.ref;
  const href = "/puzzle?puzzle=" + encodeURIComponent(puzzle.ref);
  const picture = document.createElement("td");
  picture.className = "picture";
  const img = document.createElement("img");
  img.loading = "lazy";
  img.alt = puzzle.name;
  img.src = "/thumbnail.svg?puzzle=" + encodeURIComponent(puzzle.ref);
  picture.appendChild(img);
  const name = document.createElement("td");
  const link = document.createElement("a");
  link.href = href;
  link.textContent = puzzle.name;
  link.className = "puzzle-link";
  name.appendChild(link);
  const kind = document.createElement("td");
  kind.className = "kind";
  kind.textContent = puzzle.kind;
  const summary = document.createElement("td");
  summary.textContent = puzzle.summary;
  tr.append(picture, name, kind, summary);
  return tr;
}

function filter() {
  const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
  let n = 0;
  for (const tr of rows) {
    const keep = words.every((w) => tr.dataset.text.includes(w));
    tr.hidden = !keep;
    n += keep ? 1 : 0;
  }
  shown.textContent = n.toLocaleString("en-US") + " of " + plural(rows.length, "puzzle");
}

fetch("/api/catalog").then((r) => r.json()).then((data) => {
  rows = data.puzzles.map(row);
  body.append(...rows);
  filter();
  document.body.dataset.ready = "true";
});
search.addEventListener("input", filter);
