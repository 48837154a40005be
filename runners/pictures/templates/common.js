"use strict";
// Shared by every play page: the embedded data, SVG elements, the status line, a seeded random.
const DATA = JSON.parse(document.getElementById("puzzle-data").textContent);
const SVGNS = "http://www.w3.org/2000/svg";

function svgElement(tag, attributes, parent) {
  const element = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function setStatus(text, solved) {
  document.getElementById("status").textContent = text;
  document.body.dataset.solved = solved ? "true" : "false";
}

function setCounters(parts) {
  const box = document.getElementById("counters");
  box.textContent = "";
  for (const [id, text] of parts) {
    const span = document.createElement("span");
    span.id = id;
    span.textContent = text;
    box.appendChild(span);
  }
}

function seededRandom(seed) {  // mulberry32: the same shuffle every time the page opens
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function svgPoint(svg, event) {  // pointer position in the drawing's own units
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function onButton(id, handler) {
  const button = document.getElementById(id);
  if (button) button.addEventListener("click", handler);
}
