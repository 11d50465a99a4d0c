//! A game-neutral description of a position to draw: the board's cells,
//! the pieces on them with their meaning in the game, links between pieces,
//! marks of the last move and a few lines of text. A game describes its
//! position in these terms ([`super::Game::picture`]); `view` draws it (SVG,
//! terminal) without knowing the game.

use super::hexhex::HexGrid;
use super::square;
use super::{Outcome, Seat};

/// The geometry of the board; a cell's `at` is read in its terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Board {
    /// `size x size` squares; `at` = (file, rank), `a1` = (0, 0) bottom-left.
    Square { size: usize },
    /// A hexhex board of side `side` drawn with pointy-top hexagons in
    /// horizontal rows; `at` = axial (q, r), row `r` above row `r - 1`.
    Hex { side: usize },
    /// No board geometry (a game without its own picture): the notes carry
    /// the position as text.
    Text,
}

/// One cell of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Its name in the game's notation, e.g. `c3`.
    pub name: String,
    pub at: (i32, i32),
    pub tone: Tone,
}

/// The background of a cell where the rules treat cells differently.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// An edge cell with rules of its own (Nadraz).
    Edge,
}

/// The colours pieces come in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ink {
    Red,
    Blue,
    Green,
    Black,
    White,
}

impl Ink {
    pub fn name(self) -> &'static str {
        match self {
            Ink::Red => "red",
            Ink::Blue => "blue",
            Ink::Green => "green",
            Ink::Black => "black",
            Ink::White => "white",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A round stone or atom.
    Stone,
    /// A single stone that the rules call an egg (drawn oval).
    Egg,
    /// A tile covering the cell (square or hexagonal like the cell).
    Tile,
    /// A small flag standing on whatever else is on the cell.
    Flag,
}

/// What else the rules say about a piece, drawn on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    Plain,
    /// The end of a chain (a head or tail): a dot in the middle.
    End,
    /// Will be removed by the rules unless something changes (dashed rim).
    Unstable,
    /// Part of a region a player controls: a rim in that player's ink.
    Claimed(Ink),
}

/// A piece on a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Index into [`Picture::cells`].
    pub cell: usize,
    pub shape: Shape,
    pub ink: Ink,
    pub detail: Detail,
    /// A short text drawn on the piece (a count).
    pub label: Option<String>,
    /// The letter the game uses for this piece in plain text.
    pub glyph: char,
}

impl Piece {
    pub fn new(cell: usize, shape: Shape, ink: Ink, glyph: char) -> Piece {
        Piece {
            cell,
            shape,
            ink,
            detail: Detail::Plain,
            label: None,
            glyph,
        }
    }

    pub fn with_detail(mut self, detail: Detail) -> Piece {
        self.detail = detail;
        self
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Piece {
        self.label = Some(label.into());
        self
    }
}

/// A line joining two pieces that belong together (a snake's body).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    pub ink: Ink,
}

/// Marks of the last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A cell the last move names (placed on, moved to).
    Last(usize),
    /// Where a moving piece started.
    From(usize),
    /// The direction of a movement, from one cell to another.
    Arrow(usize, usize),
    /// A cell whose pieces the last move changed (flipped, placed along a line).
    Changed(usize),
    /// A cell whose piece of this ink the last move removed.
    Removed(usize, Ink),
}

impl Mark {
    pub fn cell(self) -> usize {
        match self {
            Mark::Last(c) | Mark::From(c) | Mark::Changed(c) | Mark::Removed(c, _) => c,
            Mark::Arrow(_, to) => to,
        }
    }
}

/// A position as a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The game and its parameters, e.g. `hadron size=5`.
    pub title: String,
    pub board: Board,
    pub cells: Vec<Cell>,
    pub pieces: Vec<Piece>,
    pub links: Vec<Link>,
    pub marks: Vec<Mark>,
    /// Short lines under the board: whose turn, counts in hand, scores.
    pub notes: Vec<String>,
    /// The last move's text, when the picture knows it.
    pub last_move: Option<String>,
}

impl Picture {
    fn empty(title: String, board: Board) -> Picture {
        Picture {
            title,
            board,
            cells: Vec::new(),
            pieces: Vec::new(),
            links: Vec::new(),
            marks: Vec::new(),
            notes: Vec::new(),
            last_move: None,
        }
    }

    /// An empty square board; cell `rank * size + file` is (file, rank).
    pub fn square(title: String, size: usize) -> Picture {
        let mut picture = Picture::empty(title, Board::Square { size });
        for rank in 0..size {
            for file in 0..size {
                picture.cells.push(Cell {
                    name: square::format_cell(file, rank),
                    at: (file as i32, rank as i32),
                    tone: Tone::Plain,
                });
            }
        }
        picture
    }

    /// An empty hexhex board with the grid's cells, in the grid's order
    /// (cell `i` of the picture is cell id `i` of the grid).
    pub fn hexhex(title: String, grid: &HexGrid) -> Picture {
        let mut picture = Picture::empty(title, Board::Hex { side: grid.side });
        for id in 0..grid.len() {
            picture.cells.push(Cell {
                name: grid.cell_name(id as u16),
                at: grid.coords[id],
                tone: Tone::Plain,
            });
        }
        picture
    }

    /// A picture of a game that draws itself only as text.
    pub fn text(title: String, text: &str) -> Picture {
        let mut picture = Picture::empty(title, Board::Text);
        picture.notes = text.lines().map(str::to_string).collect();
        picture
    }

    pub fn add(&mut self, piece: Piece) {
        self.pieces.push(piece);
    }

    pub fn note(&mut self, line: impl Into<String>) {
        self.notes.push(line.into());
    }

    /// The index of the cell with this name (case-insensitive).
    pub fn cell_named(&self, name: &str) -> Option<usize> {
        self.cells
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The pieces on a cell, in drawing order.
    pub fn pieces_on(&self, cell: usize) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.cell == cell)
    }

    /// The inks on each cell (sorted), to compare two positions by.
    fn inks_by_cell(&self) -> Vec<Vec<Ink>> {
        let mut inks = vec![Vec::new(); self.cells.len()];
        for piece in &self.pieces {
            if let Some(list) = inks.get_mut(piece.cell) {
                list.push(piece.ink);
            }
        }
        for list in &mut inks {
            list.sort();
        }
        inks
    }

    /// Marks the move `text`, played from the position `before` shows:
    /// the cells its text names (a movement `d4e5` gets an arrow), and
    /// every other cell whose pieces it changed or removed. Reads only the
    /// shared notation of the rules (cells are letters then digits; a
    /// movement concatenates two cells; `+` joins placements; `X@` drops).
    pub fn mark_move(&mut self, text: &str, before: &Picture) {
        self.last_move = Some(text.to_string());
        let mut named = Vec::new();
        for part in text.split('+') {
            let cells = move_cells(part);
            let ids: Vec<usize> = cells.iter().filter_map(|c| self.cell_named(c)).collect();
            if ids.len() == cells.len() && ids.len() == 2 {
                self.marks.push(Mark::From(ids[0]));
                self.marks.push(Mark::Arrow(ids[0], ids[1]));
                self.marks.push(Mark::Last(ids[1]));
            } else {
                self.marks.extend(ids.iter().map(|&c| Mark::Last(c)));
            }
            named.extend(ids);
        }
        if before.cells.len() != self.cells.len() {
            return;
        }
        let (old, new) = (before.inks_by_cell(), self.inks_by_cell());
        for cell in 0..self.cells.len() {
            if named.contains(&cell) || old[cell] == new[cell] {
                continue;
            }
            if new[cell].is_empty() {
                for &ink in &old[cell] {
                    self.marks.push(Mark::Removed(cell, ink));
                }
            } else {
                self.marks.push(Mark::Changed(cell));
            }
        }
    }
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Stone => "stone",
            Shape::Egg => "egg",
            Shape::Tile => "tile",
            Shape::Flag => "flag",
        }
    }
}

/// The line saying whose turn it is or how the game ended, with the
/// game's own names of the seats (`names[0]` is p1's), e.g.
/// `red (p1) to move`, `blue (p2) wins`.
pub fn turn_note(outcome: Option<Outcome>, to_move: Seat, names: [&str; 2]) -> String {
    let seat = |s: Seat| format!("{} ({})", names[s.index()], s.name());
    match outcome {
        None => format!("{} to move", seat(to_move)),
        Some(Outcome::Win(winner)) => format!("{} wins", seat(winner)),
        Some(Outcome::Draw) => "draw".to_string(),
    }
}

/// The cell names in one placement or movement text: `d4e5` -> d4, e5;
/// `R@c3` -> c3; `pass` -> none.
fn move_cells(text: &str) -> Vec<&str> {
    let body = text.rsplit('@').next().unwrap_or("");
    let mut cells = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let letters = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let digits = rest[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| letters + i);
        if letters == 0 || digits == letters {
            return Vec::new();
        }
        cells.push(&rest[..digits]);
        rest = &rest[digits..];
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts_name_their_cells() {
        assert_eq!(move_cells("c3"), vec!["c3"]);
        assert_eq!(move_cells("d4e5"), vec!["d4", "e5"]);
        assert_eq!(move_cells("aa12b3"), vec!["aa12", "b3"]);
        assert_eq!(move_cells("R@c3"), vec!["c3"]);
        assert!(move_cells("pass").is_empty());
        assert!(move_cells("black").is_empty());
        assert!(move_cells("").is_empty());
    }

    #[test]
    fn marks_name_cells_arrows_and_removals() {
        let mut before = Picture::square("t".into(), 3);
        before.add(Piece::new(0, Shape::Stone, Ink::Red, 'r'));
        before.add(Piece::new(4, Shape::Stone, Ink::Blue, 'b'));
        before.add(Piece::new(8, Shape::Stone, Ink::Blue, 'b'));
        // a1 (0) moves to a2 (3); b2 (4) is removed; c3 (8) turns red.
        let mut after = Picture::square("t".into(), 3);
        after.add(Piece::new(3, Shape::Stone, Ink::Red, 'r'));
        after.add(Piece::new(8, Shape::Stone, Ink::Red, 'r'));
        after.mark_move("a1a2", &before);
        assert_eq!(
            after.marks,
            vec![
                Mark::From(0),
                Mark::Arrow(0, 3),
                Mark::Last(3),
                Mark::Removed(4, Ink::Blue),
                Mark::Changed(8)
            ]
        );
        let mut placed = before.clone();
        placed.add(Piece::new(1, Shape::Stone, Ink::Red, 'r'));
        placed.mark_move("B@b1+W@c1", &before);
        assert_eq!(placed.marks, vec![Mark::Last(1), Mark::Last(2)]);
        assert_eq!(placed.last_move.as_deref(), Some("B@b1+W@c1"));
    }
}
