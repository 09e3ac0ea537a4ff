//! The Tetris Bot Protocol (TBP), as a frontend speaks it: its messages ([`messages`]) and
//! its piece locations converted to and from tetrad's positions ([`location`]). TBP bots
//! play the `guideline` preset on its 10x40 board, the board the protocol assumes.

pub mod location;
pub mod messages;
