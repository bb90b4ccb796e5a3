// "Learn a game": a page per game with the rules in short, a worked example, what the
// agents reason about, and buttons that start a guided first game (watched or played).
// Reached from the Learn tab and by address (#learn/kwartet).
import { h } from "./api.js";

// Each page's text. The guided game a page starts is the game's showcase (`Game.showcase`,
// from the API): the same short game as the start page's and the form's defaults.
export const GAMES = {
  kwartet: {
    title: "Kwartet",
    tagline: "Collect quartets by asking the others for cards; every question and answer is public.",
    rules: [
      "The deck has a number of kinds of four cards each. Card ⟨8,4⟩ is card 4 of kind 8. All cards are dealt round the table, so hands differ by at most one card.",
      "On your turn you ask one opponent who still has cards for one card of a kind you already hold.",
      "If the opponent has it, it must hand it over and you ask again. If not, the turn passes to the next player who still has cards.",
      "Four cards of one kind are laid down at once and score a point. A player with no cards left sits out.",
      "When every kind is down, the player with the most points wins (equal points share the win).",
      "Everything is said aloud — who asked whom for which card, and the answer — and everyone sees how many cards each player holds. Only your own hand is secret.",
    ],
    example: [
      ["West holds ⟨8,1⟩ and ⟨8,2⟩ and asks North for ⟨8,4⟩. North has it and hands it over; West may ask again.",
        "Everyone now knows that West holds ⟨8,4⟩ — and, since one may only ask for a kind one holds, that West had a card of kind 8 before."],
      ["West asks East for ⟨8,3⟩. East does not have it, and the turn passes to North.",
        "Everyone now knows East lacks ⟨8,3⟩. South, holding no card of kind 8, can rule out East and itself: ⟨8,3⟩ is with West or North. In the Kripke model of ⟨8,3⟩ the world “East holds it” is gone."],
      ["Later West gets ⟨8,3⟩ from North and holds all four cards of kind 8.",
        "West lays the kind down at once and scores a point; the four cards leave the game, and nobody has to wonder about them any more."],
    ],
    reasoning: "The agents keep no notes. For each seat a knowledge engine works out every deal that fits that seat's own hand and everything announced, so it can say who may hold a card, who surely holds it, and how likely each holder is. The Kripke model of one card has a world per possible holder; an agent's line joins the worlds it cannot tell apart.",
  },
  blufpoker: {
    title: "Blufpoker",
    tagline: "Bid on three dice under a cup — honestly or not — and call the others' bluffs.",
    rules: [
      "Three dice and a cup, for 2 to 6 players. A roll reads from high to low: 3, 6, 5 is 653. Three equal dice (a poker) beat every other roll; 211 is the lowest roll and 666 the highest.",
      "A round opens with a player rolling all three dice under the cup and bidding what it rolled: the opening bid is true by rule.",
      "The next player calls or believes. A call lifts the cup: if the dice show less than the bid, the bidder gets a penalty, otherwise the caller does.",
      "A player who believes takes the cup, looks under it, rolls one, two or three of the dice again (each die at most once a turn, stopping when it likes) and must bid higher than the bid it believed, truthfully or as a bluff. Dice it did not roll go outside the cup, for all to see.",
      "A believed poker bid starts the poker phase: the believer rolls in the open, up to three times, to reach a poker at least as high.",
      "The player who got the penalty opens the next round. Whoever reaches the penalty limit (5 unless set otherwise) loses, and everyone else wins.",
    ],
    example: [
      ["Ann rolls 6, 5 and 3 and opens with 653.",
        "Everybody knows the cup holds 653: an opening bid cannot be a bluff."],
      ["Bob believes, looks under the cup, leaves the 6 and the 5 outside and rolls the third die again under the cup: a 1. He must bid above 653 and says 654 — a bluff.",
        "Cas sees 6 5 outside and one die rolled unseen. For Cas the cup may hold any of six rolls, 651 to 665; the bid is true in three of them (a 4, 5 or 6 under the cup)."],
      ["Cas calls. The cup is lifted: 6 5 1, lower than 654.",
        "Bob gets a penalty and opens the next round. Had the die shown a 4 or more, Cas would have paid."],
    ],
    reasoning: "The Kripke model of the cup has a world per roll the cup may hold. The player who looked tells them all apart; the others know only the dice outside the cup and what was bid, so for them all rolls that match the open dice stay possible. Large models are drawn grouped by what the viewer can tell apart, with counts.",
  },
  klaverjas: {
    title: "Klaverjas",
    tagline: "The Dutch trick-taking game for two teams of two: North–South against East–West.",
    rules: [
      "32 cards, 7 to ace in four suits, eight to each player. Partners sit opposite each other.",
      "One suit is trump. In trump the order is J 9 A 10 K Q 8 7; in the other suits A 10 K Q J 9 8 7. Jack and nine of trump are worth 20 and 14 points, aces 11, tens 10, and so on: 152 card points, plus 10 for the last trick.",
      "The player after the dealer names trump (in this setting) and leads the first trick; the winner of a trick leads the next. The highest trump wins a trick, otherwise the highest card of the suit led.",
      "You must follow the suit led if you can. If you cannot, you must trump, and beat a trump already in the trick if you can — except that under the Amsterdam rules you may play anything while your partner is winning the trick. When trump is led you must play a higher trump if you have one.",
      "Roem: three cards in sequence in one trick score 20, four score 50, king and queen of trump together 20.",
      "The team that chose trump must score more than the other team, or it is “nat”: it scores nothing and the others get all the points. Taking every trick (“pit”) scores 100 extra.",
    ],
    example: [
      ["♥ is trump. North leads A♠. East has no spades left and plays 7♥, a trump.",
        "Everyone now knows East holds no spade: it had to follow suit if it could. Every world of the model in which East holds a spade disappears."],
      ["South, East's opponent, has no spade either and holds only the 8♥ as trump. It must overtrump the 7♥ and plays 8♥.",
        "The others learn that South has no spade; they cannot yet tell whether it holds other trumps."],
      ["West, who holds spades, follows with 10♠; South's trump wins the trick.",
        "A card not played tells as much as a card played: each refusal to follow suit or to overtrump is a fact every seat adds to what it knows."],
    ],
    reasoning: "Each card played narrows down who can hold the others: a player who does not follow suit has none of that suit; a player who does not overtrump has no higher trump. The knowledge engine keeps these facts for every seat and counts the deals that fit them, so the agents know exact probabilities of who holds each card.",
  },
  kemps: {
    title: "Kemps",
    tagline: "Collect four of a kind by swapping cards with an open table.",
    rules: [
      "The deck has four suits of a number of ranks (from 2 up). Some cards lie face up on the table, each player gets four, the rest is the deck.",
      "Players take turns. In a turn you may swap up to a few times: take a table card into your hand and put a hand card in its place. A card you put down may not be taken back in the same turn. You end your turn when you like.",
      "If your four cards are of one rank when your turn ends, you call Kemps: you score one, the cards leave the game and you draw four new ones from the deck.",
      "When the table has not changed for a few turns in a row, it goes to the discard pile and a new table is dealt; the discard pile is shuffled back into the deck when the deck runs short.",
      "The game ends with a Kemps after which fewer than four cards are left to draw. The most Kemps wins.",
    ],
    example: [
      ["On the table: 6♥ 5♦ 3♦ 3♣ 4♠ 6♣. South holds 2♥ 5♥ 4♥ 5♣ and swaps: it takes 5♦ from the second slot and puts down 4♥.",
        "Everyone saw 5♦ go into South's hand and 4♥ come out: now everyone knows South holds 5♦ — and can guess South is collecting fives."],
      ["South ends its turn without a Kemps.",
        "Everyone learns that South's four cards are not four of a kind. Each swap and each ended turn is public; only the cards dealt into a hand stay hidden."],
      ["North holds 5♠ and keeps it, though it collects threes, rather than put it on the table.",
        "A player that knows who collects which rank can block: it keeps the fives South needs away from the table."],
    ],
    reasoning: "Cards on the table are public. A card taken from the table is known to be in that hand until it is put down again; cards drawn from the deck are hidden. The card engine keeps, for each seat, who may hold every card through new tables, reshuffles and new hands.",
  },
};

export function gameNames() { return Object.keys(GAMES); }

export function hasLearnPage(name) { return Object.hasOwn(GAMES, name); }

// Draw the learn page for one game; `start(name, play)` opens its guided game.
export function renderLearn(el, name, start) {
  const g = GAMES[name] || GAMES.kwartet;
  const key = GAMES[name] ? name : "kwartet";
  const nav = h("nav", { class: "learn-nav", "aria-label": "games" },
    ...gameNames().map((n) => h("a", { href: `#learn/${n}`, class: n === key ? "active" : "",
      "aria-current": n === key ? "page" : null }, GAMES[n].title)));
  const example = h("ol", { class: "learn-example" }, ...g.example.map(([move, meaning]) =>
    h("li", {}, h("p", { class: "move" }, move), h("p", { class: "meaning" }, meaning))));
  const buttons = h("div", { class: "learn-buttons" },
    h("button", { class: "primary", id: "learn-watch", type: "button",
      onclick: () => start(key, false) }, "Watch a guided game"),
    h("button", { class: "accent", id: "learn-play", type: "button",
      onclick: () => start(key, true) }, "Play a guided game"));
  el.replaceChildren(nav, h("article", { class: "card-panel learn", "data-game": key },
    h("h2", {}, `${g.title}: how to play`),
    h("p", { class: "tagline" }, g.tagline),
    h("h3", {}, "The rules in short"),
    h("ul", { class: "learn-rules" }, ...g.rules.map((r) => h("li", {}, r))),
    h("h3", {}, "A worked example"),
    example,
    h("h3", {}, "What the agents reason about"),
    h("p", {}, g.reasoning),
    h("h3", {}, "Try it"),
    h("p", { class: "hint" }, "A guided game explains every move and every announcement as it happens, " +
      "in plain words. Playing, you see only your own seat, and the explanations tell you only what your seat may know."),
    buttons));
}
