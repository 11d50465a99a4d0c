//! Commands that run over registered game configurations: the bench and
//! the self-check.

pub mod bench;
pub mod selfcheck;
