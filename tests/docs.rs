//! The documentation says what the engine does: protocol.md carries the
//! option and searcher tables exactly as the engine's own tables print them.

use quintet::protocol::format;

#[test]
fn protocol_md_has_the_engines_option_and_searcher_tables() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md beside Cargo.toml");
    for table in [format::option_table(), format::searcher_table()] {
        assert!(
            doc.contains(&table),
            "protocol.md is out of date: paste the output of `quintet options`:\n{table}"
        );
    }
}
