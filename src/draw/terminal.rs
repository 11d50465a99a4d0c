//! Pictures as terminal text: one token per cell, hexhex rows shifted so
//! that neighbours touch, coordinates on the edges, the last move in
//! brackets. With colour, pieces are coloured blocks (256-colour ANSI);
//! without, the game's own letters.

use crate::games::picture::{Board, Detail, Ink, Mark, Picture, Piece, Shape, Tone};
use std::collections::BTreeMap;
use std::io::IsTerminal;

/// Whether to colour output to stdout: a terminal, and `NO_COLOR` unset.
pub fn colour_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// The picture as lines of text (with ANSI colours if `colour`).
pub fn draw(picture: &Picture, colour: bool) -> String {
    let mut out = format!("{}\n", picture.title);
    match picture.board {
        Board::Square { size } => draw_square(&mut out, picture, size, colour),
        Board::Hex { side } => draw_hex(&mut out, picture, side, colour),
        Board::Text => {}
    }
    if let Some(last) = &picture.last_move {
        out.push_str(&format!("last move: {last}\n"));
    }
    for note in &picture.notes {
        out.push_str(note);
        out.push('\n');
    }
    if !matches!(picture.board, Board::Text) {
        out.push_str(&legend(picture, colour));
    }
    out
}

/// What the letters and marks on this board mean, one line.
fn legend(picture: &Picture, colour: bool) -> String {
    let mut meanings: BTreeMap<char, Vec<String>> = BTreeMap::new();
    for piece in &picture.pieces {
        if shows_label(piece, colour) {
            continue;
        }
        let mut text = format!("{} {}", piece.ink.name(), piece.shape.name());
        if piece.detail == Detail::End {
            text.push_str(" (chain end)");
        }
        let entry = meanings.entry(piece.glyph).or_default();
        if !entry.contains(&text) {
            entry.push(text);
        }
    }
    let mut parts: Vec<String> = meanings
        .into_iter()
        .map(|(glyph, texts)| format!("{glyph} {}", texts.join(" or ")))
        .collect();
    if picture.pieces.iter().any(|p| p.label.is_some()) && colour {
        parts.push("digits: counts".to_string());
    }
    if picture.pieces.iter().any(|p| p.detail == Detail::Unstable) {
        parts.push("x? to be removed".to_string());
    }
    let marked = |test: fn(&Mark) -> bool| picture.marks.iter().any(test);
    for (shown, text) in [
        (marked(|m| matches!(m, Mark::Last(_))), "[x] last move"),
        (
            marked(|m| matches!(m, Mark::From(_))),
            "(x) where it started",
        ),
        (
            marked(|m| matches!(m, Mark::Changed(_))),
            "*x changed by it",
        ),
        (
            marked(|m| matches!(m, Mark::Removed(..))),
            "x taken off by it",
        ),
    ] {
        if shown {
            parts.push(text.to_string());
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}\n", parts.join(", "))
    }
}

/// In colour a piece's ink says whose it is, so a one-character label
/// (a count) is shown instead of its letter.
fn shows_label(piece: &Piece, colour: bool) -> bool {
    colour && piece.label.as_ref().is_some_and(|l| l.chars().count() == 1)
}

/// What one cell shows: its characters, the two mark characters around
/// them, and its colours.
struct Token {
    body: String,
    left: char,
    right: char,
    /// Spaces after the token, up to the widest body.
    pad: usize,
    /// 256-colour background and foreground, `None` for the terminal's own.
    bg: Option<u8>,
    fg: Option<u8>,
}

fn ink_colours(ink: Ink) -> (u8, u8) {
    match ink {
        Ink::Red => (160, 231),
        Ink::Blue => (26, 231),
        Ink::Green => (28, 231),
        Ink::Black => (235, 231),
        Ink::White => (255, 16),
    }
}

/// The widest body any cell needs (a tile with a flag needs two letters).
fn body_width(picture: &Picture) -> usize {
    let mut counts = vec![0usize; picture.cells.len()];
    for piece in &picture.pieces {
        if let Some(count) = counts.get_mut(piece.cell) {
            *count += 1;
        }
    }
    counts.into_iter().max().unwrap_or(1).clamp(1, 2)
}

fn token(picture: &Picture, cell: usize, width: usize, colour: bool) -> Token {
    let tone = picture.cells[cell].tone;
    let mut token = Token {
        body: String::new(),
        left: ' ',
        right: ' ',
        pad: 0,
        bg: colour.then_some(if tone == Tone::Edge { 137 } else { 180 }),
        fg: colour.then_some(94),
    };
    for piece in picture.pieces_on(cell) {
        let shown = match &piece.label {
            Some(label) if shows_label(piece, colour) => label.chars().next(),
            _ => Some(piece.glyph),
        };
        token.body.extend(shown);
        if colour && piece.shape != Shape::Flag {
            let (bg, fg) = ink_colours(piece.ink);
            token.bg = Some(bg);
            token.fg = Some(fg);
        }
        if piece.detail == Detail::Unstable {
            token.right = '?';
        }
    }
    for mark in &picture.marks {
        match *mark {
            Mark::Last(c) if c == cell => (token.left, token.right) = ('[', ']'),
            Mark::From(c) if c == cell => (token.left, token.right) = ('(', ')'),
            Mark::Changed(c) if c == cell && token.left == ' ' => token.left = '*',
            Mark::Removed(c, _) if c == cell && token.body.is_empty() => token.body.push('x'),
            _ => {}
        }
    }
    if token.body.is_empty() {
        token.body.push(if tone == Tone::Edge { ':' } else { '.' });
    }
    token.pad = width.saturating_sub(token.body.chars().count());
    token
}

fn paint(out: &mut String, token: &Token) {
    // Padding goes outside the marks: `[g] ` rather than `[g ]`.
    let text = format!(
        "{}{}{}{}",
        token.left,
        token.body,
        token.right,
        " ".repeat(token.pad)
    );
    match (token.bg, token.fg) {
        (Some(bg), Some(fg)) => {
            let bold = if token.left == '[' { "1;" } else { "" };
            out.push_str(&format!("\x1b[{bold}48;5;{bg};38;5;{fg}m{text}\x1b[0m"));
        }
        _ => out.push_str(&text),
    }
}

fn draw_square(out: &mut String, picture: &Picture, size: usize, colour: bool) {
    let width = body_width(picture);
    let stride = width + 2;
    for rank in (0..size).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..size {
            let cell = rank * size + file;
            match picture.cells.get(cell) {
                Some(c) if c.at == (file as i32, rank as i32) => {
                    paint(out, &token(picture, cell, width, colour))
                }
                _ => out.push_str(&" ".repeat(stride)),
            }
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str("    ");
    for file in 0..size {
        let name = crate::games::hexhex::column_name(file);
        out.push_str(&format!("{name:^stride$}"));
    }
    out.push('\n');
}

/// Rows from the top; cell (q, r) starts `2q - r + n - 1` half-strides in,
/// halfway between its two neighbours in the row below. Each row ends with
/// the names of its first and last cells (the columns run diagonally).
fn draw_hex(out: &mut String, picture: &Picture, side: usize, colour: bool) {
    let width = body_width(picture);
    // Tokens of 3 get a space between them; tokens of 4 touch.
    let stride = 4;
    let n = side as i32;
    let mut by_at = std::collections::HashMap::new();
    for (i, cell) in picture.cells.iter().enumerate() {
        by_at.insert(cell.at, i);
    }
    for r in (0..2 * n - 1).rev() {
        out.push_str(&format!("{:>3} ", r + 1));
        let mut column = 0;
        let mut names = Vec::new();
        for q in 0..2 * n - 1 {
            if (q - r).abs() > n - 1 {
                continue;
            }
            let x = ((2 * q - r + n - 1) * stride / 2) as usize;
            out.push_str(&" ".repeat(x.saturating_sub(column)));
            column = x.max(column);
            if let Some(&cell) = by_at.get(&(q, r)) {
                paint(out, &token(picture, cell, width, colour));
                names.push(picture.cells[cell].name.clone());
            } else {
                out.push_str(&" ".repeat(width + 2));
            }
            column += width + 2;
        }
        if let (Some(first), Some(last)) = (names.first(), names.last()) {
            out.push_str(&format!("   {first}..{last}"));
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_board_plain() {
        let mut picture = Picture::square("t".into(), 3);
        picture.add(Piece::new(0, Shape::Tile, Ink::Red, 'r'));
        picture.add(Piece::new(4, Shape::Tile, Ink::Blue, 'b'));
        picture.marks.push(Mark::Last(4));
        picture.note("red (p1) to move");
        let text = draw(&picture, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "t");
        assert_eq!(lines[1], "  3  .  .  .  3");
        assert_eq!(lines[2], "  2  . [b] .  2");
        assert_eq!(lines[3], "  1  r  .  .  1");
        assert_eq!(lines[4], "     a  b  c ");
        assert_eq!(lines[5], "red (p1) to move");
        assert_eq!(lines[6], "b blue tile, r red tile, [x] last move");
    }

    #[test]
    fn hex_rows_interleave() {
        let grid = crate::games::hexhex::grid(2, false);
        let mut picture = Picture::hexhex("t".into(), grid);
        let centre = picture.cell_named("b2").unwrap();
        picture.add(Piece::new(centre, Shape::Stone, Ink::Black, 'b'));
        let text = draw(&picture, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  3    .   .    b3..c3");
        assert_eq!(lines[2], "  2  .   b   .    a2..c2");
        assert_eq!(lines[3], "  1    .   .    a1..b1");
    }

    #[test]
    fn colour_uses_ansi_only_when_asked() {
        let mut picture = Picture::square("t".into(), 3);
        picture.add(Piece::new(0, Shape::Stone, Ink::White, 'w').with_label("2"));
        assert!(!draw(&picture, false).contains('\x1b'));
        let coloured = draw(&picture, true);
        assert!(coloured.contains("\x1b[48;5;255;38;5;16m 2 \x1b[0m"));
    }
}
