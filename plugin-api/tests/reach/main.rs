//! The guideline's reachability search checked against a plain search written apart
//! from it, on seeded boards and on setups drawn by hand; and the column sweep checked
//! against the search.

mod engine;
mod oracle;
mod setups;
mod sweep;
