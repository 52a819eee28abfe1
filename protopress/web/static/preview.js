// The live preview: every face of every kind, redrawn when the catalog's files change.
"use strict";

// $ and el come from page.js.
let shown = -1;
let selected = null;

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

// Sides that do not draw show their last drawing, marked stale (the problem is listed).
function markStale(sides, names, stale) {
  names.forEach((side, index) => {
    if (!stale.includes(side)) return;
    const figure = sides.children[index];
    figure.classList.add("stale");
    figure.append(el("span", { class: "stale-mark", text: "stale: the last drawing, see the problem" }));
  });
}

function showFields(kind, component) {
  selected = kind + "/" + component.id;
  document.querySelectorAll(".face.selected").forEach((f) => f.classList.remove("selected"));
  const face = document.querySelector(`.face[data-key="${CSS.escape(selected)}"]`);
  if (face) face.classList.add("selected");
  $("fields-title").textContent = `${component.title} (${kind}, \u00d7${component.count})`;
  const list = el("dl");
  for (const [name, value] of Object.entries(component.fields)) {
    list.append(el("dt", { text: name }), el("dd", { text: typeof value === "string" ? value : JSON.stringify(value) }));
  }
  $("fields").replaceChildren(list, problemList(component.problems) || el("span"));
}

function render(model) {
  $("title").textContent = model.title ? "Preview: " + model.title : "Preview";
  $("updated").textContent = `version ${model.version}, ${new Date().toLocaleTimeString()}`;
  $("stale").hidden = !model.stale;
  $("problems").replaceChildren(...model.problems.map((p) => el("li", { text: p })));
  const placed = model.placed || {};
  const sections = [];
  for (const kind of model.kinds) {
    const total = kind.components.reduce((n, c) => n + c.count, 0);
    const grid = el("div", { class: "faces" });
    for (const component of kind.components) {
      const problems = component.problems.concat(placed[component.id] || []);
      const sides = el("div", { class: "sides" });
      for (const side of kind.sides) {
        const src = `/face/${encodeURIComponent(kind.kind)}/${encodeURIComponent(component.id)}/${side}.png?v=${model.version}`;
        const [width, height] = kind.size || [0, 0];  // room kept before the image loads
        sides.append(el("figure", {}, el("img", { src, alt: `${component.title} ${side}`, loading: "lazy", width, height }), el("figcaption", { text: side })));
      }
      const key = kind.kind + "/" + component.id;
      markStale(sides, kind.sides, component.stale || []);
      grid.append(
        el(
          "div",
          {
            class: "face" + (problems.length ? " problem" : "") + (key === selected ? " selected" : ""),
            "data-key": key,
            "data-id": component.id,
            tabindex: "0",
            onclick: () => showFields(kind.kind, { ...component, problems }),
          },
          el("div", { class: "name", text: `${component.title} \u00d7${component.count}` }),
          kind.sides.length ? sides : null,
          problemList(problems),
        ),
      );
    }
    sections.push(
      el(
        "section",
        { class: "kind", id: "kind-" + kind.kind },
        el("h2", { text: `${kind.kind}: ${kind.components.length} designs, ${total} copies` }),
        problemList(kind.problems),
        grid,
      ),
    );
  }
  $("kinds").replaceChildren(...sections);
  document.body.dataset.version = model.version;
}

async function poll() {
  try {
    const { version } = await get("/api/version");
    if (version !== shown) {
      const model = await get("/api/state");
      shown = model.version;
      render(model);
    }
  } catch (error) {
    $("updated").textContent = error instanceof Refused ? error.message : "protopress is not answering: is the preview still running?";
  }
  setTimeout(poll, 700);
}

poll();
