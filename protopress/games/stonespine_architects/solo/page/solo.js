// The solo companion page: the server's engine decides; the page taps an answer
// together in the terminal's words ("2 goblin, ogre") and shows what comes back.
// After every answer the "Now" panel (what the companion just said, then the next
// question) is brought into view, focused and announced.
"use strict";

// $, el and picture come from page.js.

const LOCK_MS = 1000; // after an answer, taps wait this long: a double tap answers once

class Expired extends Error {}

async function call(path, body) {
  const options = { headers: {} };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 401 || response.status === 403) throw new Expired();
  let data;
  try {
    data = await response.json();
  } catch (error) {
    data = { error: `The companion answered ${response.status} without the game.` };
  }
  return { ok: response.ok, status: response.status, data };
}

// A request whose reply never came (a dropped connection, a phone's wifi) is sent
// again, up to three more times: it carries the number of answers the page saw, so
// the server applies it at most once and otherwise answers 409 with the game as it is.
async function callAgain(path, body) {
  for (const wait of [500, 1000, 2000]) {
    try {
      return await call(path, body);
    } catch (error) {
      if (error instanceof Expired) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return call(path, body);
}

let state = null;
let busy = false;

async function send(path, body) {
  if (busy) return;
  busy = true;
  try {
    const { ok, status, data } = await callAgain(path, body);
    if (ok) {
      render(data, true);
    } else if (status === 409) {
      render(data, true); // the game moved on (an answer sent twice, another window): show it
      showError(data.error);
    } else {
      showError(data.error || "Refused.");
    }
  } catch (error) {
    if (error instanceof Expired) expired();
    else showError("The companion is not answering: is protopress still running? Start it again and open the address it prints.");
  } finally {
    busy = false;
  }
}

// The token in this page's address is no longer the server's: protopress was
// started again, with a new token in the address it printed.
function expired() {
  const address = location.origin + "/";
  const node = $("error");
  node.replaceChildren(
    "This page's address has expired: protopress was started again and printed a new address, with a new token. Open that address (it begins ",
    el("a", { href: address, text: address }),
    "); nothing of the game is lost.",
  );
  node.hidden = false;
  $("answer").disabled = true;
  node.scrollIntoView({ block: "center" });
}

function showError(message) {
  const node = $("error");
  node.textContent = message;
  node.hidden = !message;
}

// --- the answer widgets, one per kind of question ---------------------------------
// Each answers for the step it was built for: the server refuses an answer meant
// for another step (a second tap landing on the next question, another window).

function answerer(data) {
  const after = data.answers;
  const step = data.question ? data.question.where : null;
  return (text) => send("/api/answer", { text, after, step });
}

function cardsWidget(q, answer) {
  const o = q.options;
  const picked = [];
  const cards = o.cards.slice().sort((a, b) => a.title.localeCompare(b.title));
  const title = (id) => cards.find((c) => c.id === id).title;
  const grid = el("div", { class: "cards" });
  const confirm = el("button", { type: "button", id: "confirm", class: "primary" });
  const clear = el("button", { type: "button", id: "clear", text: "Clear" });
  const tiles = {};
  function refresh() {
    for (const [id, tile] of Object.entries(tiles)) {
      const n = picked.filter((p) => p === id).length;
      const button = tile.querySelector(".card");
      tile.classList.toggle("picked", n > 0);
      button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      const badge = tile.querySelector(".badge");
      if (o.ordered) badge.textContent = n ? picked.indexOf(id) + 1 : "";
      else badge.textContent = n > 1 ? "\u00d7" + n : n ? "\u2713" : "";
      const more = tile.querySelector(".more");
      if (more) more.hidden = !n || picked.length >= o.most;
    }
    const names = picked.map(title);
    confirm.textContent = names.length ? "Confirm: " + names.join(", ") : "Confirm: none";
    confirm.disabled = !names.length && q.default === null;
    clear.disabled = !names.length;
  }
  for (const card of cards) {
    const button = el(
      "button",
      {
        type: "button",
        class: "card",
        "data-id": card.id,
        "aria-pressed": "false",
        onclick: () => {
          if (o.most === 1) return answer(card.id); // one card to name: the tap is the answer
          if (picked.includes(card.id)) {
            picked.splice(0, picked.length, ...picked.filter((p) => p !== card.id)); // tap again: unpick
          } else if (picked.length < o.most) picked.push(card.id);
          refresh();
        },
      },
      card.img ? picture(card.img, "", true) : null,
      el("span", { class: "title", text: card.title }),
      el("span", { class: "badge", "aria-hidden": "true" }),
    );
    const tile = el("div", { class: "tile", "data-title": card.title.toLowerCase() }, button);
    if (o.repeat) {
      tile.append(
        el("button", {
          type: "button",
          class: "more",
          hidden: "",
          "aria-label": "another " + card.title,
          text: "+1 copy",
          onclick: () => {
            if (picked.length < o.most) picked.push(card.id);
            refresh();
          },
        }),
      );
    }
    tiles[card.id] = tile;
    grid.append(tile);
  }
  clear.addEventListener("click", () => {
    picked.length = 0;
    refresh();
  });
  confirm.addEventListener("click", () => answer(picked.length ? picked.join(", ") : "none"));
  refresh();
  const parts = [];
  if (q.default === "none") {
    parts.push(el("button", { type: "button", id: "none", class: "primary wide-button", text: "None of these", onclick: () => answer("none") }));
  }
  const hint = o.most > 1 ? `Tap up to ${o.most}${o.ordered ? ", left to right" : ""}; tap again to unpick.` : "Tap the card.";
  parts.push(el("p", { class: "muted", text: hint }));
  if (cards.length > 8) {
    const filter = el("input", { type: "search", id: "filter", placeholder: "Filter by name", "aria-label": "Filter the cards by name", autocomplete: "off" });
    filter.addEventListener("input", () => {
      const words = filter.value.trim().toLowerCase();
      for (const tile of Object.values(tiles)) tile.hidden = Boolean(words) && !tile.dataset.title.includes(words);
    });
    parts.push(filter);
  }
  parts.push(grid);
  if (o.most > 1) parts.push(el("div", { class: "actions sticky" }, clear, confirm));
  return el("div", {}, ...parts);
}

function numberWidget(q, answer) {
  const o = q.options;
  let typed = "";
  const shown = el("output", { id: "number", class: "number", "aria-live": "off" });
  function refresh() {
    shown.textContent = typed || (q.default !== null ? q.default : "\u2013");
  }
  const pad = el("div", { class: "keypad" });
  for (const key of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "OK"]) {
    pad.append(
      el("button", {
        type: "button",
        class: key === "OK" ? "key primary" : "key",
        "data-key": key,
        "aria-label": key === "\u232b" ? "delete a digit" : key,
        text: key,
        onclick: () => {
          if (key === "OK") return answer(typed);
          if (key === "\u232b") typed = typed.slice(0, -1);
          else if (typed.length < 3) typed = (typed + key).replace(/^0+(?=\d)/, "");
          refresh();
        },
      }),
    );
  }
  refresh();
  return el("div", {}, el("p", { class: "muted", text: `From ${o.low} to ${o.high}.` }), shown, pad);
}

function choiceWidget(q, answer) {
  const row = el("div", { class: "actions" });
  for (const choice of q.options.choices) {
    row.append(
      el("button", {
        type: "button",
        class: "primary choice",
        "data-choice": choice,
        text: choice[0].toUpperCase() + choice.slice(1),
        onclick: () => answer(choice),
      }),
    );
  }
  return row;
}

function purchaseWidget(q, answer) {
  const list = el("div", { class: "rows" });
  for (const row of q.options.rows) {
    const text = `${row.cost} ${row.tokens.join(" ")}`;
    list.append(el("button", { type: "button", class: "market-row", "data-answer": text, text: row.label, onclick: () => answer(text) }));
  }
  return el("div", {}, el("p", { class: "muted", text: "Tap the row you bought." }), list);
}

function tokensWidget(q, answer) {
  const o = q.options;
  const counts = {};
  const total = el("p", { class: "muted" });
  const list = el("div", { class: "counts" });
  const confirm = el("button", { type: "button", id: "confirm", class: "primary" });
  const bar = el("div", { class: "actions sticky" }, confirm);
  let oneTap = false;
  function refresh() {
    const n = Object.values(counts).reduce((a, b) => a + b, 0);
    total.textContent = o.exactly ? `${n} of ${o.exactly} tokens` : `${n} tokens`;
    for (const token of o.tokens) list.querySelector(`[data-id="${token.id}"] .count`).textContent = counts[token.id] || 0;
    confirm.textContent = n ? "Confirm" : "Confirm: none";
    bar.hidden = oneTap && !n;
  }
  for (const token of o.tokens) {
    const change = (by) => () => {
      counts[token.id] = Math.max(0, (counts[token.id] || 0) + by);
      refresh();
    };
    list.append(
      el(
        "div",
        { class: "counter", "data-id": token.id },
        token.img ? picture(token.img, "") : null,
        el("span", { class: "label", text: token.label }),
        el("button", { type: "button", class: "minus", "aria-label": "one fewer " + token.label, text: "\u2212", onclick: change(-1) }),
        el("span", { class: "count" }),
        el("button", { type: "button", class: "plus", "aria-label": "one more " + token.label, text: "+", onclick: change(1) }),
      ),
    );
  }
  confirm.addEventListener("click", () => {
    const parts = o.tokens.filter((t) => counts[t.id]).map((t) => (counts[t.id] > 1 ? `${counts[t.id]} ${t.id}` : t.id));
    answer(parts.length ? parts.join(", ") : "none");
  });
  // passing: the market the companion tracked, confirmed with one tap (the counters below
  // are for a table that differs)
  let first = null;
  if (q.default === "none") {
    first = el("button", { type: "button", id: "none", class: "primary wide-button", text: "None: the market is empty", onclick: () => answer("none") });
  } else if (o.tracked) {
    first = el("button", { type: "button", id: "tracked", class: "primary wide-button", text: "Confirm: " + o.tracked, onclick: () => answer(q.default) });
  }
  // with that one-tap answer above, the counters' own Confirm shows once they count
  // something: "Confirm: none" beside it would be a second, contrary answer
  oneTap = first !== null;
  refresh();
  const differs = o.tracked && q.default !== "none" ? el("p", { class: "muted", text: "If the table differs, count the tokens left:" }) : null;
  return el("div", {}, first, differs, total, list, bar);
}

// The market laid out: each of its cards chosen by name, then the token on each place
// of its rows (a monster or a trap differs in stars; other elements have one token).
function marketWidget(q, answer) {
  const o = q.options;
  const byId = Object.fromEntries(o.cards.map((card) => [card.id, card]));
  const chosen = [];
  const confirm = el("button", { type: "button", id: "confirm", class: "primary", text: "Confirm the market" });
  function refresh() {
    const ids = chosen.map((c) => c.select.value);
    confirm.disabled = ids.some((id) => !id);
  }
  const parts = [el("p", { class: "muted", text: `Choose the ${o.most} market cards, then the tokens on their rows.` })];
  for (let n = 1; n <= o.most; n++) {
    const select = el("select", { class: "market-card", "data-slot": String(n), "aria-label": `Market card ${n}` }, el("option", { value: "", text: `Market card ${n}` }));
    for (const card of o.cards) select.append(el("option", { value: card.id, text: card.title }));
    const rows = el("div", { class: "market-rows" });
    const slot = { select, rows };
    select.addEventListener("change", () => {
      rows.replaceChildren();
      const card = byId[select.value];
      if (card) {
        card.rows.forEach((row, r) => {
          const line = el("div", { class: "market-row-laid", "data-row": String(r + 1) }, el("span", { class: "cost", text: `${row.cost} gold:` }));
          for (const kinds of row.slots) {
            if (kinds.length === 1) {
              line.append(el("span", { class: "token", "data-token": kinds[0].id, text: kinds[0].label }));
            } else {
              const pick = el("select", { class: "market-token", "aria-label": `${card.title}, ${row.cost} gold: token` });
              for (const kind of kinds) pick.append(el("option", { value: kind.id, text: kind.label }));
              line.append(pick);
            }
          }
          rows.append(line);
        });
      }
      refresh();
    });
    chosen.push(slot);
    parts.push(el("div", { class: "market-laid" }, select, rows));
  }
  confirm.addEventListener("click", () => {
    const text = chosen
      .map(({ select, rows }) => {
        const lines = [...rows.querySelectorAll(".market-row-laid")].map((line) =>
          [...line.querySelectorAll("[data-token], select.market-token")].map((node) => node.dataset.token || node.value).join(", "),
        );
        return `${byId[select.value].title}: ${lines.join(" / ")}`;
      })
      .join("; ");
    answer(text);
  });
  refresh();
  parts.push(el("div", { class: "actions sticky" }, confirm));
  return el("div", {}, ...parts);
}

function numbersWidget(q, answer) {
  const inputs = [];
  const list = el("div", { class: "counts" });
  for (const field of q.options.fields) {
    const input = el("input", { type: "number", inputmode: "numeric", min: field.low, max: field.high, value: "0", "aria-label": field.label });
    inputs.push(input);
    list.append(el("label", { class: "counter" }, el("span", { class: "label", text: field.label }), input));
  }
  const confirm = el("button", {
    type: "button",
    id: "confirm",
    class: "primary",
    text: "Confirm",
    onclick: () => answer(inputs.map((i) => i.value.trim() || "0").join(" ")),
  });
  return el("div", {}, list, el("div", { class: "actions" }, confirm));
}

const WIDGETS = {
  cards: cardsWidget,
  number: numberWidget,
  choice: choiceWidget,
  purchase: purchaseWidget,
  tokens: tokensWidget,
  numbers: numbersWidget,
  market: marketWidget,
};

// --- the page ------------------------------------------------------------------------

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
let unlock = null;

// moved: the game changed since the page last showed it (an answer, undo, redo).
function render(data, moved = false) {
  const before = state;
  state = data;
  showError("");
  renderFacts(data.facts);
  for (const id of ["note", "warning", "notice"]) {
    $(id).textContent = data[id];
    $(id).hidden = !data[id];
  }
  const answered = moved && before !== null && data.answers > before.answers && data.log.length > 1;
  const last = data.log[data.log.length - 1];
  $("done").textContent = answered ? `${capital(last.step)} done: ${last.answer}.` : "";
  $("done").hidden = !answered;
  const resultText = data.result.join("\n");
  const said = data.said.filter((line) => line.text !== "" && line.text !== resultText);
  const moves = said.filter((line) => line.move).map((line) => line.text);
  const atTable = said.filter((line) => !line.move).map((line) => line.text);
  $("said").replaceChildren(...moves.map(saidLine));
  $("said").hidden = !moves.length;
  $("at-table").replaceChildren(...atTable.map(saidLine));
  $("at-table").hidden = !atTable.length;
  const q = data.question;
  $("prompt").textContent = q ? q.prompt : "";
  $("prompt").hidden = !q;
  const widget = q ? (WIDGETS[q.kind] || (() => el("span")))(q, answerer(data)) : el("span");
  $("answer").replaceChildren(widget);
  $("answer").hidden = !q;
  $("help").textContent = q ? q.help : "";
  $("help").hidden = true;
  $("help-button").setAttribute("aria-expanded", "false");
  $("help-button").disabled = !q;
  $("typed").hidden = !q;
  $("type-text").value = "";
  $("undo").disabled = !data.answers;
  $("redo").disabled = !data.redo;
  $("undo-many").disabled = data.answers < 2;
  renderEnd(data.final);
  renderRival(data.rival);
  renderLog(data.log);
  if (data.complete) loadHistory();
  if (answered) lockBriefly();
  if (moved) bringIntoView([data.notice, $("done").textContent, ...moves, $("prompt").textContent, ...atTable]);
}

function saidLine(line) {
  if (line.startsWith("== ")) return el("p", { class: "heading", text: line.replace(/^== | ==$/g, "") });
  return el("p", { text: line });
}

function renderFacts(facts) {
  $("facts").replaceChildren(
    ...facts.map((f) => el("div", { class: "fact" }, el("dt", { text: f.label }), el("dd", { text: f.value }))),
  );
}

// Taps on the new question wait a moment: the second tap of a double tap would
// otherwise land on it (the server refuses it too: it names the step before).
function lockBriefly() {
  $("answer").disabled = true;
  clearTimeout(unlock);
  unlock = setTimeout(() => {
    $("answer").disabled = false;
  }, LOCK_MS);
}

function bringIntoView(lines) {
  const now = $("now");
  now.style.scrollMarginTop = $("top").offsetHeight + 8 + "px";
  now.scrollIntoView({ block: "start" });
  $(state.complete ? "headline" : "prompt").focus({ preventScroll: true });
  $("announce").textContent = lines.filter(Boolean).join(" ");
}

function renderEnd(final) {
  $("end").hidden = !final;
  if (!final) return;
  $("headline").textContent = final.headline;
  const cell = (v) => el("td", { class: "points", text: v === null ? "" : String(v) });
  $("score").tBodies[0].replaceChildren(
    ...final.lines.map((line) =>
      el("tr", { class: line.label === "Total" ? "total" : "" }, el("th", { scope: "row", text: line.label }), cell(line.you), cell(line.rival)),
    ),
  );
  $("end-notes").replaceChildren(...final.notes.map((n) => el("p", { text: n })));
}

function renderLog(log) {
  $("log").replaceChildren(
    ...log
      .slice()
      .reverse()
      .map((entry) =>
        el(
          "li",
          {},
          el("p", { class: "log-step" }, el("strong", { text: entry.step ? capital(entry.step) : "Setup" }), entry.step ? `: you answered ${entry.answer}` : ""),
          ...entry.said.filter((line) => line !== "" && !line.includes("\n")).map((line) => el("p", { class: "log-said", text: line.replace(/^== | ==$/g, "") })),
        ),
      ),
  );
}

function renderRival(r) {
  const card = r.card;
  $("rival-card").replaceChildren(
    card ? el("figure", {}, picture(card.img, card.title), el("figcaption", { text: card.line })) : el("p", { text: `No card yet: ${r.deck} face down.` }),
  );
  $("reputation").textContent = card ? `Reputation ${r.total}` : "";
  $("reputation-sum").textContent = r.reputation || "";
  $("goal").textContent = r.goal ? "Goal " + r.goal : "";
  const cards = r.chambers.reduce((n, c) => n + c.count, 0);
  const tokens = r.tokens.reduce((n, t) => n + t.count, 0);
  $("chamber-count").textContent = `(${cards}, ${r.chamber_stars} stars)`;
  $("token-count").textContent = `(${tokens}, ${r.token_stars} stars)`;
  $("chambers").replaceChildren(
    ...r.chambers.map((c) => el("figure", {}, picture(c.img, "", true), el("figcaption", { text: c.count > 1 ? `${c.title} \u00d7${c.count}` : c.title }))),
  );
  $("tokens").replaceChildren(...r.tokens.map((t) => el("li", { text: `${t.count} \u00d7 ${t.label}` })));
  $("gold").textContent = `Your gold: ${r.gold}`;
}

async function loadHistory() {
  try {
    const { data } = await call("/api/history");
    $("games").tBodies[0].replaceChildren(
      ...data.games
        .slice()
        .reverse()
        .map((g) => el("tr", {}, ...[g.date, g.difficulty, g.seed, g.you, g.rival, g.result].map((v) => el("td", { text: String(v) })))),
    );
  } catch (error) {
    if (error instanceof Expired) expired();
  }
}

$("help-button").addEventListener("click", () => {
  $("help").hidden = !$("help").hidden;
  $("help-button").setAttribute("aria-expanded", String(!$("help").hidden));
});
$("undo").addEventListener("click", () => send("/api/undo", { count: 1, after: state.answers }));
$("redo").addEventListener("click", () => send("/api/redo", { after: state.answers }));
$("undo-many").addEventListener("click", () => send("/api/undo", { count: Math.max(1, parseInt($("undo-count").value, 10) || 1), after: state.answers }));
$("type-form").addEventListener("submit", (event) => {
  event.preventDefault();
  answerer(state)($("type-text").value);
});
$("new-seed").value = Math.floor(Math.random() * 999999) + 1;
$("new-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const leave = Boolean(state && !state.complete && state.answers > 0);
  if (leave && !confirm("Leave this unfinished game (it is kept, to resume later) and start a new one?")) return;
  send("/api/new", { difficulty: $("new-difficulty").value, seed: parseInt($("new-seed").value, 10) || 1, leave });
});

// Another window (or the terminal's save) may move the game on: a visible page
// looks every few seconds and shows the game as it is, without scrolling.
const POLL_MS = 3000;
const shape = (data) => JSON.stringify([data.answers, data.redo, data.question && data.question.where, data.log.length, data.last]);
setInterval(async () => {
  if (busy || !state || document.visibilityState !== "visible") return;
  try {
    const { ok, data } = await call("/api/state");
    if (ok && !busy && shape(data) !== shape(state)) render(data);
  } catch (error) {
    if (error instanceof Expired) expired();
  }
}, POLL_MS);

// The first state: shown where the page is (no answer was just made).
call("/api/state")
  .then(({ data }) => {
    render(data);
    return loadHistory();
  })
  .catch((error) => {
    if (error instanceof Expired) expired();
    else showError("The companion is not answering: is protopress still running?");
  });
