//! Board pictures of every game, size and variant: the SVG is well-formed
//! XML (read by an independent parser), has one cell shape per board cell
//! (counted from the rules' formulas, not from the picture), one piece per
//! stone on the board, coordinates, and the last move marked.

use quintet::draw::{svg, terminal};
use quintet::games::picture::{Board, Picture, Shape};
use quintet::registry::{self, GameConfig};
use quintet::session::Session;

/// The number of cells the rules give each board.
fn rules_cells(config: &GameConfig) -> usize {
    let n = config.size;
    match config.game.as_str() {
        "hadron" | "atoms" => n * n,
        // Tritium's board has no centre cell.
        "tritium" => 3 * n * (n - 1),
        "nadraz" | "ihex" => 3 * n * (n - 1) + 1,
        other => panic!("no cell formula for {other}"),
    }
}

/// A few pseudo-random legal moves (deterministic), so that pieces stand
/// on the board and the last move is marked.
fn play_some(session: &mut dyn Session, plies: usize, seed: u64) -> Vec<String> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for _ in 0..plies {
        let moves = session.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = &moves[(state >> 33) as usize % moves.len()];
        session.play(pick).unwrap();
    }
    session.moves_played()
}

fn elements_with_class<'a>(
    doc: &'a roxmltree::Document,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

fn check(config: &GameConfig, plies: usize) -> Picture {
    let mut session = registry::create(config).unwrap();
    let played = play_some(session.as_mut(), plies, config.size as u64);
    let picture = session.picture();
    let what = format!("{} after {}", session.describe(), played.join(" "));
    let text = svg::render(&picture);
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{what}: the SVG is not well-formed XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let cells = elements_with_class(&doc, "cell");
    assert_eq!(
        cells.len(),
        rules_cells(config),
        "{what}: one shape per cell"
    );
    assert!(cells.iter().all(|c| c.tag_name().name() == "polygon"));
    // Square cells have 4 corners, hexagonal ones 6.
    let corners = if matches!(picture.board, Board::Square { .. }) {
        4
    } else {
        6
    };
    for cell in &cells {
        let points = cell.attribute("points").unwrap().split_whitespace().count();
        assert_eq!(points, corners, "{what}");
    }
    // Every file or column letter and rank or row number is on an edge.
    let coords: Vec<&str> = elements_with_class(&doc, "coord")
        .iter()
        .filter_map(|n| n.text())
        .collect();
    let lines = 2 * config.size
        - if matches!(picture.board, Board::Square { .. }) {
            config.size
        } else {
            1
        };
    for k in 0..lines {
        let letter = quintet::games::hexhex::column_name(k);
        assert!(
            coords.contains(&letter.as_str()),
            "{what}: no label {letter}"
        );
        let number = (k + 1).to_string();
        assert!(
            coords.contains(&number.as_str()),
            "{what}: no label {number}"
        );
    }
    // One drawn piece per piece of the picture.
    assert_eq!(
        elements_with_class(&doc, "piece").len(),
        picture.pieces.len(),
        "{what}"
    );
    // The last move is named and marked (a pass or a side choice names no cell).
    if let Some(last) = played.last() {
        assert_eq!(picture.last_move.as_deref(), Some(last.as_str()));
        let names_a_cell = last.chars().any(|c| c.is_ascii_digit());
        if names_a_cell {
            assert!(
                !elements_with_class(&doc, "last").is_empty(),
                "{what}: last move not marked"
            );
        }
    }
    // The protocol's one-line form is the same document.
    let line = svg::render_one_line(&picture);
    assert!(!line.contains('\n'));
    assert_eq!(line, text.replace('\n', ""));
    roxmltree::Document::parse(&line).unwrap();
    // The same picture as plain text has no colour codes.
    assert!(!terminal::draw(&picture, false).contains('\x1b'));
    picture
}

#[test]
fn every_game_size_and_variant_draws_as_svg() {
    let configs = registry::all_configs();
    assert!(configs.len() > 50);
    for (k, config) in configs.iter().enumerate() {
        check(config, 0);
        check(config, 3 + k % 20);
    }
}

#[test]
fn pieces_mean_what_the_rules_say() {
    // Hadron: one tile per placement.
    let config = registry::resolve(&GameConfig {
        game: "hadron".into(),
        size: 7,
        ..GameConfig::default()
    })
    .unwrap();
    let picture = check(&config, 12);
    assert_eq!(picture.pieces.len(), 12);
    assert!(picture.pieces.iter().all(|p| p.shape == Shape::Tile));

    // Atoms: every atom is labelled with its valence, the atoms around it.
    let mut atoms = registry::create(&GameConfig {
        game: "atoms".into(),
        ..GameConfig::default()
    })
    .unwrap();
    atoms.set_position(None, &["d4", "e5", "f6"]).unwrap();
    let picture = atoms.picture();
    let valence = |name: &str| {
        let cell = picture.cell_named(name).unwrap();
        picture
            .pieces_on(cell)
            .next()
            .unwrap()
            .label
            .clone()
            .unwrap()
    };
    assert_eq!(
        (valence("d4"), valence("e5"), valence("f6")),
        ("1".into(), "2".into(), "1".into())
    );

    // Nadraz: after the pie, two eggs; a walk makes a snake with two ends.
    let mut nadraz = registry::create(&GameConfig {
        game: "nadraz".into(),
        size: 6,
        ..GameConfig::default()
    })
    .unwrap();
    nadraz
        .set_position(None, &["B@e5+W@h8", "black", "e5e8"])
        .unwrap();
    let picture = nadraz.picture();
    let shapes: Vec<Shape> = picture.pieces.iter().map(|p| p.shape).collect();
    assert_eq!(
        shapes.iter().filter(|&&s| s == Shape::Egg).count(),
        1,
        "{shapes:?}"
    );
    assert_eq!(picture.links.len(), 3, "e5 e6 e7 e8: three links");
    assert!(
        picture.notes.iter().any(|n| n.contains("snakes: 4")),
        "{:?}",
        picture.notes
    );
    assert_eq!(
        picture
            .marks
            .iter()
            .filter(|m| matches!(m, quintet::games::picture::Mark::Changed(_)))
            .count(),
        2
    );

    // Tritium: a flag stands on a tile, and its region is claimed.
    let mut tritium = registry::create(&GameConfig {
        game: "tritium".into(),
        ..GameConfig::default()
    })
    .unwrap();
    tritium
        .set_position(None, &["R@a1", "R@b1", "F@a1"])
        .unwrap();
    let picture = tritium.picture();
    let a1 = picture.cell_named("a1").unwrap();
    let b1 = picture.cell_named("b1").unwrap();
    let on_a1: Vec<Shape> = picture.pieces_on(a1).map(|p| p.shape).collect();
    assert_eq!(on_a1, vec![Shape::Tile, Shape::Flag]);
    let claimed = |cell| {
        picture
            .pieces_on(cell)
            .any(|p| matches!(p.detail, quintet::games::picture::Detail::Claimed(_)))
    };
    assert!(claimed(a1) && claimed(b1));
}

#[test]
fn show_writes_svg_or_text() {
    let dir = std::env::temp_dir().join(format!("quintet-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_quintet"))
            .args(args)
            .output()
            .unwrap()
    };
    // From a position text: the text decides the size (a 3x3 Hadron).
    let out = run(&[
        "show",
        "--fen",
        "3/1r1/3 b",
        "--moves",
        "a1",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(elements_with_class(&doc, "cell").len(), 9);
    assert_eq!(elements_with_class(&doc, "piece").len(), 2);
    assert!(svg.contains("last move: a1"));
    // Without --svg: the board as plain text (stdout is a pipe here).
    let out = run(&["--game", "ihex", "--size", "4", "show", "--moves", "d4"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.starts_with("ihex size=4\n"), "{text}");
    assert!(text.contains("[r]") && !text.contains('\x1b'), "{text}");
    // Bad input: a clear error and exit status 2.
    for args in [
        &["show", "--moves", "c3 c3"][..],
        &["show", "--fen", "nonsense"][..],
        &["--game", "tritium", "show", "--moves", "R@e5"][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("quintet: "));
    }
    std::fs::remove_dir_all(&dir).ok();
}
