//! The sequential test of a two-entrant tournament, taken in game order: a game counts
//! once it and every game before it have finished, so the test stops at the same game
//! whatever the number of jobs and the order in which games finish.

use super::{pairings_of, FixtureRecord, Tournament};
use crate::tournament::{sprt_bounds, sprt_llr};
use std::collections::BTreeMap;

/// Sequential test between the two entrants of a two-plugin tournament.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
}

/// The SPRT's state when the tournament ended.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SprtResult {
    /// Elo bounds tested.
    pub elo0: f64,
    /// Elo bounds tested.
    pub elo1: f64,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Bounds for alpha = beta = 0.05.
    pub bounds: (f64, f64),
    /// "H1" (the first entrant is stronger by elo1), "H0", or "undecided".
    pub verdict: &'static str,
}

/// The test over the games counted so far.
pub(super) struct InOrder<'t> {
    tournament: &'t Tournament,
    test: Sprt,
    labels: Vec<String>,
    /// Finished fixtures of games not counted yet, by game.
    waiting: BTreeMap<u64, Vec<FixtureRecord>>,
    /// The next game to count.
    next: u64,
    score: [u64; 3],
    decided_before: Option<u64>,
}

impl<'t> InOrder<'t> {
    /// The test `test` of `tournament`'s two entrants, no game counted.
    pub(super) fn new(tournament: &'t Tournament, test: Sprt) -> InOrder<'t> {
        InOrder {
            tournament,
            test,
            labels: tournament.entrants.iter().map(|e| e.label.clone()).collect(),
            waiting: BTreeMap::new(),
            next: 0,
            score: [0; 3],
            decided_before: None,
        }
    }

    /// Takes a finished fixture, and counts every game it completes in order, up to the
    /// one at which the test decides.
    pub(super) fn add(&mut self, fixture: &FixtureRecord) {
        if self.decided_before.is_some() {
            return;
        }
        self.waiting.entry(fixture.game).or_default().push(fixture.clone());
        let tournament = self.tournament;
        let per_game = tournament.seatings().len();
        loop {
            while self.next < tournament.spec.games && !tournament.shard.contains(self.next) {
                self.next += 1;
            }
            if self
                .waiting
                .get(&self.next)
                .is_none_or(|fixtures| fixtures.len() < per_game)
            {
                return;
            }
            let game = self.waiting.remove(&self.next).expect("checked above");
            if let Some(pair) = pairings_of(&self.labels, tournament.is_versus(), &game).first() {
                self.score[0] += pair.wins;
                self.score[1] += pair.draws;
                self.score[2] += pair.losses;
            }
            self.next += 1;
            if self.state().verdict != "undecided" {
                self.decided_before = Some(self.next);
                return;
            }
        }
    }

    /// Once the test has decided: the first game it did not count.
    pub(super) fn decided_before(&self) -> Option<u64> {
        self.decided_before
    }

    /// The test over the games counted.
    pub(super) fn state(&self) -> SprtResult {
        let [wins, draws, losses] = self.score;
        let llr = sprt_llr(wins, draws, losses, self.test.elo0, self.test.elo1);
        let bounds = sprt_bounds();
        let verdict = if llr >= bounds.1 {
            "H1"
        } else if llr <= bounds.0 {
            "H0"
        } else {
            "undecided"
        };
        SprtResult {
            elo0: self.test.elo0,
            elo1: self.test.elo1,
            llr,
            bounds,
            verdict,
        }
    }
}
