#!/usr/bin/env node
// A minimal bot for hanabi-ref's bot protocol (spec/isolation.md, section 3) [ISO-example].
// One JSON request per line on stdin, one JSON answer per line on stdout.
// It plays a card it knows to be playable, else tells another player more about a
// playable card (its colour, then its value), else discards its oldest card (with
// every hint token left, when discarding is not allowed, it gives any true hint).
// Colour hints name the suit's index: right for variants whose suits each have a
// colour of their own, not for rainbow or colourless suits.
"use strict";
const readline = require("readline");

let view = null; // the last view: every request with a view carries the whole of it

// A card identity is suit * n + value - 1 (n values per suit: 5 unless the configuration
// gives its composition); a knowledge set is a bitmask over identities.
const valuesPerSuit = () => (view.config.composition ? view.config.composition[0].length : 5);
const isPlayable = (card, n) => view.fields[Math.floor(card / n)] === card % n;

function allowed(mask, n) {
  // The identities a knowledge set still allows.
  const cards = [];
  for (let card = 0; card < n * view.fields.length; card++) {
    if (Math.floor(mask / 2 ** card) % 2 === 1) cards.push(card);
  }
  return cards;
}

function hintFor(target, n) {
  // A hint that tells `target` more about one of its playable cards (colour first, then
  // value: two hints make it known), or null.
  const cards = view.cards[target];
  for (let slot = 0; slot < cards.length; slot++) {
    if (!isPlayable(cards[slot], n)) continue;
    const possible = allowed(view.knowledge[target][slot], n);
    if (possible.length === 1) continue; // known already: it will be played
    const suits = new Set(possible.map((card) => Math.floor(card / n)));
    if (suits.size > 1) return { type: "hint", target, kind: "colour", value: Math.floor(cards[slot] / n) };
    return { type: "hint", target, kind: "value", value: (cards[slot] % n) + 1 };
  }
  return null;
}

function choose() {
  const n = valuesPerSuit();
  const me = view.seat;
  const slot = view.knowledge[me].findIndex((mask) => allowed(mask, n).every((card) => isPlayable(card, n)));
  if (slot >= 0) return { type: "play", slot };
  const others = view.cards.map((_, i) => (me + 1 + i) % view.cards.length).filter((j) => j !== me);
  const withCards = others.filter((j) => view.cards[j].length > 0);
  for (const target of view.hints > 0 ? withCards : []) {
    const hint = hintFor(target, n);
    if (hint !== null) return hint;
  }
  if (view.hints < view.config.hints || withCards.length === 0) return { type: "discard", slot: 0 };
  // All hint tokens are left, so discarding is not allowed: hint anything true.
  const target = withCards[0];
  return { type: "hint", target, kind: "value", value: (view.cards[target][0] % n) + 1 };
}

function answer(request) {
  switch (request.op) {
    case "hello":
      return { ok: true, name: "example.js", protocol: "hanabi-ref/bot", version: 1 };
    case "new_game":
      view = null;
      return { ok: true };
    case "observe":
      view = request.view;
      return { ok: true };
    case "act":
      view = request.view;
      return { ok: true, action: choose() };
    case "quit":
      return { ok: true };
    default:
      return { ok: false, error: `unknown op ${request.op}` };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  process.stdout.write(JSON.stringify(answer(request)) + "\n");
  if (request.op === "quit") lines.close();
});
