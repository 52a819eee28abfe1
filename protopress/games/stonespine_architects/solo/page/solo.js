// The solo companion page: the server's engine decides; the page taps an answer
// together in the terminal's words ("2 goblin, ogre") and shows what comes back.
"use strict";

// $, el and picture come from page.js.

async function call(path, body) {
  const options = { headers: {} };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
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
      render(data);
    } else if (status === 409) {
      render(data);  // the game moved on (an answer sent twice, another window): show it
      showError(data.error);
    } else {
      showError(data.error || "Refused.");
    }
  } catch (error) {
    showError("The companion is not answering: is protopress still running? (" + error + ")");
  } finally {
    busy = false;
  }
}

function answer(text) {
  return send("/api/answer", { text, after: state ? state.answers : null });
}

function showError(message) {
  const node = $("error");
  node.textContent = message;
  node.hidden = !message;
}

// --- the answer widgets, one per kind of question ---------------------------------

function cardsWidget(q) {
  const o = q.options;
  const picked = [];
  const grid = el("div", { class: "cards" });
  const confirm = el("button", { type: "button", id: "confirm", class: "primary" });
  const clear = el("button", { type: "button", id: "clear", text: "Clear" });
  const tiles = {};
  function refresh() {
    for (const [id, tile] of Object.entries(tiles)) {
      const n = picked.filter((p) => p === id).length;
      const badge = tile.querySelector(".badge");
      tile.classList.toggle("picked", n > 0);
      if (o.ordered) badge.textContent = n ? picked.indexOf(id) + 1 : "";
      else badge.textContent = n > 1 ? "\u00d7" + n : n ? "\u2713" : "";
    }
    const names = picked.map((id) => o.cards.find((c) => c.id === id).title);
    confirm.textContent = names.length ? "Confirm: " + names.join(", ") : "Confirm: none";
    confirm.disabled = !names.length && q.default === null;
  }
  for (const card of o.cards) {
    const tile = el(
      "button",
      {
        type: "button",
        class: "card",
        "data-id": card.id,
        title: card.title,
        onclick: () => {
          const at = picked.indexOf(card.id);
          if (o.most === 1) picked.splice(0, picked.length, card.id);
          else if (at >= 0 && !o.repeat) picked.splice(at, 1);
          else if (picked.length < o.most) picked.push(card.id);
          refresh();
        },
      },
      card.img ? picture(card.img, card.title, true) : null,
      el("span", { class: "title", text: card.title }),
      el("span", { class: "badge" }),
    );
    tiles[card.id] = tile;
    grid.append(tile);
  }
  clear.addEventListener("click", () => {
    picked.length = 0;
    refresh();
  });
  confirm.addEventListener("click", () => answer(picked.length ? picked.join(", ") : "none"));
  refresh();
  const hint = o.most > 1 ? `Tap up to ${o.most}${o.ordered ? ", left to right" : ""}.` : "Tap one.";
  return el("div", {}, el("p", { class: "muted", text: hint }), grid, el("div", { class: "actions" }, clear, confirm));
}

function numberWidget(q) {
  const o = q.options;
  let typed = "";
  const shown = el("output", { id: "number", class: "number" });
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

function choiceWidget(q) {
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

function purchaseWidget(q) {
  const list = el("div", { class: "rows" });
  for (const row of q.options.rows) {
    list.append(
      el("button", {
        type: "button",
        class: "market-row",
        "data-answer": `${row.cost} ${row.tokens.join(" ")}`,
        text: `${row.cost} gold: ${row.tokens.join(", ")}`,
        onclick: () => answer(`${row.cost} ${row.tokens.join(" ")}`),
      }),
    );
  }
  return el("div", {}, el("p", { class: "muted", text: "Tap the row you bought." }), list);
}

function tokensWidget(q) {
  const o = q.options;
  const counts = {};
  const total = el("p", { class: "muted" });
  const list = el("div", { class: "counts" });
  const confirm = el("button", { type: "button", id: "confirm", class: "primary" });
  function refresh() {
    const n = Object.values(counts).reduce((a, b) => a + b, 0);
    total.textContent = o.exactly ? `${n} of ${o.exactly} tokens` : `${n} tokens`;
    for (const token of o.tokens) list.querySelector(`[data-id="${token.id}"] .count`).textContent = counts[token.id] || 0;
    confirm.textContent = n ? "Confirm" : "Confirm: none";
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
        el("button", { type: "button", class: "minus", "aria-label": "fewer " + token.id, text: "\u2212", onclick: change(-1) }),
        el("span", { class: "count" }),
        el("button", { type: "button", class: "plus", "aria-label": "more " + token.id, text: "+", onclick: change(1) }),
      ),
    );
  }
  confirm.addEventListener("click", () => {
    const parts = o.tokens.filter((t) => counts[t.id]).map((t) => (counts[t.id] > 1 ? `${counts[t.id]} ${t.id}` : t.id));
    answer(parts.length ? parts.join(", ") : "none");
  });
  refresh();
  return el("div", {}, total, list, el("div", { class: "actions" }, confirm));
}

function numbersWidget(q) {
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
};

// --- the page ------------------------------------------------------------------------

function render(data) {
  state = data;
  showError("");
  $("game").textContent = `${data.difficulty}, seed ${data.seed}, ${data.answers} answers`;
  for (const id of ["note", "warning"]) {
    $(id).textContent = data[id];
    $(id).hidden = !data[id];
  }
  $("said").replaceChildren(...data.said.filter((l) => l !== "").map((line) => el(line.startsWith("==") ? "h3" : "p", { text: line.replace(/^== | ==$/g, "") })));
  const q = data.question;
  $("prompt").textContent = q ? q.prompt : "The game is over.";
  $("answer").replaceChildren(q ? (WIDGETS[q.kind] || (() => el("span")))(q) : el("span"));
  $("help").textContent = q ? q.help : "";
  $("help").hidden = true;
  $("typed").hidden = !q;
  $("type-text").value = "";
  $("undo").disabled = !data.answers;
  $("undo-many").disabled = data.answers < 2;
  $("last").textContent = data.last !== null ? `Last answer: ${data.last || "(Enter)"} (${data.last_step})` : "";
  $("result").hidden = !data.complete;
  $("result").textContent = data.result.join("\n");
  renderRival(data.rival);
  if (data.complete) loadHistory();
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
    ...r.chambers.map((c) => el("figure", { title: c.title }, picture(c.img, c.title, true), el("figcaption", { text: c.count > 1 ? `${c.title} \u00d7${c.count}` : c.title }))),
  );
  $("tokens").replaceChildren(...r.tokens.map((t) => el("li", { text: `${t.count} \u00d7 ${t.label}` })));
  $("gold").textContent = `Your gold: ${r.gold}`;
}

async function loadHistory() {
  const { ok, data } = await call("/api/history");
  if (!ok) return showError(data.error);  // say, a key from an earlier start
  $("games").tBodies[0].replaceChildren(
    ...data.games
      .slice()
      .reverse()
      .map((g) => el("tr", {}, ...[g.date, g.difficulty, g.seed, g.you, g.rival, g.result].map((v) => el("td", { text: String(v) })))),
  );
}

$("help-button").addEventListener("click", () => {
  $("help").hidden = !$("help").hidden;
});
$("undo").addEventListener("click", () => send("/api/undo", { count: 1, after: state.answers }));
$("undo-many").addEventListener("click", () => send("/api/undo", { count: Math.max(1, parseInt($("undo-count").value, 10) || 1), after: state.answers }));
$("type-form").addEventListener("submit", (event) => {
  event.preventDefault();
  answer($("type-text").value);
});
$("new-seed").value = Math.floor(Math.random() * 999999) + 1;
$("new-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (state && !state.complete && !confirm("Leave this unfinished game and start a new one?")) return;
  send("/api/new", { difficulty: $("new-difficulty").value, seed: parseInt($("new-seed").value, 10) || 1 });
});

send("/api/state").then(loadHistory);
