//! A search report without its clock: node-limited searches repeat
//! exactly, so tests compare their `info` lines with `nps` and `time`
//! taken out (shared by the tests that do).

/// An `info` line without its timing fields (`nps`, `time`).
pub fn untimed(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "nps" || words[i] == "time" {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}
