// The live preview: every face of every kind, redrawn when the catalog's files change.
"use strict";

// $ and el come from page.js.
let shown = -1;
let model = null;
let selected = null; // "kind/id" of the face whose fields are shown
let viewing = null; // { key, side } of the face open full size
const ZOOM_KEY = "protopress-preview-zoom";

class Refused extends Error {}

async function get(path) {
  const response = await fetch(path, { cache: "no-store" });
  const data = await response.json();
  if (!response.ok) throw new Refused(data.error || response.statusText);  // say, a key from an earlier start
  return data;
}

function problemList(problems) {
  return problems.length ? el("ul", { class: "problems" }, ...problems.map((p) => el("li", { text: p }))) : null;
}

function faceSrc(kind, id, side, large = false) {
  const path = `/face/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/${side}.png`;
  return `${path}?v=${model.version}` + (large ? "&size=large" : "");
}

// Every component of the model with its kind and the problems placed on it, by "kind/id".
function entries() {
  const found = new Map();
  if (!model) return found;
  const placed = model.placed || {};
  for (const kind of model.kinds) {
    for (const component of kind.components) {
      const problems = component.problems.concat(placed[component.id] || []);
      found.set(kind.kind + "/" + component.id, { kind, component: { ...component, problems } });
    }
  }
  return found;
}

// Sides that do not draw show their last drawing, marked stale (the problem is listed).
function markStale(sides, names, stale) {
  names.forEach((side, index) => {
    if (!stale.includes(side)) return;
    const figure = sides.children[index];
    figure.classList.add("stale");
    figure.append(el("span", { class: "stale-mark", text: "stale: the last drawing, see the problem" }));
  });
}

// The fields panel of the selected face, from the model as last drawn (so a rename shows at once).
function showFields() {
  document.querySelectorAll(".face.selected").forEach((f) => f.classList.remove("selected"));
  if (selected === null) return;
  const entry = entries().get(selected);
  if (!entry) {
    $("fields-title").textContent = "Fields";
    $("fields").replaceChildren(el("p", { class: "muted", text: `${selected} is no longer in the catalog.` }));
    return;
  }
  const { kind, component } = entry;
  const face = document.querySelector(`.face[data-key="${CSS.escape(selected)}"]`);
  if (face) face.classList.add("selected");
  $("fields-title").textContent = `${component.title} (${kind.kind}, \u00d7${component.count})`;
  const list = el("dl");
  for (const [name, value] of Object.entries(component.fields)) {
    list.append(el("dt", { text: name }), el("dd", { text: typeof value === "string" ? value : JSON.stringify(value) }));
  }
  const open = kind.sides.length
    ? el("button", { type: "button", text: "Full size (Enter)", onclick: () => openViewer(selected, kind.sides[0]) })
    : null;
  $("fields").replaceChildren(list, open || el("span"), problemList(component.problems) || el("span"));
}

function select(key) {
  selected = key;
  showFields();
}

function tile(kind, component) {
  const key = kind.kind + "/" + component.id;
  const sides = el("div", { class: "sides" });
  for (const side of kind.sides) {
    const [width, height] = kind.size || [0, 0];  // room kept before the image loads
    const image = el("img", { src: faceSrc(kind.kind, component.id, side), alt: `${component.title} ${side}`, loading: "lazy", width, height });
    sides.append(el("figure", { ondblclick: () => openViewer(key, side) }, image, el("figcaption", { text: side })));
  }
  markStale(sides, kind.sides, component.stale || []);
  const search = `${component.id} ${component.title} ${kind.kind}`.toLowerCase();
  return el(
    "div",
    {
      class: "face" + (component.problems.length ? " problem" : ""),
      "data-key": key,
      "data-id": component.id,
      "data-search": search,
      tabindex: "0",
      onclick: () => select(key),
      onfocus: () => select(key),
    },
    el("div", { class: "name", text: `${component.title} \u00d7${component.count}` }),
    kind.sides.length ? sides : null,
    problemList(component.problems),
  );
}

function render(data) {
  model = data;
  $("title").textContent = model.title ? "Preview: " + model.title : "Preview";
  $("updated").textContent = `version ${model.version}, ${new Date().toLocaleTimeString()}`;
  $("stale").hidden = !model.stale;
  $("problems").replaceChildren(...model.problems.map((p) => el("li", { text: p })));
  showReport(model.report || []);
  const all = entries();
  const sections = [];
  for (const kind of model.kinds) {
    const total = kind.components.reduce((n, c) => n + c.count, 0);
    const grid = el("div", { class: "faces", style: `--sides: ${Math.max(1, kind.sides.length)}` });
    for (const component of kind.components) grid.append(tile(kind, all.get(kind.kind + "/" + component.id).component));
    sections.push(
      el(
        "section",
        { class: "kind", id: "kind-" + kind.kind, "data-kind": kind.kind },
        el("h2", { text: `${kind.kind}: ${kind.components.length} designs, ${total} copies` }),
        problemList(kind.problems),
        grid,
      ),
    );
  }
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
  $("kinds").replaceChildren(...sections);
  applyFilter();
  showFields();
  if (focused) {
    const again = document.querySelector(`.face[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  if (viewing) showViewer();
  document.body.dataset.version = model.version;
}

// Every problem of the files in one list: the very lines `validate` prints of them.
function showReport(lines) {
  const warnings = lines.filter((line) => line.startsWith("warning ")).length;
  const problems = lines.length - warnings;
  const counts = [[problems, "problem"], [warnings, "warning"]].filter(([n]) => n)
    .map(([n, word]) => `${n} ${word}${n === 1 ? "" : "s"}`);
  $("report").hidden = !lines.length;
  $("report-title").textContent = `All ${counts.join(" and ")}, as validate prints them`;
  $("report-list").replaceChildren(...lines.map((line) => el("li", { text: line })));
}

// Filtering by id, title or kind: the faces that do not match are hidden, and kinds left empty.
function applyFilter() {
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  let visible = 0;
  let total = 0;
  for (const section of document.querySelectorAll("#kinds .kind")) {
    let inKind = 0;
    for (const face of section.querySelectorAll(".face")) {
      const match = words.every((word) => face.dataset.search.includes(word));
      face.hidden = !match;
      inKind += match;
      total += 1;
    }
    section.hidden = words.length > 0 && inKind === 0;
    visible += inKind;
  }
  $("shown-count").textContent = words.length ? `${visible} of ${total} shown` : `${total} components`;
}

function applyZoom() {
  const width = Number($("zoom").value);
  document.documentElement.style.setProperty("--face", `${width}px`);
  localStorage.setItem(ZOOM_KEY, String(width));
}

function visibleFaces() {
  return [...document.querySelectorAll("#kinds .face")].filter((face) => face.offsetParent !== null);
}

// The next face in a direction: left and right in reading order, up and down the nearest
// face on the row above or below.
function neighbour(face, key) {
  const faces = visibleFaces();
  const index = faces.indexOf(face);
  if (key === "ArrowRight") return faces[index + 1];
  if (key === "ArrowLeft") return faces[index - 1];
  const here = face.getBoundingClientRect();
  const below = key === "ArrowDown";
  let best = null;
  let bestScore = Infinity;
  for (const other of faces) {
    const there = other.getBoundingClientRect();
    const rows = below ? there.top - here.bottom : here.top - there.bottom;
    if (rows < -1) continue;
    const score = rows * 10 + Math.abs(there.left - here.left);
    if (score < bestScore) [best, bestScore] = [other, score];
  }
  return best;
}

function openViewer(key, side) {
  viewing = { key, side };
  showViewer();
  if (!$("viewer").open) $("viewer").showModal();
}

function showViewer() {
  const entry = entries().get(viewing.key);
  if (!entry || !entry.kind.sides.length) {
    closeViewer();
    return;
  }
  const { kind, component } = entry;
  if (!kind.sides.includes(viewing.side)) viewing.side = kind.sides[0];
  $("viewer-title").textContent = `${component.title} (${kind.kind}, ${viewing.side})`;
  const image = $("viewer-image");
  image.src = faceSrc(kind.kind, component.id, viewing.side, true);
  image.alt = `${component.title} ${viewing.side}, full size`;
  $("viewer-sides").replaceChildren(...kind.sides.map((side) =>
    el("button", { type: "button", class: side === viewing.side ? "primary" : "", text: side,
      onclick: () => { viewing.side = side; showViewer(); } })));
}

function closeViewer() {
  const key = viewing && viewing.key;
  viewing = null;
  if ($("viewer").open) $("viewer").close();
  const face = key && document.querySelector(`.face[data-key="${CSS.escape(key)}"]`);
  if (face) face.focus();
}

$("viewer").addEventListener("close", () => { if (viewing) closeViewer(); });
$("viewer-close").addEventListener("click", closeViewer);
$("viewer").addEventListener("keydown", (event) => {
  if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
  const face = document.querySelector(`.face[data-key="${CSS.escape(viewing.key)}"]`);
  const next = face && neighbour(face, event.key);
  if (next) {
    select(next.dataset.key);
    openViewer(next.dataset.key, viewing.side);
  }
  event.preventDefault();
});

document.addEventListener("keydown", (event) => {
  if ($("viewer").open || event.altKey || event.ctrlKey || event.metaKey) return;
  const typing = event.target instanceof HTMLInputElement;
  if (event.key === "/" && !typing) {
    $("filter").focus();
    event.preventDefault();
    return;
  }
  if (typing) {
    if (event.target === $("filter") && (event.key === "Enter" || event.key === "ArrowDown")) {
      const first = visibleFaces()[0];
      if (first) first.focus();
      event.preventDefault();
    }
    return;
  }
  const face = event.target.closest && event.target.closest(".face");
  if (event.key === "Enter" && face) {
    const key = face.dataset.key;
    const entry = entries().get(key);
    if (entry && entry.kind.sides.length) openViewer(key, entry.kind.sides[0]);
    event.preventDefault();
  } else if (face && event.key.startsWith("Arrow")) {  // elsewhere the arrows scroll the page
    const next = neighbour(face, event.key);
    if (next) {
      next.focus();
      next.scrollIntoView({ block: "nearest" });
    }
    event.preventDefault();
  }
});

$("filter").addEventListener("input", applyFilter);
$("zoom").addEventListener("input", applyZoom);
const savedZoom = Number(localStorage.getItem(ZOOM_KEY));
if (savedZoom >= Number($("zoom").min) && savedZoom <= Number($("zoom").max)) $("zoom").value = String(savedZoom);
applyZoom();

async function poll() {
  try {
    const { version } = await get("/api/version");
    if (version !== shown) {
      const data = await get("/api/state");
      shown = data.version;
      render(data);
    }
  } catch (error) {
    $("updated").textContent = error instanceof Refused ? error.message : "protopress is not answering: is the preview still running?";
  }
  setTimeout(poll, 700);
}

poll();
