// Reproduction for Quuxplusone/Hanabi (HanabiServer.cc, at commit daef9de8 of 2019-05-15):
// Server::pleasePlay and Server::pleaseDiscard accept an index one past the end of the hand.
//
// Both check their index with
//     HANABI_SERVER_ASSERT(0 <= index && index <= hands_[activePlayer_].size(), "invalid card index");
// so index == hand size passes; the server then reads hands_[activePlayer_][index], one past
// the end of the vector, and erases hands_[activePlayer_].begin() + index, which is end():
// both are undefined behaviour. The other guards of the server are strict (`to <
// hands_.size()` for a hint's player). The fix is `index < hands_[activePlayer_].size()` in
// both functions.
//
// Build and run from a checkout of Quuxplusone/Hanabi (this file beside HanabiServer.cc):
//     g++ -std=c++14 -D_GLIBCXX_ASSERTIONS quuxplusone-slot-past-hand.cc HanabiServer.cc -o slot-past-hand
//     ./slot-past-hand           # discard: stops in operator[] (libstdc++ bounds check)
//     ./slot-past-hand play      # the same for pleasePlay
// Expected: "refused: invalid card index", exit 0. Seen with g++ 12.2 and libstdc++:
//     .../stl_vector.h:1123: ... Assertion '__n < this->size()' failed.   (SIGABRT)
// Without -D_GLIBCXX_ASSERTIONS the behaviour is undefined, and varies with the heap: in
// our runs the process died with SIGSEGV, or in glibc's heap checks ("double free or
// corruption", "munmap_chunk(): invalid pointer"), or the move was accepted (exit 1): a card
// that no hand held was discarded (a third red 3, from the vector's spare capacity) and the
// hand's newest card vanished, because erase(end()) shortened the vector.
//
// Found by hanabi_ref's `verify` (its docs/conformance.md), whose
// random games try, among illegal moves, a play or discard of the slot just past the hand.
// This file is hanabi_ref's own; it uses only the public API of Hanabi.h.

#include <cstring>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "Hanabi.h"

using namespace Hanabi;

namespace {

bool play = false;

// Each player first gives a hint (so that a discard is allowed: the server refuses a
// discard with all 8 stones before it looks at the index); then the first player tries the
// index just past its hand.
class PastTheHand : public Bot {
public:
    void pleaseObserveBeforeMove(const Server &) override {}
    void pleaseMakeMove(Server &server) override
    {
        const int me = server.whoAmI(), other = 1 - me;
        if (!hinted_) {
            hinted_ = true;
            server.pleaseGiveValueHint(other, server.handOfPlayer(other)[0].value);
            return;
        }
        const int past = server.sizeOfHandOfPlayer(me);
        std::cout << "hands before: " << server.handsAsString() << std::endl;
        try {
            if (play) server.pleasePlay(past);
            else server.pleaseDiscard(past);
            std::cout << "accepted: " << (play ? "play" : "discard") << " of index " << past
                      << " in a hand of " << past << " cards\n"
                      << "hands after:  " << server.handsAsString() << "\n"
                      << "discards:     " << server.discardsAsString() << "\n";
            std::exit(1);
        } catch (const std::runtime_error &error) {
            std::cout << "refused: " << error.what() << "\n";
            std::exit(0);
        }
    }
    void pleaseObserveBeforeDiscard(const Server &, int, int) override {}
    void pleaseObserveBeforePlay(const Server &, int, int) override {}
    void pleaseObserveColorHint(const Server &, int, int, Color, CardIndices) override {}
    void pleaseObserveValueHint(const Server &, int, int, Value, CardIndices) override {}
    void pleaseObserveAfterMove(const Server &) override {}
private:
    bool hinted_ = false;
};

class Factory : public BotFactory {
public:
    Bot *create(int, int, int) const override { return new PastTheHand; }
    void destroy(Bot *bot) const override { delete bot; }
};

}  // namespace

int main(int argc, char **argv)
{
    play = argc > 1 && std::strcmp(argv[1], "play") == 0;
    std::vector<Card> deck;  // unshuffled: seat 0 holds 1r 1r 1r 2r 2r, seat 1 3r 3r 4r 4r 5r
    for (Color c = RED; c <= BLUE; ++c) {
        for (int v = 1; v <= 5; ++v) {
            for (int k = Card(c, v).count(); k > 0; --k) deck.emplace_back(c, v);
        }
    }
    Server server;
    server.runGame(Factory(), 2, deck);
    return 2;
}
