// quuxplusone-engine: Quuxplusone/Hanabi's HanabiServer behind hanabi_ref's engine protocol.
//
// Our own code, none of the peer's: it includes the peer's Hanabi.h and is linked with the
// peer's HanabiServer.cc, built outside this repository (docs/conformance.md, CF-quuxplusone).
// It speaks the JSON lines of spec/engine-protocol.md (EP-requests), so that
// `hanabi-ref verify --engine "quuxplusone-engine"` checks the server against our rules.
//
// How the server is driven: Server::runGame(factory, players, deck) runs the whole game and
// asks the bot of the seat to move for its move. Every seat's bot here is the same relay:
// its pleaseMakeMove reads requests from standard input and answers them until an `apply`
// is accepted by the server, which ends the move; the server then runs its own end-of-move
// bookkeeping (next seat, last-round countdown) and calls the next seat's bot. When runGame
// returns the game is over, and the main loop answers requests about the final state.
//
// Legality is the server's own: each action is tried with the server's mutators, and an
// action is refused exactly when the server throws (its HANABI_SERVER_ASSERT checks, built
// in as in the peer's default Makefile build: no -DHANABI_SERVER_NDEBUG). The legal actions
// are the candidate actions (hints of every colour and value to every seat, plays and
// discards of every slot the hand has) that a copy of the server accepts.
//
// --refuse-slot-past-hand: the server's guard on a play or discard index admits one index
// past the hand (`index <= hand size`, a bug: docs/peers/quuxplusone-slot-past-hand.cc),
// and then reads and erases past the end of the hand's vector. The relay is built with
// -D_GLIBCXX_ASSERTIONS (build.sh), so that this stops the process with SIGABRT at once
// instead of corrupting memory; its handler says which request did it on standard error,
// whose last line verify quotes. With this switch the relay refuses that index itself, so
// that a run can go past the bug to the next difference.
//
// Reported: current, hands, fireworks, discard, clue_tokens, strikes, deck_size, terminal,
// score. Not reported: knowledge (the server tracks none; bots do), turns and remaining (the
// server keeps no move count, and its last-round countdown is private).

#include <csignal>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "Hanabi.h"

using nlohmann::json;
using Hanabi::Card;
using Hanabi::Color;
using Hanabi::Server;
using Hanabi::Value;

namespace {

bool refuse_slot_past_hand = false;

// The request being applied, for the SIGABRT handler (write(2) is async-signal-safe).
char applying[512] = "";

extern "C" void on_abort(int)
{
    const char prefix[] = "quuxplusone-engine: the server aborted while applying ";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, applying, std::strlen(applying));
    (void)!write(2, "\n", 1);
    std::signal(SIGABRT, SIG_DFL);
    std::raise(SIGABRT);
}

// A `new_game` or `quit` read while the server is inside a game: unwinds runGame.
struct Interrupt {
    json request;
};

void say(const json &answer)
{
    std::cout << answer.dump() << '\n' << std::flush;
}

json card_json(const Card &card)
{
    return {{"suit", static_cast<int>(card.color)}, {"value", static_cast<int>(card.value)}};
}

// The server's colours are RED, ORANGE, YELLOW, GREEN, BLUE (Hanabi.h); our suit i is its
// colour i (suits are symmetric: only their order matters). Card::toString is the value's
// digit and the colour's initial.
int colour_of_initial(char initial)
{
    const std::string initials = "roygb";
    const auto at = initials.find(initial);
    if (at == std::string::npos) throw std::runtime_error("unknown colour initial");
    return static_cast<int>(at);
}

// Every hand, from the server's public handsAsString() ("1r,2o,3y,4g,5b 1r,..."): the
// server's handOfPlayer() refuses the hand of the seat to move, whose bot is asking.
json hands_json(const Server &server)
{
    json hands = json::array();
    json hand = json::array();
    std::string token;
    const std::string text = server.handsAsString() + " ";
    for (char c : text) {
        if (c == ',' || c == ' ') {
            hand.push_back({{"suit", colour_of_initial(token.at(1))}, {"value", token.at(0) - '0'}});
            token.clear();
            if (c == ' ') {
                hands.push_back(hand);
                hand = json::array();
            }
        } else {
            token += c;
        }
    }
    return hands;
}

json state_json(const Server &server)
{
    json fireworks = json::array();
    for (int colour = 0; colour < Hanabi::NUMCOLORS; ++colour) {
        fireworks.push_back(server.pileOf(Color(colour)).size());
    }
    json discard = json::array();
    for (const Card &card : server.discards()) discard.push_back(card_json(card));
    return {
        {"current", server.activePlayer()},
        {"hands", hands_json(server)},
        {"fireworks", fireworks},
        {"discard", discard},
        {"clue_tokens", server.hintStonesRemaining()},
        {"strikes", server.mulligansUsed()},
        {"deck_size", server.cardsRemainingInDeck()},
        {"terminal", server.gameOver()},
        {"score", server.currentScore()},
    };
}

// Makes the move on `server` with its own mutators; throws std::runtime_error when the
// server refuses it (or when the action has no counterpart in the server's API).
void make_move(Server &server, const json &action)
{
    const std::string type = action.at("type").get<std::string>();
    if (type == "hint") {
        const int target = action.at("target").get<int>();
        const int value = action.at("value").get<int>();
        if (action.at("kind").get<std::string>() == "colour") {
            if (value < 0 || value >= Hanabi::NUMCOLORS) throw std::runtime_error("no such colour");
            server.pleaseGiveColorHint(target, Color(value));
        } else {
            if (value < 1 || value > 5) throw std::runtime_error("no such value");
            server.pleaseGiveValueHint(target, Value(value));
        }
        return;
    }
    const int slot = action.at("slot").get<int>();
    if (refuse_slot_past_hand && slot >= server.sizeOfHandOfPlayer(server.activePlayer())) {
        throw std::runtime_error("slot past the hand (refused by the relay, --refuse-slot-past-hand)");
    }
    if (type == "play") {
        server.pleasePlay(slot);
    } else if (type == "discard") {
        server.pleaseDiscard(slot);
    } else {
        throw std::runtime_error("unknown action type");
    }
}

bool accepts(const Server &server, const json &action)
{
    Server trial = server;  // the relay bots ignore what they are told, so a copy is inert
    try {
        make_move(trial, action);
        return true;
    } catch (const std::runtime_error &) {
        return false;
    }
}

json legal_json(const Server &server)
{
    json legal = json::array();
    const int players = server.numPlayers();
    for (int target = 0; target < players; ++target) {
        for (int colour = 0; colour < Hanabi::NUMCOLORS; ++colour) {
            json action = {{"type", "hint"}, {"target", target}, {"kind", "colour"}, {"value", colour}};
            if (accepts(server, action)) legal.push_back(action);
        }
        for (int value = 1; value <= 5; ++value) {
            json action = {{"type", "hint"}, {"target", target}, {"kind", "value"}, {"value", value}};
            if (accepts(server, action)) legal.push_back(action);
        }
    }
    // Slots the hand has; the server's guard would also admit the next one (the bug above).
    const int size = server.sizeOfHandOfPlayer(server.activePlayer());
    for (int slot = 0; slot < size; ++slot) {
        for (const char *type : {"play", "discard"}) {
            json action = {{"type", type}, {"slot", slot}};
            if (accepts(server, action)) legal.push_back(action);
        }
    }
    return legal;
}

// Why this relay cannot set the server up for `config`, or "" when it can: the server's
// game has 2 to 5 players, the hand size of (players <= 3 ? 5 : 4), NUMHINTS = 8 hint
// stones, NUMMULLIGANS = 3 errors and the 5 x 5 deck. The rule options are not checked: the
// server plays its own rules, and verify reports where they differ from the ones asked for.
std::string unsupported(const json &config)
{
    const int players = config.at("players").get<int>();
    if (config.at("variant") != "No Variant") return "the server plays No Variant only";
    if (players < 2 || players > 5) return "the server plays 2 to 5 players";
    if (config.at("hand_size") != (players <= 3 ? 5 : 4)) return "the server's hand size is 5 (2-3 players) or 4";
    if (config.at("hints") != Hanabi::NUMHINTS) return "the server has 8 hint stones";
    if (config.at("errors") != Hanabi::NUMMULLIGANS) return "the server allows 3 mulligans";
    return "";
}

// Answers one request at a game's state; returns true when it was an accepted `apply`.
// `live` is null when the game is over (runGame has returned) or none was started.
bool answer_request(const json &request, Server *live, const Server *last)
{
    const std::string op = request.at("op").get<std::string>();
    if (op == "new_game" || op == "quit") throw Interrupt{request};
    if (op == "hello") {
        say({{"ok", true}, {"name", "quuxplusone-hanabi"}});
    } else if (op == "state") {
        if (last == nullptr) throw std::runtime_error("no game");
        say({{"ok", true}, {"state", state_json(*last)}});
    } else if (op == "legal_actions") {
        say({{"ok", true}, {"actions", live == nullptr ? json::array() : legal_json(*live)}});
    } else if (op == "apply") {
        if (live == nullptr) {
            say({{"ok", false}, {"illegal", "the game is over"}});
            return false;
        }
        const std::string text = request.at("action").dump();
        std::strncpy(applying, text.c_str(), sizeof applying - 1);
        try {
            make_move(*live, request.at("action"));
        } catch (const std::runtime_error &error) {
            say({{"ok", false}, {"illegal", error.what()}});
            return false;
        }
        say({{"ok", true}});
        return true;
    } else {
        say({{"ok", false}, {"error", "unknown op " + op}});
    }
    return false;
}

// As answer_request, with a request the relay cannot read answered by an error (the game
// goes on); an Interrupt is no std::exception and passes through.
bool answer(const json &request, Server *live, const Server *last)
{
    try {
        return answer_request(request, live, last);
    } catch (const std::exception &error) {
        say({{"ok", false}, {"error", error.what()}});
        return false;
    }
}

json read_request()
{
    std::string line;
    if (!std::getline(std::cin, line)) std::exit(0);  // end of input: as quit
    try {
        return json::parse(line);
    } catch (const json::exception &error) {
        return {{"op", "unreadable"}, {"why", error.what()}};
    }
}

class Relay : public Hanabi::Bot {
public:
    void pleaseObserveBeforeMove(const Server &) override {}
    void pleaseMakeMove(Server &server) override
    {
        while (!answer(read_request(), &server, &server)) {
        }
    }
    void pleaseObserveBeforeDiscard(const Server &, int, int) override {}
    void pleaseObserveBeforePlay(const Server &, int, int) override {}
    void pleaseObserveColorHint(const Server &, int, int, Color, Hanabi::CardIndices) override {}
    void pleaseObserveValueHint(const Server &, int, int, Value, Hanabi::CardIndices) override {}
    void pleaseObserveAfterMove(const Server &) override {}
};

class RelayFactory : public Hanabi::BotFactory {
public:
    // One relay serves every seat, so that a game unwound by an Interrupt leaks nothing.
    Hanabi::Bot *create(int, int, int) const override { return &relay_; }
    void destroy(Hanabi::Bot *) const override {}
private:
    mutable Relay relay_;
};

}  // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--refuse-slot-past-hand") refuse_slot_past_hand = true;
        else {
            std::cerr << "usage: quuxplusone-engine [--refuse-slot-past-hand]\n";
            return 2;
        }
    }
    std::signal(SIGABRT, on_abort);
    Server server;
    RelayFactory factory;
    bool started = false;
    json request = read_request();
    while (true) {
        try {
            if (request.at("op") == "quit") {
                say({{"ok", true}});
                return 0;
            }
            if (request.at("op") == "new_game") {
                const json &config = request.at("config");
                const std::string why = unsupported(config);
                if (!why.empty()) {
                    say({{"ok", false}, {"unsupported", why}});
                } else {
                    std::vector<Card> deck;
                    for (const json &card : request.at("deck")) {
                        deck.emplace_back(Color(card.at("suit").get<int>()), card.at("value").get<int>());
                    }
                    say({{"ok", true}});
                    started = true;
                    server.runGame(factory, config.at("players").get<int>(), deck);  // to its end
                }
            } else {
                answer(request, nullptr, started ? &server : nullptr);
            }
            request = read_request();
        } catch (const Interrupt &interrupt) {
            request = interrupt.request;  // a new game or quit in the middle of a game
        } catch (const std::exception &error) {
            say({{"ok", false}, {"error", error.what()}});
            request = read_request();
        }
    }
}
