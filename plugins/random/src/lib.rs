//! `random`: places every piece at a uniformly random reachable placement (seed 003's
//! random agent), under any preset, board and piece set. The baseline every other
//! plugin should beat.

use tetrad_plugin_api::{placements, Actions, GameSetup, Info, Options, Path, SeededRng, Solver, Tick};

/// The random agent.
pub struct RandomPlacer {
    setup: GameSetup,
    rng: SeededRng,
    path: Option<Path>,
}

impl Solver for RandomPlacer {
    const INFO: Info = Info {
        name: "random",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "uniformly random placement of every piece (the baseline)",
    };

    fn create(setup: &GameSetup, _options: &mut Options) -> Result<Self, String> {
        Ok(RandomPlacer {
            setup: setup.clone(),
            rng: SeededRng::new(setup.seed),
            path: None,
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            let kind = self.setup.pieces.kind(current.id);
            let options = placements(&self.setup.rules, &tick.board, kind, current.pos);
            self.path = if options.is_empty() {
                None
            } else {
                let choice = options[self.rng.below(options.len() as u32) as usize];
                Some(choice.path(self.setup.rules.movement()))
            };
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

tetrad_plugin_api::export_solver!(RandomPlacer);

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{Board, FallingPiece, PieceId, PieceSet, Preset, Rules};

    #[test]
    fn plays_a_whole_path_then_starts_a_new_one() {
        let rules = Rules::preset(Preset::Simplified);
        let setup = GameSetup {
            rules,
            pieces: PieceSet::tetrominoes(),
            seed: 5,
        };
        let mut solver = RandomPlacer::create(&setup, &mut Options::default()).unwrap();
        let id = PieceId(2);
        let falling = FallingPiece {
            id,
            pos: rules.spawn(setup.pieces.kind(id)),
        };
        let tick = Tick::new(Board::new(10, 20), Some(falling), None, true);
        let first = solver.update(&tick);
        assert!(!first.is_violation());
        // Within one turn and up to five shifts, the path ends with a DROP.
        let mut later = tick.clone();
        later.new_piece = false;
        let mut dropped = first.contains(Actions::DROP);
        for _ in 0..6 {
            if dropped {
                break;
            }
            later.new_piece = false;
            dropped = solver.update(&later).contains(Actions::DROP);
        }
        assert!(dropped);
    }
}
