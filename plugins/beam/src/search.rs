//! The beam search over the piece queue: which placement (or hold) to play now.
//!
//! Design. A node is the game after some placements: the board (rows cleared), the piece
//! to place next, the held piece, how far into the preview queue the pieces came from,
//! the streak (back-to-back, combo) and the incoming garbage not yet cancelled. Each
//! node's children are the placements [`sweep`] finds for its piece and, where holding is
//! allowed, for the piece a hold brings in (the held one, or the next in the queue). A
//! child's score is the reward its path has earned (rows sent, spins, perfect clears,
//! wasted T pieces) plus the [value](crate::eval::value) of its board. Layer by layer,
//! the children of the beam are made, equal games merged (the higher score kept), sorted
//! (stably, so equal scores keep the order they were made in) and cut to the beam's width.
//! A node with no piece left to place (the preview ran out) passes to the next layer as it
//! is. The answer is the first move of the best node of the deepest layer completed: a
//! search stopped by its node budget or its time mid-layer keeps the last complete layer's
//! answer (or, in the first layer, the best child made so far), so the search is anytime,
//! and at a fixed node budget, with no time limit, it is deterministic.
//!
//! Why a beam: each layer costs the same (width x placements), so the think time is
//! predictable from the options, and a beam keeps the several plans a T-spin setup needs
//! alive across the pieces that build it, where a greedy choice would cash in at once.

use std::time::{Duration, Instant};

mod layer;
mod reward;

pub use layer::Scratch;

use crate::attack::{Clear, Streak};
use crate::eval::value;
use crate::weights::Weights;
use layer::{keep, key, Candidate};
use tetrad_plugin_api::{sweep_into, Board, FallingPiece, Landing, PieceId, PiecePos, PieceSet, Rules, Spin};

/// How far and how long the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes kept per layer.
    pub width: usize,
    /// Placements looked ahead, the current piece's included.
    pub depth: usize,
    /// Children made at most per decision (0: no limit).
    pub nodes: u64,
    /// Wall-clock time per decision (`None`: no limit).
    pub think: Option<Duration>,
}

/// What the search is asked about: the game as a tick shows it.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board, without the falling piece.
    pub board: &'a Board,
    /// The falling piece, where it is.
    pub current: FallingPiece,
    /// The held piece.
    pub hold: Option<PieceId>,
    /// Whether a hold acts now.
    pub hold_available: bool,
    /// The preview, next piece first.
    pub queue: &'a [PieceId],
    /// Back-to-back and combo before this piece.
    pub streak: Streak,
    /// Garbage rows waiting to rise.
    pub incoming: u32,
}

/// The move chosen: place `piece` (after a hold when `hold`) at `landing`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// Hold first: `piece` is the one the hold brings in.
    pub hold: bool,
    /// The piece placed.
    pub piece: PieceId,
    /// Where its search started (its entry, or the falling piece's position).
    pub start: PiecePos,
    /// Where it locks and how it comes there.
    pub landing: Landing,
    /// The score of the best node that begins with it.
    pub score: f64,
}

/// What a search did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The move to play; `None` when no placement keeps the game going.
    pub choice: Option<Choice>,
    /// Children made.
    pub nodes: u64,
    /// Layers completed.
    pub depth: usize,
}

/// What the search reads from the game's setup.
pub struct Searcher<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// The pieces.
    pub pieces: &'a PieceSet,
    /// The evaluation's weights.
    pub weights: &'a Weights,
    /// The T piece, whose spins score.
    pub t: Option<PieceId>,
    /// Rows of the visible field.
    pub visible: usize,
}

#[derive(Clone)]
struct Node {
    board: Board,
    /// The piece to place next (`None`: the preview ran out).
    current: Option<PieceId>,
    /// Where `current` starts, if it is the falling piece (the root's).
    start: Option<PiecePos>,
    held: Option<PieceId>,
    /// Whether a hold acts for `current`.
    can_hold: bool,
    /// The queue index of the piece after `current`.
    next: usize,
    streak: Streak,
    incoming: u32,
    reward: f64,
    score: f64,
    first: Option<Choice>,
}

/// One piece a node may place: which, from where, and what the hold slot and queue become.
#[derive(Clone, Copy)]
struct Move {
    piece: PieceId,
    start: PiecePos,
    hold: bool,
    held: Option<PieceId>,
    next: usize,
}

/// What a child's board is after a move: the board, the clear, and whether the game goes on.
struct Locked {
    board: Board,
    clear: Clear,
    is_t: bool,
}

/// The budget of one decision.
struct Budget {
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
}

impl Budget {
    /// Counts a child; false once the budget is spent.
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.limit > 0 && self.nodes >= self.limit {
            return false;
        }
        // The clock is read every 64 children: a read costs more than a child's board.
        !(self.nodes.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d))
    }
}

impl Searcher<'_> {
    /// The best move from `position` within `limits`.
    pub fn search(&self, position: &Position, limits: Limits) -> Outcome {
        self.search_with(position, limits, &mut Scratch::default())
    }

    /// [`search`](Self::search), reusing `scratch`'s buffers.
    pub fn search_with(&self, position: &Position, limits: Limits, scratch: &mut Scratch) -> Outcome {
        let mut budget = Budget {
            nodes: 0,
            limit: limits.nodes,
            deadline: limits.think.map(|t| Instant::now() + t),
        };
        let mut layer = vec![Node {
            board: position.board.clone(),
            current: Some(position.current.id),
            start: Some(position.current.pos),
            held: position.hold,
            can_hold: position.hold_available,
            next: 0,
            streak: position.streak,
            incoming: position.incoming,
            reward: 0.0,
            score: 0.0,
            first: None,
        }];
        let queue = position.queue;
        let mut depth = 0;
        let mut best: Option<Choice> = None;
        while depth < limits.depth.max(1) && layer.iter().any(|n| n.current.is_some()) {
            let Scratch {
                candidates,
                index,
                sweeps,
            } = &mut *scratch;
            candidates.clear();
            index.clear();
            let mut complete = true;
            'layer: for (parent, node) in layer.iter().enumerate() {
                if node.current.is_none() {
                    let pass = Candidate {
                        score: node.score,
                        reward: node.reward,
                        parent: parent as u32,
                        order: 0,
                        placed: None,
                        streak: node.streak,
                        incoming: node.incoming,
                    };
                    let key = key(&node.board, None, node.held, node.next, node.streak, node.incoming);
                    keep(candidates, index, key, pass);
                    continue;
                }
                for m in self.moves(node, queue) {
                    sweep_into(self.rules, &node.board, self.pieces.kind(m.piece), m.start, sweeps);
                    for &landing in sweeps.iter() {
                        if let Some((candidate, key)) = self.weigh(node, parent, m, landing, queue) {
                            keep(candidates, index, key, candidate);
                        }
                        if !budget.spend() {
                            complete = false;
                            break 'layer;
                        }
                    }
                }
            }
            let children = self.survivors(&layer, candidates, limits.width.max(1), queue);
            if complete || depth == 0 {
                best = children.first().and_then(|n| n.first).or(best);
            }
            if !complete || children.is_empty() {
                break;
            }
            depth += 1;
            layer = children;
        }
        Outcome {
            choice: best,
            nodes: budget.nodes,
            depth,
        }
    }

    /// The best `width` of the layer's candidates, best first (equal scores in the order
    /// they were made), each made into a node with its board.
    fn survivors(&self, layer: &[Node], candidates: &mut [Candidate], width: usize, queue: &[PieceId]) -> Vec<Node> {
        let order = |a: &Candidate, b: &Candidate| b.score.total_cmp(&a.score).then(a.order.cmp(&b.order));
        let width = width.min(candidates.len());
        if width < candidates.len() {
            candidates.select_nth_unstable_by(width, order);
        }
        let best = &mut candidates[..width];
        best.sort_unstable_by(order);
        best.iter()
            .map(|c| {
                let parent = &layer[c.parent as usize];
                let Some((m, landing)) = c.placed else {
                    return parent.clone();
                };
                let locked = self.lock(&parent.board, &m, landing).expect("a candidate's move locks");
                let choice = parent.first.unwrap_or(Choice {
                    hold: m.hold,
                    piece: m.piece,
                    start: m.start,
                    landing,
                    score: c.score,
                });
                Node {
                    board: locked.board,
                    current: queue.get(m.next).copied(),
                    start: None,
                    held: m.held,
                    can_hold: self.rules.has_hold(),
                    next: m.next + 1,
                    streak: c.streak,
                    incoming: c.incoming,
                    reward: c.reward,
                    score: c.score,
                    first: Some(Choice {
                        score: c.score,
                        ..choice
                    }),
                }
            })
            .collect()
    }

    /// The pieces `node` may place: its own, and the one a hold brings in.
    fn moves(&self, node: &Node, queue: &[PieceId]) -> Vec<Move> {
        let Some(current) = node.current else {
            return Vec::new();
        };
        let enter = |piece: PieceId| self.rules.enter(&node.board, self.pieces.kind(piece));
        let mut moves = vec![Move {
            piece: current,
            start: node.start.unwrap_or_else(|| enter(current)),
            hold: false,
            held: node.held,
            next: node.next,
        }];
        if node.can_hold {
            let swap = match node.held {
                Some(held) => Some((held, node.next)),
                None => queue.get(node.next).map(|&p| (p, node.next + 1)),
            };
            if let Some((piece, next)) = swap.filter(|&(piece, _)| piece != current) {
                moves.push(Move {
                    piece,
                    start: enter(piece),
                    hold: true,
                    held: Some(current),
                    next,
                });
            }
        }
        moves
    }

    /// `m` played to `landing` on `board`: the board after its clear, or `None` when
    /// the piece locks out.
    fn lock(&self, board: &Board, m: &Move, landing: Landing) -> Option<Locked> {
        let kind = self.pieces.kind(m.piece);
        let pos = landing.pos;
        let shape = kind.orientation(pos.orientation);
        let mut after = board.clone();
        if self.rules.locks_out(shape, pos.y) || !after.place(shape, pos.x, pos.y) {
            return None;
        }
        let is_t = Some(m.piece) == self.t;
        let spin = if is_t {
            landing.entry.t_spin(board, pos)
        } else {
            Spin::None
        };
        let lines = after.clear_full_rows();
        let clear = Clear {
            lines,
            spin,
            perfect: lines > 0 && after.surface() == after.height(),
        };
        Some(Locked {
            board: after,
            clear,
            is_t,
        })
    }

    /// The child of `node` (the layer's `parent`-th) that plays `m` to `landing`, weighed,
    /// with the key that tells equal games apart; `None` when that ends the game (the
    /// piece locks out, or the next piece cannot enter).
    fn weigh(
        &self,
        node: &Node,
        parent: usize,
        m: Move,
        landing: Landing,
        queue: &[PieceId],
    ) -> Option<(Candidate, u64)> {
        let Locked { board, clear, is_t } = self.lock(&node.board, &m, landing)?;
        let current = queue.get(m.next).copied();
        if let Some(piece) = current {
            let kind = self.pieces.kind(piece);
            let entry = self.rules.enter(&board, kind);
            if !board.fits(kind.orientation(entry.orientation), entry.x, entry.y) {
                return None;
            }
        }
        let sent = node.streak.attack(clear);
        let reward = node.reward + self.reward(node.streak, clear, sent, is_t);
        let streak = node.streak.after(clear);
        let incoming = node.incoming.saturating_sub(sent);
        let ts = self.ts_to_come(&m, queue);
        let score = reward + value(self.weights, &board, self.visible, streak, incoming, ts);
        let candidate = Candidate {
            score,
            reward,
            parent: parent as u32,
            order: 0,
            placed: Some((m, landing)),
            streak,
            incoming,
        };
        Some((candidate, key(&board, current, m.held, m.next + 1, streak, incoming)))
    }
}
