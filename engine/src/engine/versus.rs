//! A game's side of versus: garbage switched on, received, and sent.

use super::{AttackTable, Game, Garbage, GarbageRules};

impl Game {
    /// Makes this a versus game: its locks attack by `attack`, and it takes garbage, with
    /// hole columns drawn from `seed` (give both players' games the same seed).
    pub fn enable_garbage(&mut self, attack: AttackTable, seed: u64) {
        self.enable_garbage_with(attack, GarbageRules::default(), seed);
    }

    /// Makes this a versus game like [`enable_garbage`](Game::enable_garbage), its
    /// garbage rising by `rules`.
    pub fn enable_garbage_with(&mut self, attack: AttackTable, rules: GarbageRules, seed: u64) {
        self.garbage = Some(Box::new(Garbage::new(attack, rules, seed, self.rules.width)));
    }

    /// `rows` rows of garbage arrive, to rise when this game's piece next locks (ignored
    /// outside a versus game).
    pub fn receive(&mut self, rows: u32) {
        if let Some(garbage) = &mut self.garbage {
            garbage.receive(rows);
        }
    }

    /// The rows this game sent since the last call, for delivery to its opponent.
    pub fn take_outgoing(&mut self) -> u32 {
        self.garbage.as_mut().map_or(0, |garbage| garbage.take_outgoing())
    }

    /// The garbage, in a versus game.
    pub fn garbage(&self) -> Option<&Garbage> {
        self.garbage.as_deref()
    }

    /// The garbage, in a versus game, for the realtime pace to say which batches may rise.
    pub fn garbage_mut(&mut self) -> Option<&mut Garbage> {
        self.garbage.as_deref_mut()
    }
}
