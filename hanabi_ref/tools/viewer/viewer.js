/* The replay viewer's script (spec/viewer.md) [VW-step, VW-board, VW-seat, VW-hint, VW-divergence, VW-url, VW-order, VW-cards, VW-clued].
 *
 * It reads the page's one JSON block (every step of the game, computed by the engine),
 * removes it from the page, and draws the chosen step as the chosen view sees it.
 * Text from the data goes into the page as text nodes only, never as markup [VW-escape].
 */
(function () {
  "use strict";

  var source = document.getElementById("game-data");
  var game = JSON.parse(source.textContent);
  // [VW-seat] with the data gone from the page, the page holds only what one view shows
  source.parentNode.removeChild(source);

  var last = game.steps.length - 1;
  var step = clamp(game.start | 0);
  var seat = -1; // -1: every card face up; k: the game as seat k sees it [VW-seat]
  var newestLeft = !!game.newest_left; // [VW-order] the rules' players' layout; the key "o" turns it
  var scrollPending = false;

  function clamp(index) {
    return Math.max(0, Math.min(last, index));
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function make(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, String(attributes[name]));
    });
    if (text !== undefined && text !== null) {
      node.textContent = String(text);
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    return node;
  }

  function paint(node, suitIndex) {
    var suit = game.suits[suitIndex];
    node.style.background = suit.colour === "rainbow"
      ? "linear-gradient(135deg,#d0453f,#e8822a,#e5bd1f,#3f9a4a,#3568d4,#8a55b8)" : suit.colour;
    node.style.color = suit.ink;
  }

  // ---------------------------------------------------------------- cards [VW-board, VW-seat, VW-hint]

  function faceUp(cardId) {
    var chip = make("span", { "class": "chip", "data-card": game.cards[cardId] }, game.cards[cardId]);
    paint(chip, game.card_suits[cardId]);
    return chip;
  }

  /* What a card shows when its holder cannot see it: the suit letter if its knowledge
     allows one suit, the value if it allows one value, "?" for each part it does not
     (a suit's name longer than a letter is followed by a dash, as in SH-card). */
  function knownName(known) {
    var suits = known[1], values = known[2];
    var letter = suits.length === 1 ? game.suits[suits[0]].letter : "?";
    return letter + (letter.length > 1 ? "-" : "") + (values.length === 1 ? String(values[0]) : "?");
  }

  /* A knowledge set's suits or values on one line: "rygb", "1245" (with commas between
     parts longer than one character). */
  function joined(parts) {
    return parts.join(parts.every(function (part) { return part.length === 1; }) ? "" : ",");
  }

  function card(step_, holder, slot, entry, hidden) {
    var cardId = entry[0], known = game.knowledge[entry[1]];
    var node = make("div", { "class": "card", "data-testid": "card", "data-seat": holder, "data-slot": slot,
                             "data-knowledge": known[0] });
    node.appendChild(make("span", { "class": "slot" }, slot));
    if (hidden) {
      node.classList.add("hidden-card");
      node.appendChild(make("span", { "class": "name" }, knownName(known)));
      if (known[1].length === 1) {
        paint(node, known[1][0]);
      }
    } else {
      node.setAttribute("data-card", game.cards[cardId]);
      node.appendChild(make("span", { "class": "name" }, game.cards[cardId]));
      paint(node, game.card_suits[cardId]);
    }
    var know = make("span", { "class": "know", "title": "seat " + holder + " knows: " + known[0] });
    know.appendChild(make("span", { "class": "suits" }, joined(known[1].map(function (suit) { return game.suits[suit].letter; }))));
    know.appendChild(make("span", { "class": "values" }, joined(known[2].map(String))));
    node.appendChild(know);
    // [VW-clued] pips: a dot in each suit's colour the holder still allows, each value it still
    // allows (so what clues ruled out, negative information, is gone from them)
    var dots = make("span", { "class": "pips-suits", "data-testid": "pips-suits" });
    known[1].forEach(function (suit) {
      var dot = make("span", { "class": "pip", "data-suit": game.suits[suit].letter, "title": game.suits[suit].name });
      paint(dot, suit);
      dots.appendChild(dot);
    });
    node.appendChild(dots);
    if (step_.clued.indexOf(cardId) >= 0) {
      node.classList.add("clued");
      node.setAttribute("data-clued", "true");
    }
    if (step_.touched.indexOf(cardId) >= 0) {
      node.classList.add("touched");
      node.setAttribute("data-touched", "true");
      node.appendChild(make("span", { "class": "badge" }, "hinted"));
    }
    if (step_.drawn === cardId) {
      node.classList.add("drawn");
    }
    return node;
  }

  // ---------------------------------------------------------------- the board [VW-board]

  function pips(box, count, total, symbol) {
    clear(box);
    if (total > 24) {
      return; // a custom game's many tokens: the number alone
    }
    for (var index = 0; index < total; index += 1) {
      box.appendChild(make("span", { "class": index < count ? "on" : "off" }, symbol));
    }
  }

  function renderStatus(s) {
    byId("step").textContent = step;
    byId("last-step").textContent = last;
    byId("move").textContent = step === 0 ? "the deal" : "move " + step + ": " + s.move;
    byId("score").textContent = s.score;
    byId("tokens").textContent = s.tokens;
    byId("strikes").textContent = s.strikes;
    byId("deck").textContent = s.deck;
    byId("turn").textContent = s.turn;
    byId("current").textContent = s.terminal ? "game over" : "seat " + s.current + " to move";
    byId("current").setAttribute("data-seat", s.terminal ? "" : s.current);
    // [VW-cards] pace: moves left before a card must be lost; efficiency: cards played per clue given
    byId("pace").textContent = s.pace;
    byId("efficiency").textContent = s.clues ? (s.score / s.clues).toFixed(2) : "–";
    pips(byId("token-pips"), s.tokens, game.max_hints, "●");
    pips(byId("strike-pips"), s.strikes, game.max_errors === null ? s.strikes : game.max_errors, "✕");
    byId("first").disabled = byId("previous").disabled = step === 0;
    byId("next").disabled = byId("last").disabled = step === last;
  }

  function renderFireworks(s) {
    var box = clear(byId("fireworks"));
    game.suits.forEach(function (suit, index) {
      var height = s.fireworks[index];
      var node = make("div", { "class": "firework" + (height ? "" : " empty"), "data-testid": "firework-" + index,
                               "data-height": height, "title": suit.name });
      paint(node, index);
      node.appendChild(make("span", { "class": "height" }, height));
      node.appendChild(make("span", { "class": "suit" }, suit.name));
      box.appendChild(node);
    });
  }

  function renderHands(s) {
    var box = clear(byId("hands"));
    s.hands.forEach(function (hand, holder) {
      var row = make("div", { "class": "hand", "data-testid": "hand-" + holder, "data-seat": holder });
      if (!s.terminal && s.current === holder) {
        row.classList.add("to-move");
      }
      var label = "seat " + holder + (holder === seat ? " (this view: own cards as known)" : "");
      row.appendChild(make("div", { "class": "who" }, label + (!s.terminal && s.current === holder ? " ▸ to move" : "")));
      var cards = make("div", { "class": "cards" });
      var slots = hand.map(function (entry, slot) { return slot; });
      if (newestLeft) { // [VW-order] newest card (highest card id) on the left, as hanab.live shows hands
        slots.sort(function (a, b) { return hand[b][0] - hand[a][0]; });
      }
      slots.forEach(function (slot) {
        cards.appendChild(card(s, holder, slot, hand[slot], holder === seat));
      });
      row.appendChild(cards);
      box.appendChild(row);
    });
  }

  /* [VW-cards] the cards by identity, a suit a row: copies left (neither played nor
     discarded), a cross per copy discarded, critical ones (one copy left, not played yet)
     marked. */
  function renderCards(s) {
    var box = clear(byId("cards-left"));
    var values = s.left.length / game.suits.length;
    game.suits.forEach(function (suit, index) {
      var row = make("tr");
      var head = make("th", {}, suit.letter);
      paint(head, index);
      row.appendChild(head);
      for (var value = 1; value <= values; value += 1) {
        var x = index * values + value - 1;
        var critical = s.critical.indexOf(x) >= 0;
        var cell = make("td", { "class": (s.left[x] ? "" : "gone") + (critical ? " critical" : ""), "data-testid": "cards-cell",
                                "data-card": suit.letter + value, "data-left": s.left[x], "data-discarded": s.discarded[x],
                                "data-critical": critical,
                                "title": suit.name + " " + value + ": " + s.left[x] + " left, " + s.discarded[x] + " discarded" +
                                         (critical ? ", critical" : "") });
        cell.appendChild(make("span", { "class": "left" }, s.left[x]));
        if (s.discarded[x]) {
          cell.appendChild(make("span", { "class": "crosses" }, new Array(s.discarded[x] + 1).join("✕")));
        }
        row.appendChild(cell);
      }
      box.appendChild(row);
    });
  }

  function renderDiscard(s) {
    var box = clear(byId("discard"));
    s.discard.forEach(function (cardId) {
      box.appendChild(faceUp(cardId));
    });
    if (!s.discard.length) {
      box.appendChild(make("span", { "class": "none" }, "(empty)"));
    }
  }

  // ---------------------------------------------------------------- the move list [VW-step, VW-seat]

  function moveLabel(index) {
    if (index === 0) {
      return "0. the deal";
    }
    var s = game.steps[index];
    // [VW-seat] a seat's view tells later moves by their mover only: their cards are not known yet
    if (seat >= 0 && index > step) {
      return index + ". seat " + s.actor + " …";
    }
    return index + ". " + s.move;
  }

  function renderMoves() {
    var list = clear(byId("moves"));
    game.steps.forEach(function (s, index) {
      var item = make("li", { "data-step": index, "class": index === step ? "current" : "" }, moveLabel(index));
      if (game.divergence && index === game.divergence.step) {
        item.classList.add("diverged");
      }
      list.appendChild(item);
    });
    if (!scrollPending && window.requestAnimationFrame) {
      scrollPending = true;
      window.requestAnimationFrame(scrollToCurrent);
    }
  }

  /* Brings the current move into the list's view, once a frame (not at every render:
     each would lay out the page). */
  function scrollToCurrent() {
    scrollPending = false;
    var current = byId("moves").querySelector("li.current");
    if (current && current.scrollIntoView) {
      current.scrollIntoView({ block: "nearest" });
    }
  }

  // ---------------------------------------------------------------- a verify reproduction [VW-divergence]

  function table(caption, headings, rows, marked) {
    var node = make("table", { "class": "compare" });
    node.appendChild(make("caption", {}, caption));
    var head = make("tr");
    headings.forEach(function (heading) {
      head.appendChild(make("th", {}, heading));
    });
    node.appendChild(head);
    rows.forEach(function (row) {
      var line = make("tr", { "data-field": row[0] });
      if (marked(row)) {
        line.classList.add("differs");
      }
      row.forEach(function (cell, index) {
        if (index < headings.length) {
          line.appendChild(make(index ? "td" : "th", {}, cell));
        }
      });
      node.appendChild(line);
    });
    return node;
  }

  /* [VW-divergence, VW-seat] the panel at the divergence: what differs and both engines'
     states, every card face up; in a seat's view, only a note (what the engines said
     may name the seat's own cards). */
  function renderDivergence() {
    var d = game.divergence;
    var panel = clear(byId("divergence"));
    panel.hidden = step !== d.step;
    if (panel.hidden) {
      return;
    }
    panel.appendChild(make("h2", {}, "⚠ The engines diverged here (step " + d.step + ")"));
    if (seat >= 0) {
      panel.appendChild(make("p", { "class": "none" }, "What the engines said names any card: choose \u201call cards face up\u201d to see them."));
      return;
    }
    panel.appendChild(make("p", { "data-testid": "divergence-what" }, d.where + ": " + d.what));
    if (d.then) {
      panel.appendChild(make("p", { "data-testid": "divergence-then" }, "Then " + d.then + "."));
    }
    if (d.engine_seed !== null) {
      panel.appendChild(make("p", {}, "The engine dealt this game from its own seed " + d.engine_seed + "."));
    }
    if (d.differences.length) {
      panel.appendChild(table("Differing fields", ["field", "hanabi-ref", "other engine", "note"],
        d.differences.map(function (row) { return [row.field, row.ours, row.theirs, row.note]; }),
        function () { return true; }));
    }
    if (d.states.length) {
      panel.appendChild(table("Both engines' states at the divergence (≠ marks a difference)",
        ["field", "hanabi-ref", "other engine"],
        d.states.map(function (row) { return [(row.differs ? "≠ " : "") + row.field, row.ours, row.theirs, row.differs]; }),
        function (row) { return row[3]; }));
    }
  }

  function buildBanner() {
    var d = game.divergence;
    var banner = byId("divergence-banner");
    banner.appendChild(make("span", {}, "⚠ A verify reproduction: the engines diverged at step " + d.step + ". "));
    var jump = make("button", { "type": "button", "data-testid": "go-divergence" }, "go there");
    jump.addEventListener("click", function () { go(d.step); });
    banner.appendChild(jump);
    banner.hidden = false;
  }

  // ---------------------------------------------------------------- navigation [VW-step]

  function render() {
    var s = game.steps[step];
    renderStatus(s);
    renderFireworks(s);
    renderHands(s);
    renderDiscard(s);
    renderCards(s);
    renderMoves();
    if (game.divergence) {
      renderDivergence();
    }
    document.body.setAttribute("data-step", step);
    document.body.setAttribute("data-view", seat);
    // [VW-url] each step has its address: #turn=N (no request: only the fragment changes)
    if (window.history && window.history.replaceState && stepInAddress() !== step) {
      window.history.replaceState(null, "", "#turn=" + step);
    }
  }

  /* [VW-url] the step the address names (#turn=N), or -1 for none. */
  function stepInAddress() {
    var match = /^#turn=(\d+)$/.exec(window.location.hash);
    return match ? parseInt(match[1], 10) : -1;
  }

  function go(index) {
    step = clamp(index);
    render();
  }

  function setSeat(value) {
    seat = value >= 0 && value < game.players ? value : -1;
    byId("seat").value = String(seat);
    render();
  }

  function setUp() {
    var select = byId("seat");
    select.appendChild(make("option", { "value": "-1" }, "all cards face up"));
    for (var holder = 0; holder < game.players; holder += 1) {
      select.appendChild(make("option", { "value": holder }, "as seat " + holder + " sees it"));
    }
    select.addEventListener("change", function () { setSeat(parseInt(select.value, 10)); });
    byId("first").addEventListener("click", function () { go(0); });
    byId("previous").addEventListener("click", function () { go(step - 1); });
    byId("next").addEventListener("click", function () { go(step + 1); });
    byId("last").addEventListener("click", function () { go(last); });
    byId("moves").addEventListener("click", function (event) {
      var item = event.target.closest ? event.target.closest("li[data-step]") : null;
      if (item) {
        go(parseInt(item.getAttribute("data-step"), 10));
      }
    });
    document.addEventListener("keydown", onKey, true);
    window.addEventListener("hashchange", function () {
      if (stepInAddress() >= 0 && stepInAddress() !== step) {
        go(stepInAddress());
      }
    });
    if (game.divergence) {
      buildBanner();
    }
    if (stepInAddress() >= 0) {
      step = clamp(stepInAddress());
    }
    render();
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var targets = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: last, PageDown: step + 10, PageUp: step - 10 };
    if (Object.prototype.hasOwnProperty.call(targets, event.key)) {
      event.preventDefault();
      go(targets[event.key]);
    } else if (event.key === "a") {
      setSeat(-1);
    } else if (event.key === "o") {
      newestLeft = !newestLeft;
      render();
    } else if (/^[0-9]$/.test(event.key) && Number(event.key) < game.players) {
      setSeat(Number(event.key));
    }
  }

  setUp();
}());
