// The playtest table: draws whatever the seat's view holds, with no game's names in it.
// The server sends only what the seat on screen may see; every change is a POST that
// says how many moves the page saw, so a second tap or a second window changes nothing.
"use strict";

let state = null;
let busy = false;
let botTimer = null;
let picked = null; // the actions a tap matched when it matched several (their JSON forms)
let chosen = []; // the places tapped so far toward an action naming several (as JSON), in its fields' order
let folding = false; // drawing a folded section: its faces load only when it is opened

const SPEED_KEY = "protopress-table-speed";

function label(name) {
  return String(name).replace(/_/g, " ");
}

function component(id) {
  return state && typeof id === "string" ? state.components[id] : undefined;
}

// The action's words with component ids given their names ("play card=Triple Dig").
function say(words) {
  return words.replace(/=([^\s]+)/g, (all, value) => {
    const known = component(value);
    return known ? `=${known.name}` : all;
  });
}

function actionsNaming(id) {
  return state.actions.filter((act) => act.names.includes(id));
}

function placesOf(act) {
  return (act.at || []).map((place) => JSON.stringify(place));
}

// The actions a tap on the place at path leads to (its place in the view's fields:
// ["market", 1], as the server found it from the actions' declarations): those whose
// places begin with the places chosen so far and then this one.
function actionsAt(path) {
  if (!path) return [];
  const taps = [...chosen, JSON.stringify(path)];
  return state.actions.filter((act) => {
    const places = placesOf(act);
    return places.length >= taps.length && taps.every((place, index) => places[index] === place);
  });
}

// What a tap on the component id drawn at path takes: the actions naming that place,
// else (no place chosen before) those naming the component.
function tapped(id, path) {
  const at = actionsAt(path);
  return at.length || chosen.length ? at : id === null ? [] : actionsNaming(id);
}

function isPicked(act) {
  return picked !== null && picked.has(JSON.stringify(act.encoded));
}

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    showError("protopress does not answer: is it still running in the terminal?");
    return null;
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!data || typeof data.moves !== "number") {
    showError((data && data.error) || `The server answered ${response.status}.`);
    return null;
  }
  return data;
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  const data = await call(path, body);
  busy = false;
  document.body.classList.remove("busy");
  if (data) render(data);
}

function play(act) {
  picked = null;
  chosen = [];
  send("/api/play", { action: act.encoded, after: state.moves });
}

// A tap: the one action it completes is played; several are marked among the buttons;
// a place that begins actions naming more places is chosen (framed), and the next tap
// says the next place. An action the tap completes wins over longer ones (they stay buttons).
function tap(id, path) {
  const naming = tapped(id, path);
  const done = naming.filter((act) => placesOf(act).length <= chosen.length + 1);
  if (done.length === 1) play(done[0]);
  else if (done.length > 1) {
    picked = new Set(done.map((act) => JSON.stringify(act.encoded)));
    renderChoices();
  } else if (naming.length) {
    chosen = [...chosen, JSON.stringify(path)];
    picked = new Set(naming.map((act) => JSON.stringify(act.encoded)));
    redraw(path);
  }
}

// Forget the places chosen toward an action (Escape, a tap elsewhere).
function unchoose() {
  if (!chosen.length) return;
  const last = chosen[chosen.length - 1];
  chosen = [];
  picked = null;
  redraw(JSON.parse(last));
}

// The board and the buttons drawn again for the places chosen, the focus kept on the place at path.
function redraw(path) {
  renderBoard();
  renderChoices();
  renderPrompt();
  const node = document.querySelector(`[data-at='${JSON.stringify(path)}']`);
  if (node) node.focus();
}

// A node drawn at path made a tap for the actions naming that place (a spire, a slot).
function tappableAt(node, path) {
  if (!node) return node;
  markChosen(node, path);
  if (!actionsAt(path).length) return node;
  node.classList.add("tappable", "place");
  node.dataset.at = JSON.stringify(path);
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    tap(null, path);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      tap(null, path);
    }
  });
  return node;
}

// A place chosen toward an action naming several: framed, and said to be pressed (a
// tap on it again lets it go, as a tap elsewhere does).
function markChosen(node, path) {
  if (!path || !chosen.includes(JSON.stringify(path))) return;
  node.classList.add("chosen");
  node.dataset.at = JSON.stringify(path);
  node.setAttribute("role", "button");
  node.setAttribute("aria-pressed", "true");
  node.tabIndex = 0;
}

// --- drawing the view --------------------------------------------------------------

// A component: its face, or a chip; a tap when an action names it, by its id or by
// its place (path) in the view.
function token(id, path) {
  const known = component(id);
  const tappable = state.actions.length && known && tapped(id, path).length > 0;
  const place = actionsAt(path).length ? JSON.stringify(path) : null;
  if (known && known.image) {
    const node = el("button", { type: "button", class: "face", "data-id": id, title: known.name },
      picture(known.image, known.name, folding));
    if (tappable) {
      node.classList.add("tappable");
      if (place) node.dataset.at = place;
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        tap(id, path);
      });
    } else node.disabled = !chosen.includes(JSON.stringify(path));
    markChosen(node, path);
    return node;
  }
  const chip = el("span", { class: "chip", "data-id": String(id) });
  if (known && known.colour) chip.append(el("span", { class: "dot", style: `background:${known.colour}` }));
  chip.append(document.createTextNode(known ? known.name : String(id)));
  if (tappable) {
    chip.classList.add("tappable");
    if (place) chip.dataset.at = place;
    chip.setAttribute("role", "button");
    chip.tabIndex = 0;
    chip.addEventListener("click", (event) => {
      event.stopPropagation();
      tap(id, path);
    });
  }
  markChosen(chip, path);
  return chip;
}

function back(hidden) {
  const known = hidden.kind ? component(`back:${hidden.kind}`) : undefined;
  const text = `${label(hidden.hidden)}: ${hidden.count} face down`;
  const node = el("span", { class: "back", title: text, "aria-label": text, "data-hidden": hidden.hidden });
  if (known && known.image) node.append(picture(known.image, text));
  else node.append(document.createTextNode(label(hidden.hidden)));
  node.append(el("span", { class: "count", text: String(hidden.count) }));
  return node;
}

function isHidden(value) {
  return value && typeof value === "object" && !Array.isArray(value) && "hidden" in value && "count" in value;
}

// A part of the view the server could not show without telling a hidden card.
function isUnseen(value) {
  return value && typeof value === "object" && value.unseen === true;
}

function isTally(value) {
  return value && typeof value === "object" && !Array.isArray(value) && !isHidden(value) &&
    Object.keys(value).length > 0 && Object.values(value).every((v) => typeof v === "number");
}

function tally(name, value) {
  const text = typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  return el("span", { class: "tally" }, document.createTextNode(`${label(name)} `), el("b", { text }));
}

// One value of the view as nodes: faces, backs, chips, counters, nested parts; path:
// where value is in the view's fields (null where the page drew it from elsewhere).
function draw(value, depth, path) {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return el("b", { text: tallyText(value) });
  if (typeof value === "string") return token(value, path);
  if (isHidden(value)) return back(value);
  if (isUnseen(value)) return el("span", { class: "chip unseen", title: "not shown: it would tell a hidden card", text: "?" });
  if (Array.isArray(value)) {
    if (!value.length) return el("span", { class: "muted", text: "none" });
    if (value.every((item) => item === null)) return null;
    if (isGrid(value)) return grid(value, path);
    const flat = value.every((item) => item === null || typeof item !== "object" || isHidden(item) || component(item.id));
    const row = el("div", { class: flat ? "row" : "nested" });
    value.forEach((item, index) => {
      const at = within(path, index);
      const drawn = draw(item, depth + 1, at);
      if (!drawn) return;
      row.append(flat ? drawn : zone(String(index), item, depth + 1, at));
    });
    return row;
  }
  if (typeof value.id === "string" && component(value.id)) return token(value.id, path);
  if (isTally(value)) {
    const row = el("div", { class: "counter-row" });
    for (const [key, count] of Object.entries(value)) {
      row.append(el("span", { class: "tally" }, token(key, within(path, key)), document.createTextNode(" "), el("b", { text: String(count) })));
    }
    return row;
  }
  const part = el("div", { class: "part" });
  for (const [key, item] of Object.entries(value)) {
    const drawn = zone(key, item, depth + 1, within(path, key));
    if (drawn) part.append(drawn);
  }
  return part;
}

function within(path, key) {
  return path ? [...path, key] : null;
}

// Rows of equal length holding numbers, texts or components: drawn as a grid.
function isGrid(value) {
  if (value.length < 2 || !value.every(Array.isArray)) return false;
  const width = value[0].length;
  return width >= 2 && value.every((row) => row.length === width &&
    row.every((cell) => cell === null || typeof cell !== "object"));
}

// A grid's cells are small: a component is its colour and its name's first letter. A
// cell an action names by its place (row, then column) holds a tap filling the cell.
function grid(rows, path) {
  const table = el("div", { class: "grid", role: "table", style: `grid-template-columns: repeat(${rows[0].length}, 1.8rem)` });
  for (const [index, row] of rows.entries()) {
    const line = el("div", { class: "grid-row", role: "row" });
    for (const [column, cell] of row.entries()) {
      const known = typeof cell === "string" ? component(cell) : undefined;
      const name = known ? known.name : cell === null ? "empty" : tallyText(cell);
      const node = el("span", { class: "cell", role: "cell", title: name, "aria-label": name });
      const mark = el("span", { class: "mark", text: known ? known.name.slice(0, 1) : cell === null ? "" : tallyText(cell) });
      node.append(tappableAt(mark, within(within(path, index), column)));
      if (mark.dataset.at) mark.setAttribute("aria-label", `${name}, row ${index + 1}, column ${column + 1}`);
      if (known && known.colour) {
        node.style.background = known.colour;
        node.classList.add("coloured");
      }
      line.append(node);
    }
    table.append(tappableAt(line, within(path, index)));
  }
  return table;
}

function tallyText(value) {
  return typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
}

// A named part of the view; a tap as a whole when an action names its place and it
// is not a component (which is a tap itself): a spire of a tower, a row.
function zone(name, value, depth, path) {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return tally(name, value);
  const drawn = draw(value, depth, path);
  if (!drawn) return null;
  const node = el("div", { class: "zone", "data-zone": name }, el("span", { class: "label", text: label(name) }), drawn);
  const isComponent = typeof value === "string" || (typeof value.id === "string" && component(value.id));
  return isComponent ? node : tappableAt(node, path);
}

function renderBoard() {
  const board = $("board");
  board.replaceChildren();
  const view = state.table;
  const players = view.players;
  const fields = view.fields && typeof view.fields === "object" ? view.fields
    : Object.fromEntries(Object.entries(view).filter(([key]) =>
      !["seat", "players", "to_move", "over", "scores", "winners", "hidden"].includes(key)));
  const unchanged = new Set(state.unchanged);
  const bySeat = Array.from({ length: players }, () => []);
  const shared = [];
  const tables = [];
  for (const [name, value] of Object.entries(fields)) {
    if (isUnseen(value)) continue;
    if (unchanged.has(name)) tables.push([name, value]);
    else if (Array.isArray(value) && players > 1 && value.length === players) {
      value.forEach((item, seat) => bySeat[seat].push([name, item]));
    } else shared.push([name, value]);
  }
  const more = shared.filter(([, value]) => isBookkeeping(value));
  const open = shared.filter(([, value]) => !isBookkeeping(value));
  const seats = el("div", { class: "seats" });
  bySeat.forEach((entries, seat) => {
    const you = seat === state.viewer;
    const box = el("section", { class: "seat", "data-seat": String(seat) },
      el("h3", { text: state.names[seat] + (you && state.people.length > 1 ? " (you)" : "") }));
    if (seat === state.mover) box.classList.add("moving");
    for (const [name, value] of entries) {
      if (value && typeof value === "object" && !Array.isArray(value) && !isHidden(value) && !isTally(value) && !component(value.id)) {
        for (const [key, item] of Object.entries(value)) {
          const drawn = zone(key, item, 1, [name, seat, key]);
          if (drawn) box.append(drawn);
        }
      } else {
        const drawn = zone(name, value, 1, [name, seat]);
        if (drawn) box.append(drawn);
      }
    }
    seats.append(box);
  });
  board.append(el("h2", { text: "The table" }), seats);
  const middle = el("div", { class: "shared" });
  for (const [name, value] of open) {
    const drawn = zone(name, value, 0, [name]);
    if (drawn) middle.append(drawn);
  }
  board.append(middle);
  if (more.length) {
    const details = el("details", { class: "tables" }, el("summary", { text: "More of the game's state" }));
    for (const [name, value] of more) {
      const drawn = zone(name, value, 0, [name]);
      if (drawn) details.append(drawn);
    }
    board.append(details);
  }
  if (tables.length) {
    const details = el("details", { class: "tables" }, el("summary", { text: "The game's tables and settings" }));
    folding = true; // a game's tables may name every card: their faces load when opened
    for (const [name, value] of tables) {
      const drawn = zone(name, value, 0, [name]);
      if (drawn) details.append(drawn);
    }
    folding = false;
    board.append(details);
  }
}

// A list or object that names no component and hides nothing: the engine's own
// bookkeeping (steps pending, a decision under way), shown on request.
function isBookkeeping(value) {
  if (!value || typeof value !== "object" || isHidden(value) || isUnseen(value)) return false;
  const parts = Array.isArray(value) ? value : Object.values(value);
  if (!parts.length) return false;
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string" && component(item)) return false;
    if (item && typeof item === "object") {
      if (isHidden(item)) return false;
      for (const [key, inner] of Object.entries(item)) {
        if (!Array.isArray(item) && component(key)) return false;
        stack.push(inner);
      }
    }
  }
  return true;
}

const MANY = 12; // more actions than this: grouped by verb, each group folded

function choiceButton(act, index) {
  const named = isPicked(act);
  const button = el("button", { type: "button", class: named ? "named" : "", text: say(act.words), "data-index": String(index) });
  button.addEventListener("click", () => play(act));
  return button;
}

// "row=2": the field at depth (1: the first after the verb) as the words name it.
function fieldTitle(act, depth, value) {
  const names = [...act.words.matchAll(/(\w+)=/g)].map((found) => found[1]);
  const shown = typeof value === "string" && component(value) ? component(value).name : JSON.stringify(value);
  return `${label(names[depth - 1] || "")}=${shown}`;
}

function renderChoices() {
  const box = $("choices");
  box.replaceChildren();
  const all = state.actions.map((act, index) => [act, index]);
  if (all.length <= MANY) {
    for (const [act, index] of all) box.append(choiceButton(act, index));
    return;
  }
  box.append(...folded(all, 0, true));
}

// Actions split by their part at depth (the verb, then each field's value in turn)
// while a group holds more than MANY and parts remain: folded groups, one level in another.
function folded(acts, depth, only) {
  const groups = new Map();
  for (const entry of acts) {
    const part = JSON.stringify(entry[0].encoded[depth]);
    if (!groups.has(part)) groups.set(part, []);
    groups.get(part).push(entry);
  }
  const nodes = [];
  for (const [part, members] of groups) {
    const value = JSON.parse(part);
    const named = members.some(([act]) => isPicked(act));
    const title = depth === 0 ? label(value) : fieldTitle(members[0][0], depth, value);
    const group = el("details", { class: "verb", "data-part": part },
      el("summary", { text: `${title} (${members.length})` }));
    group.open = named || (only && groups.size === 1) || members.length <= MANY && groups.size <= 3;
    const deeper = members[0][0].encoded.length > depth + 2 && members.length > MANY;
    if (deeper) group.append(...folded(members, depth + 1, groups.size === 1));
    else {
      const row = el("div", { class: "choices" });
      for (const [act, index] of members) row.append(choiceButton(act, index));
      group.append(row);
    }
    nodes.push(group);
  }
  return nodes;
}

function renderLog() {
  const log = $("log");
  log.replaceChildren();
  state.log.forEach((move, index) => {
    const item = el("li", { class: move.by === "person" ? "person" : "bot", text: `${state.names[move.seat]}: ${say(move.words)}` });
    if (index === state.log.length - 1) item.classList.add("last");
    log.append(item);
  });
  log.scrollTop = log.scrollHeight;
}

function renderEnd() {
  const end = $("end");
  end.hidden = !state.over;
  if (!state.over) return;
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  const scores = state.table.scores || [];
  const winners = state.table.winners || [];
  scores.forEach((score, seat) => {
    const row = el("tr", { class: winners.includes(seat) ? "won" : "" },
      el("td", { text: state.names[seat] + (winners.includes(seat) ? " (won)" : "") }), el("td", { text: String(score) }));
    body.append(row);
  });
  $("replay-note").textContent = state.replay_log
    ? `The game's log is saved as ${state.replay_log} (in play-logs beside the save): protopress replay plays it again, ` +
      `and protopress balance ${state.game} --store FILE --add-replay adds it to a balance run's store as a human game.`
    : "";
}

// The components in a seat's part of the table (the fields with one entry per seat).
function seatComponents(view, seat) {
  const found = new Map();
  const fields = (view.table && view.table.fields) || {};
  const unchanged = new Set(view.unchanged || []);
  const stack = [];
  for (const [name, value] of Object.entries(fields)) {
    if (!unchanged.has(name) && Array.isArray(value) && value.length === view.table.players) stack.push(value[seat]);
  }
  while (stack.length) {
    const item = stack.pop();
    const id = typeof item === "string" ? item : item && typeof item.id === "string" ? item.id : null;
    if (id !== null && view.components[id]) found.set(id, (found.get(id) || 0) + 1);
    else if (isTally(item)) {
      for (const [key, count] of Object.entries(item)) {
        if (view.components[key] && count > 0) found.set(key, (found.get(key) || 0) + count);
      }
    } else if (item && typeof item === "object" && !isHidden(item)) stack.push(...Object.values(item));
  }
  return found;
}

// The last move in words; after a move seen happen, what the mover's part of the
// table gained by it ("Greedy (seat 1): build slot=1, gains Quarry").
function lastLine(before) {
  const last = state.log[state.log.length - 1];
  if (!last) return "";
  let line = `${state.names[last.seat]}: ${say(last.words)}`;
  if (before && before.table && state.table && before.moves === state.moves - 1) {
    const had = seatComponents(before, last.seat);
    const gained = [];
    for (const [id, count] of seatComponents(state, last.seat)) {
      for (let extra = count - (had.get(id) || 0); extra > 0; extra--) gained.push(component(id).name);
    }
    if (gained.length) line += `, gains ${gained.join(", ")}`;
  }
  return line;
}

function renderPrompt() {
  const data = state;
  const prompt = $("prompt");
  if (data.over) prompt.textContent = "The game is over";
  else if (chosen.length) prompt.textContent = "Now tap where to (Escape or a tap elsewhere cancels)";
  else if (data.actions.length) prompt.textContent = data.people.length > 1 ? `${data.names[data.viewer]}, your move` : "Your move";
  else prompt.textContent = `${data.names[data.mover]} is to move`;
}

function render(data) {
  const before = state;
  state = data;
  clearTimeout(botTimer);
  showError(data.error || "");
  const passing = data.pass_to !== null && data.pass_to !== undefined;
  $("pass").hidden = !passing;
  $("play").hidden = passing;
  $("title").textContent = `Playtest: ${data.game}`;
  if (passing) {
    // nothing of the last player's seat stays in the page, shown or not
    for (const id of ["board", "choices", "log", "bot-line"]) $(id).replaceChildren();
    const who = data.names[data.pass_to];
    $("pass-heading").textContent = `Pass the device to ${who}`;
    $("ready").textContent = `I am ${who}: show my seat`;
    $("status").textContent = `move ${data.moves}`;
    $("pass-heading").focus();
    return;
  }
  $("status").textContent = `seed ${data.seed}, move ${data.moves}` + (data.over ? ", over" : "");
  const notice = $("notice");
  notice.textContent = data.notice || "";
  notice.hidden = !data.notice;
  if (picked !== null && !data.actions.some((act) => isPicked(act))) picked = null;
  chosen = [];
  renderBoard();
  renderChoices();
  renderLog();
  renderEnd();
  $("bot-line").textContent = lastLine(before);
  renderPrompt();
  const mine = data.log.some((move) => move.by === "person" && move.seat === data.viewer);
  $("undo").disabled = !mine;
  const stepping = $("speed").value === "step";
  $("step").hidden = !(data.bot_to_move && stepping);
  if (data.bot_to_move && !stepping) {
    botTimer = setTimeout(() => send("/api/bot", { after: state.moves }), Number($("speed").value));
  }
}

// A place chosen toward a two-place action is let go by Escape or by a tap on anything
// that is no next place (the next places and the buttons stop or take the tap first).
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") unchoose();
});
document.addEventListener("click", (event) => {
  if (chosen.length && !event.target.closest("#choices")) unchoose();
});

$("ready").addEventListener("click", () => send("/api/ready", { seat: state.pass_to }));
$("undo").addEventListener("click", () => send("/api/undo", { after: state.moves }));
$("step").addEventListener("click", () => send("/api/bot", { after: state.moves }));
$("new-game").addEventListener("click", () => send("/api/new", { seed: Math.floor(Math.random() * 1000000) }));
$("speed").addEventListener("change", () => {
  localStorage.setItem(SPEED_KEY, $("speed").value);
  if (state) render(state);
});
const savedSpeed = localStorage.getItem(SPEED_KEY);
if (savedSpeed && [...$("speed").options].some((option) => option.value === savedSpeed)) $("speed").value = savedSpeed;
call("/api/state").then((data) => data && render(data));
