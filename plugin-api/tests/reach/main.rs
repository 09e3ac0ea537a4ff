//! The guideline's reachability search checked against a plain search written apart
//! from it, on seeded boards and on setups drawn by hand.

mod engine;
mod oracle;
mod setups;
