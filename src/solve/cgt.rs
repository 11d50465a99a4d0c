//! Combinatorial game theory: canonical forms of short partizan games.
