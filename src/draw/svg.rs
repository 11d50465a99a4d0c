//! Pictures as SVG: square boards as squares, hexhex boards as pointy-top
//! hexagons in horizontal rows, coordinates on the edges, the pieces with
//! their meaning (tiles, stones, eggs, flags, chain links, claimed
//! regions) and the last move marked.
//!
//! A drawing has two layers: the board (cells, coordinates, title), which
//! is the same for every position of a game, and the state (pieces, marks,
//! notes). [`render`] gives both as one document; the replay page draws
//! the board once and one state layer per ply, which keeps it small.

use crate::games::picture::{Board, Detail, Ink, Mark, Picture, Piece, Shape, Tone};
use std::fmt::Write;

/// The whole picture as a standalone SVG document.
pub fn render(picture: &Picture) -> String {
    let frame = Frame::new(picture, state_lines(picture));
    let mut svg = frame.open();
    svg.push_str(&frame.board(picture));
    svg.push_str(&frame.state(picture));
    svg.push_str("</svg>\n");
    svg
}

/// The picture as one SVG document on one line (for the protocol's
/// `d svg`, whose reply is a single `info string svg ...` line).
pub fn render_one_line(picture: &Picture) -> String {
    render(picture).replace('\n', "")
}

/// The number of text lines under the board the state layer uses.
pub fn state_lines(picture: &Picture) -> usize {
    text_lines(picture).len()
}

/// The lines under the board: the last move, the game's notes, and what
/// the symbols on this picture mean.
fn text_lines(picture: &Picture) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(last) = &picture.last_move {
        lines.push(format!("last move: {last}"));
    }
    lines.extend(picture.notes.iter().cloned());
    let mut legend = Vec::new();
    let has = |f: &dyn Fn(&Piece) -> bool| picture.pieces.iter().any(f);
    if has(&|p| p.shape == Shape::Egg) {
        legend.push("oval: an egg (a lone stone)");
    }
    if has(&|p| p.detail == Detail::End) {
        legend.push("dot: the end of a chain");
    }
    if has(&|p| p.detail == Detail::Unstable) {
        legend.push("dashed rim: to be removed");
    }
    if has(&|p| matches!(p.detail, Detail::Claimed(_))) {
        legend.push("rim: a region that colour controls");
    }
    let marked = |f: &dyn Fn(&Mark) -> bool| picture.marks.iter().any(f);
    if marked(&|m| matches!(m, Mark::Changed(_))) {
        legend.push("yellow dot: changed by the last move");
    }
    if marked(&|m| matches!(m, Mark::Removed(..))) {
        legend.push("cross: taken off by the last move");
    }
    if !legend.is_empty() {
        lines.push(legend.join("; "));
    }
    lines
}

const SQUARE: f64 = 44.0;
/// The circumradius of a hexagonal cell.
const HEX: f64 = 24.0;
const MARGIN: f64 = 12.0;
const TITLE: f64 = 26.0;
const LINE: f64 = 18.0;
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

const BOARD_FILL: &str = "#ecd6a4";
const EDGE_FILL: &str = "#d2b27a";
const GRID: &str = "#9c8156";
const LABEL: &str = "#5a4a32";
const HIGHLIGHT: &str = "#ffd400";
const OUTLINE: &str = "#3a2f20";

/// Fill, rim and the colour of text on a piece of each ink.
fn colours(ink: Ink) -> (&'static str, &'static str, &'static str) {
    match ink {
        Ink::Red => ("#d0342c", "#7d1712", "#ffffff"),
        Ink::Blue => ("#2d62c8", "#132f66", "#ffffff"),
        Ink::Green => ("#3d9a4a", "#1c4d23", "#ffffff"),
        Ink::Black => ("#26262a", "#000000", "#f4f4f4"),
        Ink::White => ("#f7f5ef", "#55514a", "#222222"),
    }
}

/// Where everything of one picture goes.
pub struct Frame {
    board: Board,
    /// Board units to pixels: a cell centre is `origin + position`.
    origin: (f64, f64),
    width: f64,
    height: f64,
    /// Where the first note line goes.
    notes_y: f64,
    /// Half the width of a cell, the scale of pieces.
    unit: f64,
}

impl Frame {
    /// The layout of `picture`, with room for `note_lines` lines of text.
    pub fn new(picture: &Picture, note_lines: usize) -> Frame {
        let board = picture.board.clone();
        let mut points: Vec<(f64, f64)> =
            picture.cells.iter().map(|c| centre(&board, c.at)).collect();
        points.extend(labels(picture).into_iter().map(|(_, p)| p));
        let reach = match board {
            Board::Square { .. } => SQUARE / 2.0,
            Board::Hex { .. } => HEX,
            Board::Text => 0.0,
        };
        let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        if let Some(&(x, y)) = points.first() {
            (x0, y0, x1, y1) = (x, y, x, y);
        }
        for &(x, y) in &points {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let (board_w, board_h) = if points.is_empty() {
            (0.0, 0.0)
        } else {
            (x1 - x0 + 2.0 * reach, y1 - y0 + 2.0 * reach)
        };
        let char_w = if matches!(board, Board::Text) {
            8.0
        } else {
            7.4
        };
        let widest_text = text_lines(picture)
            .iter()
            .map(|n| n.chars().count())
            .chain([picture.title.chars().count() + 4, 24])
            .max()
            .unwrap_or(0) as f64
            * char_w;
        let width = board_w.max(widest_text) + 2.0 * MARGIN;
        // Centre the board when the text is wider.
        let left = (width - board_w) / 2.0;
        let origin = (left + reach - x0, MARGIN + TITLE + reach - y0);
        let notes_y = MARGIN + TITLE + board_h + LINE;
        let height = notes_y + note_lines as f64 * LINE;
        Frame {
            unit: match board {
                Board::Square { .. } => SQUARE / 2.0,
                _ => HEX * 3f64.sqrt() / 2.0,
            },
            board,
            origin,
            width,
            height,
            notes_y,
        }
    }

    /// The drawing's natural width and height in pixels.
    pub fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    /// The opening `<svg>` tag.
    pub fn open(&self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
             width=\"{w}\" height=\"{h}\" font-family=\"{FONT}\">\n",
            w = num(self.width),
            h = num(self.height)
        )
    }

    fn at(&self, at: (i32, i32)) -> (f64, f64) {
        let (x, y) = centre(&self.board, at);
        (self.origin.0 + x, self.origin.1 + y)
    }

    /// The polygon points of a cell, shrunk by `inset` pixels.
    fn outline(&self, at: (i32, i32), inset: f64) -> String {
        let (x, y) = self.at(at);
        let corners: Vec<(f64, f64)> = match self.board {
            Board::Square { .. } => {
                let h = SQUARE / 2.0 - inset;
                vec![
                    (x - h, y - h),
                    (x + h, y - h),
                    (x + h, y + h),
                    (x - h, y + h),
                ]
            }
            _ => (0..6)
                .map(|k| {
                    let angle = (60.0 * k as f64 - 90.0).to_radians();
                    let r = HEX - inset;
                    (x + r * angle.cos(), y + r * angle.sin())
                })
                .collect(),
        };
        corners
            .iter()
            .map(|&(a, b)| format!("{},{}", num(a), num(b)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The board layer: title, cells and coordinates.
    pub fn board(&self, picture: &Picture) -> String {
        let mut out = String::from("<g class=\"board\">\n");
        let _ = writeln!(
            out,
            "<rect width=\"{}\" height=\"{}\" fill=\"#faf7f0\"/>",
            num(self.width),
            num(self.height)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">{}</text>",
            num(MARGIN),
            num(MARGIN + 14.0),
            escape(&picture.title)
        );
        for cell in &picture.cells {
            let fill = match cell.tone {
                Tone::Plain => BOARD_FILL,
                Tone::Edge => EDGE_FILL,
            };
            let _ = writeln!(
                out,
                "<polygon class=\"cell\" points=\"{}\" fill=\"{fill}\" stroke=\"{GRID}\" stroke-width=\"1\"/>",
                self.outline(cell.at, 0.0)
            );
        }
        for (text, (x, y)) in labels(picture) {
            let _ = writeln!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{LABEL}\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>",
                num(self.origin.0 + x),
                num(self.origin.1 + y),
                escape(&text)
            );
        }
        out.push_str("</g>\n");
        out
    }

    /// The state layer: links, pieces, marks and notes.
    pub fn state(&self, picture: &Picture) -> String {
        let mut out = String::from("<g class=\"state\">\n");
        for mark in &picture.marks {
            if let Mark::Removed(cell, ink) = *mark {
                self.removed(&mut out, picture, cell, ink);
            }
        }
        for link in &picture.links {
            let (Some(a), Some(b)) = (picture.cells.get(link.a), picture.cells.get(link.b)) else {
                continue;
            };
            let ((x0, y0), (x1, y1)) = (self.at(a.at), self.at(b.at));
            let (_, rim, _) = colours(link.ink);
            let (fill, _, _) = colours(link.ink);
            let w = self.unit * 0.55;
            let _ = writeln!(
                out,
                "<line class=\"link\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{rim}\" \
                 stroke-width=\"{}\" stroke-linecap=\"round\"/>\
                 <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{fill}\" \
                 stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                num(x0),
                num(y0),
                num(x1),
                num(y1),
                num(w + 3.0),
                num(x0),
                num(y0),
                num(x1),
                num(y1),
                num(w)
            );
        }
        for piece in &picture.pieces {
            if let Some(cell) = picture.cells.get(piece.cell) {
                self.piece(&mut out, piece, cell.at);
            }
        }
        for mark in &picture.marks {
            self.mark(&mut out, picture, *mark);
        }
        let mut y = self.notes_y;
        let lines = text_lines(picture);
        let text_board = matches!(self.board, Board::Text);
        for line in lines {
            let style = if text_board {
                " font-family=\"DejaVu Sans Mono, monospace\" xml:space=\"preserve\""
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<text class=\"note\" x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#222\"{style}>{}</text>",
                num(MARGIN),
                num(y),
                escape(&line)
            );
            y += LINE;
        }
        out.push_str("</g>\n");
        out
    }

    fn piece(&self, out: &mut String, piece: &Piece, at: (i32, i32)) {
        let (x, y) = self.at(at);
        let u = self.unit;
        let (fill, rim, ink_text) = colours(piece.ink);
        let class = format!("piece {:?} {}", piece.shape, piece.ink.name()).to_lowercase();
        match piece.shape {
            Shape::Stone | Shape::Egg => {
                let (rx, ry) = if piece.shape == Shape::Egg {
                    (0.62 * u, 0.8 * u)
                } else {
                    (0.8 * u, 0.8 * u)
                };
                let _ = writeln!(
                    out,
                    "<ellipse class=\"{class}\" cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"{fill}\" \
                     stroke=\"{rim}\" stroke-width=\"1.5\"/>",
                    num(x),
                    num(y),
                    num(rx),
                    num(ry)
                );
                // A soft shine makes stones read as stones.
                let _ = writeln!(
                    out,
                    "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.22\"/>",
                    num(x - 0.28 * rx),
                    num(y - 0.35 * ry),
                    num(0.38 * rx),
                    num(0.25 * ry)
                );
            }
            Shape::Tile => {
                let _ = writeln!(
                    out,
                    "<polygon class=\"{class}\" points=\"{}\" fill=\"{fill}\" stroke=\"{rim}\" \
                     stroke-width=\"1.5\" stroke-linejoin=\"round\"/>",
                    self.outline(at, 2.5)
                );
            }
            Shape::Flag => {
                // A dark flag gets a light outline: it stands on coloured tiles.
                let edge = if piece.ink == Ink::White {
                    OUTLINE
                } else {
                    "#f4f4f4"
                };
                let pole = x - 0.3 * u;
                let _ = writeln!(
                    out,
                    "<g class=\"{class}\" stroke=\"{edge}\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\
                     <line x1=\"{p}\" y1=\"{}\" x2=\"{p}\" y2=\"{}\" stroke-width=\"2.5\"/>\
                     <polygon points=\"{p},{} {},{} {p},{}\" fill=\"{fill}\" stroke-width=\"1.2\"/></g>",
                    num(y + 0.7 * u),
                    num(y - 0.8 * u),
                    num(y - 0.8 * u),
                    num(x + 0.85 * u),
                    num(y - 0.3 * u),
                    num(y + 0.2 * u),
                    p = num(pole)
                );
            }
        }
        match piece.detail {
            Detail::Plain => {}
            Detail::End => {
                let _ = writeln!(
                    out,
                    "<circle class=\"end\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{ink_text}\"/>",
                    num(x),
                    num(y),
                    num(0.22 * u)
                );
            }
            Detail::Unstable => {
                let _ = writeln!(
                    out,
                    "<circle class=\"unstable\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#c01818\" \
                     stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
                    num(x),
                    num(y),
                    num(0.95 * u)
                );
            }
            Detail::Claimed(owner) => {
                let (owner_fill, owner_rim, _) = colours(owner);
                let _ = writeln!(
                    out,
                    "<polygon class=\"claim {}\" points=\"{}\" fill=\"none\" stroke=\"{owner_rim}\" \
                     stroke-width=\"5\" stroke-linejoin=\"round\"/><polygon points=\"{}\" fill=\"none\" \
                     stroke=\"{owner_fill}\" stroke-width=\"3\" stroke-linejoin=\"round\"/>",
                    owner.name(),
                    self.outline(at, 6.0),
                    self.outline(at, 6.0)
                );
            }
        }
        if let Some(label) = &piece.label {
            let _ = writeln!(
                out,
                "<text class=\"label\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{ink_text}\" \
                 text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>",
                num(x),
                num(y),
                num(0.8 * u),
                escape(label)
            );
        }
    }

    fn mark(&self, out: &mut String, picture: &Picture, mark: Mark) {
        let at = |cell: usize| picture.cells.get(cell).map(|c| c.at);
        match mark {
            Mark::Last(cell) | Mark::From(cell) => {
                let Some(at) = at(cell) else { return };
                let dash = if matches!(mark, Mark::From(_)) {
                    " stroke-dasharray=\"5 4\""
                } else {
                    ""
                };
                let kind = if dash.is_empty() { "last" } else { "from" };
                let points = self.outline(at, 2.5);
                let _ = writeln!(
                    out,
                    "<polygon class=\"mark {kind}\" points=\"{points}\" fill=\"none\" stroke=\"{OUTLINE}\" \
                     stroke-width=\"5.5\" stroke-linejoin=\"round\"{dash}/><polygon points=\"{points}\" \
                     fill=\"none\" stroke=\"{HIGHLIGHT}\" stroke-width=\"3\" stroke-linejoin=\"round\"{dash}/>"
                );
            }
            Mark::Arrow(from, to) => {
                let (Some(a), Some(b)) = (at(from), at(to)) else {
                    return;
                };
                self.arrow(out, self.at(a), self.at(b));
            }
            Mark::Changed(cell) => {
                let Some(at) = at(cell) else { return };
                let (x, y) = self.at(at);
                let _ = writeln!(
                    out,
                    "<circle class=\"mark changed\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{HIGHLIGHT}\" \
                     stroke=\"{OUTLINE}\" stroke-width=\"1.5\"/>",
                    num(x + 0.62 * self.unit),
                    num(y - 0.62 * self.unit),
                    num(0.2 * self.unit)
                );
            }
            Mark::Removed(..) => {}
        }
    }

    /// A stone that the last move took off: a faint ghost with a cross.
    fn removed(&self, out: &mut String, picture: &Picture, cell: usize, ink: Ink) {
        let Some(c) = picture.cells.get(cell) else {
            return;
        };
        let (x, y) = self.at(c.at);
        let (fill, _, _) = colours(ink);
        let u = self.unit;
        let d = 0.3 * u;
        let _ = writeln!(
            out,
            "<g class=\"mark removed\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" fill-opacity=\"0.35\" \
             stroke=\"{OUTLINE}\" stroke-opacity=\"0.4\" stroke-dasharray=\"3 3\"/>\
             <path d=\"M{},{}L{},{}M{},{}L{},{}\" stroke=\"#c01818\" stroke-width=\"2.5\" \
             stroke-linecap=\"round\"/></g>",
            num(x),
            num(y),
            num(0.8 * u),
            num(x - d),
            num(y - d),
            num(x + d),
            num(y + d),
            num(x - d),
            num(y + d),
            num(x + d),
            num(y - d)
        );
    }

    fn arrow(&self, out: &mut String, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let length = (dx * dx + dy * dy).sqrt();
        if length < 1.0 {
            return;
        }
        let (ux, uy) = (dx / length, dy / length);
        let head = 0.6 * self.unit;
        // From the (now empty) start cell's centre to the rim of the piece
        // that arrived.
        let (sx, sy) = (x0, y0);
        let (tx, ty) = (x1 - ux * 0.8 * self.unit, y1 - uy * 0.8 * self.unit);
        let (bx, by) = (tx - ux * head, ty - uy * head);
        let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
        let _ = writeln!(
            out,
            "<g class=\"mark arrow\" stroke-linecap=\"round\" stroke-linejoin=\"round\" opacity=\"0.85\">\
             <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{OUTLINE}\" stroke-width=\"6\" stroke-opacity=\"0.6\"/>\
             <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{HIGHLIGHT}\" stroke-width=\"3\"/>\
             <polygon points=\"{},{} {},{} {},{}\" fill=\"{HIGHLIGHT}\" stroke=\"{OUTLINE}\" stroke-width=\"1.5\"/></g>",
            num(sx),
            num(sy),
            num(bx),
            num(by),
            num(sx),
            num(sy),
            num(bx),
            num(by),
            num(tx),
            num(ty),
            num(bx + px),
            num(by + py),
            num(bx - px),
            num(by - py)
        );
    }
}

/// A cell's centre in board units (before the frame's offset).
fn centre(board: &Board, (a, b): (i32, i32)) -> (f64, f64) {
    match *board {
        Board::Square { size } => (
            (a as f64 + 0.5) * SQUARE,
            (size as f64 - 0.5 - b as f64) * SQUARE,
        ),
        Board::Hex { .. } => {
            let w = HEX * 3f64.sqrt();
            (w * (a as f64 - b as f64 / 2.0), -1.5 * HEX * b as f64)
        }
        Board::Text => (0.0, 0.0),
    }
}

/// The coordinate labels and where they go, in board units. Square boards:
/// files below and above, ranks left and right. Hexhex boards (columns run
/// diagonally, up and to the left): each column's letter just past its
/// lowest cell (along the bottom and lower-right edges) and past the top
/// row; each row's number just before its first cell (along the two left
/// edges) and, for the upper rows, after its last (the upper-right edge).
fn labels(picture: &Picture) -> Vec<(String, (f64, f64))> {
    let mut out = Vec::new();
    match picture.board {
        Board::Square { size } => {
            let n = size as f64;
            let gap = 0.5 * SQUARE + 12.0;
            for file in 0..size {
                let x = (file as f64 + 0.5) * SQUARE;
                let name = crate::games::hexhex::column_name(file);
                out.push((name.clone(), (x, n * SQUARE - 0.5 * SQUARE + gap)));
                out.push((name, (x, 0.5 * SQUARE - gap)));
            }
            for rank in 0..size {
                let y = (n - 0.5 - rank as f64) * SQUARE;
                out.push(((rank + 1).to_string(), (0.5 * SQUARE - gap, y)));
                out.push(((rank + 1).to_string(), (n * SQUARE - 0.5 * SQUARE + gap, y)));
            }
        }
        Board::Hex { side } => {
            let n = side as i32;
            let last = 2 * n - 2;
            for q in 0..=last {
                let lowest = (q - (n - 1)).max(0);
                let name = crate::games::hexhex::column_name(q as usize);
                out.push((name.clone(), centre(&picture.board, (q, lowest - 1))));
                // Columns that reach the top row are named there too (the
                // others end on the upper-left edge, beside row numbers).
                if q >= n - 1 {
                    out.push((name, centre(&picture.board, (q, last + 1))));
                }
            }
            for r in 0..=last {
                let first = (r - (n - 1)).max(0);
                let final_q = (r + n - 1).min(last);
                let number = (r + 1).to_string();
                out.push((number.clone(), centre(&picture.board, (first - 1, r))));
                // The right end of a lower row is where a column letter
                // stands; its number goes on the left only.
                if r >= n - 1 {
                    out.push((number, centre(&picture.board, (final_q + 1, r))));
                }
            }
        }
        Board::Text => {}
    }
    out
}

/// A coordinate with at most one decimal.
fn num(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}")
    }
}

/// Text made safe inside XML elements and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.04), "2");
        assert_eq!(num(-1.26), "-1.3");
        assert_eq!(num(10.46), "10.5");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn a_game_without_a_picture_draws_its_text_board() {
        let svg = render(&Picture::text("t".into(), "a<b\n  c"));
        assert!(
            svg.contains("xml:space=\"preserve\">a&lt;b</text>"),
            "{svg}"
        );
        assert!(svg.contains(">  c</text>"), "{svg}");
        assert!(!svg.contains("class=\"cell\""));
    }

    #[test]
    fn hex_labels_do_not_collide() {
        let grid = crate::games::hexhex::grid(5, false);
        let picture = Picture::hexhex("t".into(), grid);
        let spots: Vec<(i64, i64)> = labels(&picture)
            .iter()
            .map(|(_, (x, y))| ((x * 10.0) as i64, (y * 10.0) as i64))
            .collect();
        let mut unique = spots.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), spots.len());
        // 9 + 5 column letters, 9 + 5 row numbers.
        assert_eq!(spots.len(), 9 + 5 + 9 + 5);
    }
}
