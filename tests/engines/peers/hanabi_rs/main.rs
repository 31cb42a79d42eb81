//! hanabi-rs-engine: hanabi.rs's `game` module behind hanabi_ref's engine protocol.
//!
//! Our own code, none of the peer's: tests/engines/peers/build.sh places the peer's
//! src/game.rs beside this file in a build folder outside the repository (docs/conformance.md,
//! CF-hanabi-rs). It speaks the JSON lines of spec/engine-protocol.md (EP-requests), so that
//! `hanabi-ref verify --engine "hanabi-rs-engine"` checks `game::GameState` against our rules.
//!
//! hanabi.rs's simulator (src/simulator.rs) builds `GameState::new(options, deck)` and, while
//! `!is_over()`, hands each `TurnChoice` to `process_choice`. Its rules live in that call:
//! it panics (assert!) on a move it does not allow. So an action is refused exactly when
//! `process_choice` panics on a copy of the state, or when the game is over (the simulator's
//! loop); the legal actions are the candidates (hints of every colour and value to every
//! seat, plays and discards of every slot up to one past the hand) that it accepts.
//!
//! Set up from the configuration: `GameOptions` has the players, the hand size, the hint
//! tokens, the lives and `allow_empty_hints` (our `empty_hints`); f0 = infinity is given as
//! deck size + 1 lives, which no game can use up. The other rule options are not checked:
//! the engine plays its own rules, and verify reports where they differ from the ones asked.
//! The deck is the 5 x 5 one of `game::COLORS` ('r', 'y', 'g', 'b', 'w': our suit i is
//! COLORS[i]); `GameState::new` draws from the back of the vector, so ours goes in reversed.
//!
//! Reported: every T-state field but `knowledge` (the game tracks none; strategies do):
//! `turns` is `board.turn - 1`; `remaining`, while the game goes on, is
//! `deckless_turns_remaining` once the deck is empty (null before). At the end it is left
//! out: hanabi.rs's counter then holds whatever the last move left (a game won with the
//! move that drew the last card shows p), where our R has a convention of its own (null
//! there, -1 after the last error, T-state), so comparing it would report no rule.

#[macro_use]
extern crate log;

#[allow(dead_code)] // the peer's module has more than the protocol needs
mod game;

use game::*;
use serde_json::{json, Value as Json};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

fn copy_of(state: &GameState) -> GameState {
    GameState {
        hands: state.hands.clone(),
        unannotated_hands: state.unannotated_hands.clone(),
        board: state.board.clone(),
        deck: state.deck.clone(),
    }
}

fn card_json(card: &Card) -> Json {
    let suit = COLORS.iter().position(|&c| c == card.color).unwrap();
    json!({"suit": suit, "value": card.value})
}

fn number(value: &Json, what: &str) -> Result<u64, String> {
    value.as_u64().ok_or_else(|| format!("{what} is not a non-negative integer"))
}

fn choice_of(action: &Json) -> Result<TurnChoice, String> {
    let kind = action["type"].as_str().unwrap_or("");
    match kind {
        "hint" => {
            let player = number(&action["target"], "target")? as Player;
            let value = number(&action["value"], "value")?;
            let hinted = if action["kind"] == "colour" {
                let colour = COLORS.get(value as usize).ok_or("no such colour")?;
                Hinted::Color(*colour)
            } else {
                Hinted::Value(value as game::Value)
            };
            Ok(TurnChoice::Hint(Hint { player, hinted }))
        }
        "play" => Ok(TurnChoice::Play(number(&action["slot"], "slot")? as usize)),
        "discard" => Ok(TurnChoice::Discard(number(&action["slot"], "slot")? as usize)),
        _ => Err(format!("unknown action type {kind}")),
    }
}

/// The state after `choice`, or why the game refuses it (its panic message).
fn try_choice(state: &GameState, choice: &TurnChoice) -> Result<GameState, String> {
    if state.is_over() {
        return Err("the game is over".to_string());
    }
    panic::catch_unwind(AssertUnwindSafe(|| {
        let mut trial = copy_of(state);
        trial.process_choice(choice.clone());
        trial
    }))
    .map_err(|payload| {
        if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else if let Some(text) = payload.downcast_ref::<&str>() {
            text.to_string()
        } else {
            "refused".to_string()
        }
    })
}

fn state_json(game: &GameState) -> Json {
    let board = &game.board;
    let hands: Vec<Json> = game
        .get_players()
        .map(|p| Json::from(game.hands[&p].iter().map(|(_, c)| card_json(c)).collect::<Vec<_>>()))
        .collect();
    let fireworks: Vec<u32> = COLORS.iter().map(|&c| board.get_firework(c).top).collect();
    let discard: Vec<Json> = board.discard.cards.iter().map(card_json).collect();
    let remaining = if board.deck_size == 0 { json!(board.deckless_turns_remaining) } else { Json::Null };
    let mut state = json!({
        "current": board.player,
        "hands": hands,
        "fireworks": fireworks,
        "discard": discard,
        "clue_tokens": board.hints_remaining,
        "strikes": board.lives_total - board.lives_remaining,
        "deck_size": board.deck_size,
        "turns": board.turn - 1,
        "remaining": remaining,
        "terminal": game.is_over(),
        "score": game.score(),
    });
    if game.is_over() {
        state.as_object_mut().unwrap().remove("remaining");
    }
    state
}

fn legal_json(state: &GameState) -> Json {
    let mut legal = Vec::new();
    if state.is_over() {
        return Json::from(legal);
    }
    for target in state.get_players() {
        for (index, &colour) in COLORS.iter().enumerate() {
            let choice = TurnChoice::Hint(Hint { player: target, hinted: Hinted::Color(colour) });
            if try_choice(state, &choice).is_ok() {
                legal.push(json!({"type": "hint", "target": target, "kind": "colour", "value": index}));
            }
        }
        for &value in VALUES.iter() {
            let choice = TurnChoice::Hint(Hint { player: target, hinted: Hinted::Value(value) });
            if try_choice(state, &choice).is_ok() {
                legal.push(json!({"type": "hint", "target": target, "kind": "value", "value": value}));
            }
        }
    }
    let size = state.hands[&state.board.player].len();
    for slot in 0..=size {
        if try_choice(state, &TurnChoice::Play(slot)).is_ok() {
            legal.push(json!({"type": "play", "slot": slot}));
        }
        if try_choice(state, &TurnChoice::Discard(slot)).is_ok() {
            legal.push(json!({"type": "discard", "slot": slot}));
        }
    }
    Json::from(legal)
}

/// The game of a `new_game` request, or why hanabi.rs cannot be set up for it.
fn new_game(request: &Json) -> Result<GameState, String> {
    let config = &request["config"];
    if config["variant"] != "No Variant" {
        return Err("hanabi.rs plays the 5-suit deck of game::COLORS only".to_string());
    }
    let players = number(&config["players"], "players")? as u32;
    let hand_size = number(&config["hand_size"], "hand_size")? as u32;
    let deck_json = request["deck"].as_array().ok_or("no deck")?;
    if players < 1 || hand_size < 1 || (players * hand_size) as usize > deck_json.len() {
        return Err("hanabi.rs deals every hand in full from the deck".to_string());
    }
    let num_lives = match &config["errors"] {
        Json::Null => deck_json.len() as u32 + 1,
        errors => number(errors, "errors")? as u32,
    };
    let options = GameOptions {
        num_players: players,
        hand_size,
        num_hints: number(&config["hints"], "hints")? as u32,
        num_lives,
        allow_empty_hints: config["options"]["empty_hints"] == true,
    };
    let mut deck = Vec::new();
    for card in deck_json.iter().rev() {
        let suit = number(&card["suit"], "suit")? as usize;
        let colour = *COLORS.get(suit).ok_or("no such suit")?;
        deck.push(Card::new(colour, number(&card["value"], "value")? as game::Value));
    }
    Ok(GameState::new(&options, deck))
}

fn answer(request: &Json, game: &mut Option<GameState>) -> Json {
    match request["op"].as_str().unwrap_or("") {
        "hello" => json!({"ok": true, "name": "hanabi.rs"}),
        "quit" => json!({"ok": true}),
        "new_game" => match new_game(request) {
            Ok(state) => {
                *game = Some(state);
                json!({"ok": true})
            }
            Err(why) => {
                *game = None;
                json!({"ok": false, "unsupported": why})
            }
        },
        op => match (op, game.as_ref()) {
            (_, None) => json!({"ok": false, "error": "no game"}),
            ("state", Some(state)) => json!({"ok": true, "state": state_json(state)}),
            ("legal_actions", Some(state)) => json!({"ok": true, "actions": legal_json(state)}),
            ("apply", Some(state)) => match choice_of(&request["action"]).and_then(|c| try_choice(state, &c)) {
                Ok(next) => {
                    *game = Some(next);
                    json!({"ok": true})
                }
                Err(why) => json!({"ok": false, "illegal": why}),
            },
            (op, _) => json!({"ok": false, "error": format!("unknown op {op}")}),
        },
    }
}

fn main() {
    panic::set_hook(Box::new(|_| {})); // a refused move is a panic, caught and answered
    let mut game: Option<GameState> = None;
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        let line = line.expect("standard input");
        let reply = match serde_json::from_str::<Json>(&line) {
            Ok(request) => answer(&request, &mut game),
            Err(error) => json!({"ok": false, "error": error.to_string()}),
        };
        let mut out = stdout.lock();
        writeln!(out, "{reply}").expect("standard output");
        out.flush().expect("standard output");
        if serde_json::from_str::<Json>(&line).map(|r| r["op"] == "quit").unwrap_or(false) {
            break;
        }
    }
}
