//! Draws a game's [`crate::games::picture::Picture`]: as SVG (`quintet
//! show`, the replay page, the protocol's `d svg`) and as coloured terminal
//! text (`quintet play`). Knows no particular game and nothing above the
//! rules, so the protocol and the views for people can both use it.

pub mod svg;
pub mod terminal;
