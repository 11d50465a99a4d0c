//! How a game's estimate of the moves left shares out a clock: the time
//! manager divides the remaining time by it, so the estimate decides which
//! phase of a game gets the thinking time.

use quintet::games::atoms::{Atoms, Variant};
use quintet::games::{Game, Seat};
use quintet::search::time::TimeManager;
use quintet::search::{Limits, SearchSettings};

/// The drops of a game `auto` won against `uct-plain` (11 atoms a side).
const DROPS: [&str; 22] = [
    "h6", "g5", "g7", "g4", "f8", "h8", "h3", "g2", "g1", "e7", "d8", "e6", "c7", "d5", "e4", "c4",
    "e3", "b7", "a6", "a8", "a5", "a4",
];

/// Plays `text` in `position`, checking that it is legal there.
fn play<G: Game>(position: &mut G, text: &str, legal: &mut Vec<G::Move>) {
    let mv = position.parse_move(text).expect("a move of the game");
    position.legal_moves(legal);
    assert!(legal.contains(&mv), "{text} is legal");
    position.make(mv);
}

/// Plays `moves` from `position` and returns how much of a `clock_ms`
/// clock without increment the first player's planned (soft) move times
/// took over them, planned as a search plans them (no move overhead).
fn planned_spend<G: Game>(mut position: G, moves: &[&str], clock_ms: u64) -> u64 {
    let settings = SearchSettings {
        move_overhead_ms: 0,
        ..SearchSettings::default()
    };
    let mut remaining = clock_ms;
    let mut legal = Vec::new();
    for text in moves {
        if position.side_to_move() == Seat::P1 {
            let limits = Limits {
                time: [Some(remaining), Some(remaining)],
                ..Limits::default()
            };
            let soft = TimeManager::for_search(&limits, &position, &settings).soft();
            remaining -= soft.unwrap().as_millis() as u64;
        }
        play(&mut position, text, &mut legal);
    }
    clock_ms - remaining
}

#[test]
fn atoms_drops_are_planned_to_take_about_half_the_clock() {
    // Eleven drops a side: the atom lead they build decides most games
    // (the fewer atoms behind, the fewer draws), so they are planned with
    // a short movement phase after them, not a whole one.
    let spent = planned_spend(Atoms::new(8, 11, Variant::Standard), &DROPS, 10_000);
    assert!(
        (4_500..6_000).contains(&spent),
        "the drops were planned to take {spent} ms of 10 s"
    );
}

#[test]
fn atoms_movement_moves_share_the_clock_over_a_long_phase() {
    // Once the hands are empty a move is planned as one of twenty.
    let mut position = Atoms::new(8, 11, Variant::Standard);
    let mut legal = Vec::new();
    for text in DROPS {
        play(&mut position, text, &mut legal);
    }
    assert_eq!(position.moves_left_estimate(), 20);
    let spent = planned_spend(position, &["c7d7"], 10_000);
    assert_eq!(spent, 10_000 / 20);
}
