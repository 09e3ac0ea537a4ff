//! The pieces a game draws: a seeded sequence, or one given in full (`--sequence`).

use std::sync::Arc;
use tetrad_plugin_api::{PieceId, Randomizer, SeededRng};

/// The pieces to come. A seeded sequence depends only on the randomizer, the size of the
/// set and the seed, so every plugin given the same seed sees the same pieces; a given
/// one ends with its last piece, unless more are given ([`PieceQueue::give`]).
#[derive(Clone, Debug)]
pub struct PieceQueue {
    rng: SeededRng,
    randomizer: Randomizer,
    kinds: u32,
    bag: Vec<u8>,
    /// The pieces given in full, and how many have been dealt, instead of the seed's.
    given: Option<(Arc<[PieceId]>, usize)>,
    /// Pieces given later, dealt after those of `given`.
    more: Vec<PieceId>,
}

impl PieceQueue {
    /// A seeded queue over `kinds` piece kinds.
    pub fn new(randomizer: Randomizer, kinds: usize, seed: u64) -> PieceQueue {
        PieceQueue {
            rng: SeededRng::new(seed),
            randomizer,
            kinds: kinds as u32,
            bag: Vec::with_capacity(kinds),
            given: None,
            more: Vec::new(),
        }
    }

    /// A queue that deals `pieces` in order, then no more.
    pub fn given(pieces: Arc<[PieceId]>) -> PieceQueue {
        PieceQueue {
            given: Some((pieces, 0)),
            ..PieceQueue::new(Randomizer::Uniform, 1, 0)
        }
    }

    /// Gives a queue of given pieces `pieces` more, dealt after all it had (even once it
    /// has run out). A seeded queue deals its seed's pieces only: it ignores them and
    /// returns `false`.
    pub fn give(&mut self, pieces: &[PieceId]) -> bool {
        if self.given.is_none() {
            return false;
        }
        self.more.extend_from_slice(pieces);
        true
    }

    /// Whether the pieces are given in full (a sequence), not dealt by a randomizer.
    pub fn is_given(&self) -> bool {
        self.given.is_some()
    }

    /// Under the 7-bag, the kinds left in the bag being dealt, in no particular order (all
    /// of them when it is empty: the next draw deals from a full bag); `None` under the
    /// uniform randomizer or for a given sequence, which have no such state.
    pub fn bag_left(&self) -> Option<Vec<PieceId>> {
        if self.given.is_some() || self.randomizer != Randomizer::Bag {
            return None;
        }
        if self.bag.is_empty() {
            return Some((0..self.kinds as u8).map(PieceId).collect());
        }
        let mut left: Vec<PieceId> = self.bag.iter().copied().map(PieceId).collect();
        left.sort_unstable_by_key(|piece| piece.0);
        Some(left)
    }

    /// Draws the next piece; `None` once a given sequence is used up (a seeded one never
    /// is).
    pub fn next_piece(&mut self) -> Option<PieceId> {
        if let Some((pieces, dealt)) = &mut self.given {
            let piece = match pieces.get(*dealt) {
                Some(&piece) => Some(piece),
                None => self.more.get(*dealt - pieces.len()).copied(),
            };
            *dealt += usize::from(piece.is_some());
            return piece;
        }
        match self.randomizer {
            Randomizer::Uniform => Some(PieceId(self.rng.below(self.kinds) as u8)),
            Randomizer::Bag => {
                if self.bag.is_empty() {
                    // Fill in reverse so `pop` deals in shuffled order; Fisher-Yates.
                    self.bag.extend((0..self.kinds as u8).rev());
                    for i in (1..self.bag.len()).rev() {
                        let j = self.rng.below(i as u32 + 1) as usize;
                        self.bag.swap(i, j);
                    }
                }
                Some(PieceId(self.bag.pop().unwrap_or(0)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Game;
    use tetrad_plugin_api::{Actions, PieceSet, Preset, Rules};

    #[test]
    fn bag_deals_each_kind_once_per_round() {
        let mut queue = PieceQueue::new(Randomizer::Bag, 7, 3);
        for _ in 0..5 {
            let mut round: Vec<u8> = (0..7).map(|_| queue.next_piece().unwrap().0).collect();
            round.sort_unstable();
            assert_eq!(round, vec![0, 1, 2, 3, 4, 5, 6]);
        }
    }

    #[test]
    fn the_bag_left_is_what_the_round_has_not_dealt() {
        let mut queue = PieceQueue::new(Randomizer::Bag, 7, 5);
        let all: Vec<PieceId> = (0..7).map(PieceId).collect();
        assert_eq!(queue.bag_left(), Some(all.clone()), "before the first draw, a full bag");
        let mut dealt = Vec::new();
        for _ in 0..7 {
            dealt.push(queue.next_piece().unwrap());
            let mut round = queue.bag_left().unwrap();
            if dealt.len() < 7 {
                round.extend(&dealt);
                round.sort_unstable_by_key(|p| p.0);
            }
            assert_eq!(round, all, "dealt {dealt:?}");
        }
        assert_eq!(PieceQueue::new(Randomizer::Uniform, 7, 5).bag_left(), None);
        assert_eq!(PieceQueue::given(Arc::from(vec![PieceId(1)])).bag_left(), None);
    }

    #[test]
    fn same_seed_same_pieces() {
        let draw = |seed| {
            let mut q = PieceQueue::new(Randomizer::Uniform, 7, seed);
            (0..50).map(|_| q.next_piece().unwrap().0).collect::<Vec<_>>()
        };
        assert_eq!(draw(9), draw(9));
        assert_ne!(draw(9), draw(10));
    }

    #[test]
    fn a_given_sequence_deals_its_pieces_then_none() {
        let mut queue = PieceQueue::given(Arc::from(vec![PieceId(3), PieceId(0)]));
        assert_eq!(queue.next_piece(), Some(PieceId(3)));
        assert_eq!(queue.next_piece(), Some(PieceId(0)));
        assert_eq!(queue.next_piece(), None);
        assert_eq!(queue.next_piece(), None);
    }

    #[test]
    fn pieces_given_later_are_dealt_after_the_others_even_once_they_ran_out() {
        let mut queue = PieceQueue::given(Arc::from(vec![PieceId(3)]));
        assert!(queue.give(&[PieceId(1)]));
        assert_eq!(queue.next_piece(), Some(PieceId(3)));
        assert_eq!(queue.next_piece(), Some(PieceId(1)));
        assert_eq!(queue.next_piece(), None);
        assert!(queue.give(&[PieceId(2), PieceId(5)]));
        assert_eq!(queue.next_piece(), Some(PieceId(2)));
        assert_eq!(queue.next_piece(), Some(PieceId(5)));
        assert_eq!(queue.next_piece(), None);
    }

    #[test]
    fn a_seeded_queue_ignores_given_pieces() {
        let draw = |give: bool| {
            let mut q = PieceQueue::new(Randomizer::Bag, 7, 4);
            (0..20)
                .map(|_| {
                    if give {
                        assert!(!q.give(&[PieceId(0)]));
                    }
                    q.next_piece().unwrap().0
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(true), draw(false));
    }

    /// What a player sees of a game: the falling piece, the preview, the hold, the board and
    /// the totals.
    fn seen(g: &Game) -> String {
        let stats = g.stats();
        format!(
            "{:?} {:?} {:?} {:?} {} {} {}",
            g.current(),
            g.queue().collect::<Vec<_>>(),
            g.held(),
            g.board().rows(),
            stats.pieces,
            stats.score,
            g.is_over()
        )
    }

    #[test]
    fn a_game_given_its_pieces_as_they_are_shown_plays_like_one_given_them_all() {
        let moves = [
            Actions::DROP,
            Actions::HOLD,
            Actions::LEFT,
            Actions::DROP,
            Actions::RIGHT,
            Actions::RIGHT,
            Actions::CW,
            Actions::DROP,
            Actions::HOLD,
            Actions::DROP,
        ];
        for (preset, preview) in [
            (Preset::Simplified, 0),
            (Preset::Simplified, 1),
            (Preset::Simplified, 3),
            (Preset::Classic, 2),
            (Preset::Guideline, 5),
        ] {
            let rules = Rules {
                preview,
                ..Rules::preset(preset)
            };
            let set = Arc::new(PieceSet::tetrominoes());
            let mut seeded = PieceQueue::new(rules.randomizer, set.len(), 7);
            let all: Vec<PieceId> = (0..400).map(|_| seeded.next_piece().unwrap()).collect();
            let mut whole = Game::with_queue(rules, set.clone(), PieceQueue::given(Arc::from(all.clone())), None);
            let shown = |g: &Game| {
                g.current()
                    .map(|f| f.piece)
                    .into_iter()
                    .chain(g.queue())
                    .collect::<Vec<_>>()
            };
            let mut fed = Game::with_queue(rules, set, PieceQueue::given(Arc::from(shown(&whole))), None);
            for tick in 0..2000 {
                let actions = moves[tick % moves.len()];
                whole.tick(actions);
                fed.tick(actions);
                // Give what the whole game shows and the fed one does not know yet.
                let (host, known) = (shown(&whole), shown(&fed));
                assert_eq!(
                    host[..known.len().min(host.len())],
                    known[..known.len().min(host.len())]
                );
                if host.len() > known.len() {
                    assert!(fed.give_pieces(&host[known.len()..]));
                }
                assert_eq!(seen(&fed), seen(&whole), "{preset:?}, preview {preview}, tick {tick}");
                if whole.is_over() {
                    break;
                }
            }
        }
        let mut seeded = Game::new(Rules::preset(Preset::Simplified), Arc::new(PieceSet::tetrominoes()), 3);
        let before = seen(&seeded);
        assert!(!seeded.give_pieces(&[PieceId(0), PieceId(1)]));
        assert_eq!(seen(&seeded), before, "a seeded game ignores given pieces");
    }
}
