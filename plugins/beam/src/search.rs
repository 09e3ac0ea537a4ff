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

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::attack::{Clear, Streak};
use crate::eval::{value, Shape};
use crate::weights::Weights;
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

/// What makes two nodes the same game.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    board: Board,
    current: Option<PieceId>,
    held: Option<PieceId>,
    next: usize,
    streak: Streak,
    incoming: u32,
}

/// One piece a node may place: which, from where, and what the hold slot and queue become.
struct Move {
    piece: PieceId,
    start: PiecePos,
    hold: bool,
    held: Option<PieceId>,
    next: usize,
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
        let mut depth = 0;
        let mut best: Option<Choice> = None;
        let mut sweeps = Vec::new();
        while depth < limits.depth.max(1) && layer.iter().any(|n| n.current.is_some()) {
            let mut children: Vec<Node> = Vec::new();
            let mut index: HashMap<Key, usize> = HashMap::new();
            let mut complete = true;
            'layer: for node in &layer {
                if node.current.is_none() {
                    merge(&mut children, &mut index, node.clone());
                    continue;
                }
                for m in self.moves(node, position.queue) {
                    sweep_into(self.rules, &node.board, self.pieces.kind(m.piece), m.start, &mut sweeps);
                    for landing in &sweeps {
                        if let Some(child) = self.child(node, &m, *landing, position.queue) {
                            merge(&mut children, &mut index, child);
                        }
                        if !budget.spend() {
                            complete = false;
                            break 'layer;
                        }
                    }
                }
            }
            children.sort_by(|a, b| b.score.total_cmp(&a.score));
            children.truncate(limits.width.max(1));
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

    /// The game after `node` plays `m` to `landing`; `None` when that ends the game.
    fn child(&self, node: &Node, m: &Move, landing: Landing, queue: &[PieceId]) -> Option<Node> {
        let kind = self.pieces.kind(m.piece);
        let pos = landing.pos;
        let shape = kind.orientation(pos.orientation);
        let mut board = node.board.clone();
        if self.rules.locks_out(shape, pos.y) || !board.place(shape, pos.x, pos.y) {
            return None;
        }
        let is_t = Some(m.piece) == self.t;
        let spin = if is_t {
            landing.entry.t_spin(&node.board, pos)
        } else {
            Spin::None
        };
        let lines = board.clear_full_rows();
        let clear = Clear {
            lines,
            spin,
            perfect: lines > 0 && board.surface() == board.height(),
        };
        let current = queue.get(m.next).copied();
        if let Some(piece) = current {
            let kind = self.pieces.kind(piece);
            let entry = self.rules.enter(&board, kind);
            if !board.fits(kind.orientation(entry.orientation), entry.x, entry.y) {
                return None;
            }
        }
        let sent = node.streak.attack(clear);
        let reward = node.reward + self.reward(clear, sent, is_t);
        let streak = node.streak.after(clear);
        let incoming = node.incoming.saturating_sub(sent);
        let shape = Shape::of(&board, self.visible);
        let score = reward + value(self.weights, &shape, streak, incoming);
        let first = node.first.or(Some(Choice {
            hold: m.hold,
            piece: m.piece,
            start: m.start,
            landing,
            score,
        }));
        Some(Node {
            board,
            current,
            start: None,
            held: m.held,
            can_hold: self.rules.has_hold(),
            next: m.next + 1,
            streak,
            incoming,
            reward,
            score,
            first: first.map(|c| Choice { score, ..c }),
        })
    }

    /// What one lock earns: the rows it sends, its spin, a perfect clear; a T spent
    /// without a spin, or a clear that sends nothing, costs.
    fn reward(&self, clear: Clear, sent: u32, is_t: bool) -> f64 {
        let w = self.weights;
        let f = f64::from;
        let spun = clear.spin == Spin::Full && clear.lines > 0;
        let mut reward = w.attack * f(sent);
        if spun {
            reward += w.tspin * f(clear.lines);
        }
        if clear.perfect {
            reward += w.perfect_clear;
        }
        if is_t && !(clear.spin != Spin::None && clear.lines > 0) {
            reward += w.wasted_t;
        }
        if clear.lines > 0 && sent == 0 {
            reward += w.clear * f(clear.lines);
        }
        reward
    }
}

/// Adds `child` to the layer, or keeps the better of it and the same game already there.
fn merge(children: &mut Vec<Node>, index: &mut HashMap<Key, usize>, child: Node) {
    let key = Key {
        board: child.board.clone(),
        current: child.current,
        held: child.held,
        next: child.next,
        streak: child.streak,
        incoming: child.incoming,
    };
    match index.get(&key) {
        Some(&at) => {
            if child.score > children[at].score {
                children[at] = child;
            }
        }
        None => {
            index.insert(key, children.len());
            children.push(child);
        }
    }
}
