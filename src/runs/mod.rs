//! Commands that run over registered game configurations: the bench and
//! the self-check, and `quintet solve`.

pub mod bench;
pub mod selfcheck;
pub mod solve;
