//! Square-board coordinates shared by Hadron and Atoms: chess notation
//! (`a1` bottom-left), and the run-length rank text of their positions.

/// Reads `c3`-style cell text: file letters then a rank number (1-based).
/// Returns zero-based (file, rank), or None if malformed or off an n x n board.
pub fn parse_cell(text: &str, n: usize) -> Option<(usize, usize)> {
    let (file, rank) = super::hexhex::parse_letters_digits(text)?;
    (file < n && rank < n).then_some((file, rank))
}

/// The text of a zero-based (file, rank).
pub fn format_cell(file: usize, rank: usize) -> String {
    format!("{}{}", super::hexhex::column_name(file), rank + 1)
}

/// Board rows as run-length text: `rows` lists ranks top first, each a list
/// of cell characters with `None` for empty; empties become decimal runs.
pub fn encode_rows(rows: &[Vec<Option<char>>]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empties = 0;
        for cell in row {
            match cell {
                None => empties += 1,
                Some(c) => {
                    if empties > 0 {
                        out.push_str(&empties.to_string());
                        empties = 0;
                    }
                    out.push(*c);
                }
            }
        }
        if empties > 0 {
            out.push_str(&empties.to_string());
        }
    }
    out
}

/// The inverse of `encode_rows`: each row's cells, `None` for empty. Checks
/// only the syntax; the caller checks the row lengths it expects.
pub fn decode_rows(text: &str) -> Result<Vec<Vec<Option<char>>>, String> {
    let mut rows = Vec::new();
    for row_text in text.split('/') {
        let mut row = Vec::new();
        let mut digits = String::new();
        for c in row_text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                row.extend(std::iter::repeat_n(None, parse_run(&digits)?));
                digits.clear();
            }
            row.push(Some(c.to_ascii_lowercase()));
        }
        if !digits.is_empty() {
            row.extend(std::iter::repeat_n(None, parse_run(&digits)?));
        }
        rows.push(row);
    }
    Ok(rows)
}

fn parse_run(digits: &str) -> Result<usize, String> {
    match digits.parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n),
        _ => Err(format!("bad run of empty cells '{digits}'")),
    }
}

/// The 8 symmetries of a square board (the dihedral group): symmetry
/// `sym` in 0..8 mirrors the files when `sym >= 4`, then turns the board a
/// quarter `sym % 4` times. Returns the image of zero-based (file, rank).
pub fn transform(n: usize, file: usize, rank: usize, sym: usize) -> (usize, usize) {
    let (mut f, mut r) = if sym >= 4 {
        (n - 1 - file, rank)
    } else {
        (file, rank)
    };
    for _ in 0..sym % 4 {
        (f, r) = (r, n - 1 - f);
    }
    (f, r)
}

/// Draws an n x n board: `cell(file, rank)` gives each cell's character.
pub fn render_board(n: usize, cell: impl Fn(usize, usize) -> char) -> String {
    let mut out = String::new();
    for rank in (0..n).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..n {
            out.push(' ');
            out.push(cell(file, rank));
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..n {
        out.push(' ');
        out.push_str(&super::hexhex::column_name(file));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        assert_eq!(parse_cell("a1", 5), Some((0, 0)));
        assert_eq!(parse_cell("E5", 5), Some((4, 4)));
        assert_eq!(parse_cell("f1", 5), None);
        assert_eq!(parse_cell("a0", 5), None);
        assert_eq!(parse_cell("a", 5), None);
        assert_eq!(parse_cell("1a", 5), None);
        assert_eq!(format_cell(15, 15), "p16");
        assert_eq!(parse_cell("p16", 16), Some((15, 15)));
    }

    #[test]
    fn the_eight_symmetries_are_distinct_isometries() {
        let n = 5;
        let mut images = Vec::new();
        for sym in 0..8 {
            let image: Vec<(usize, usize)> = (0..n * n)
                .map(|c| transform(n, c % n, c / n, sym))
                .collect();
            // A bijection that keeps orthogonal neighbours neighbours.
            let mut sorted = image.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), n * n);
            for c in 0..n * n {
                if c % n + 1 < n {
                    let (a, b) = (image[c], image[c + 1]);
                    assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1);
                }
            }
            images.push(image);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        assert_eq!(transform(n, 1, 2, 0), (1, 2));
    }

    #[test]
    fn rows_round_trip() {
        let rows = vec![
            vec![None, Some('r'), None, None],
            vec![None; 4],
            vec![Some('b'); 4],
        ];
        let text = encode_rows(&rows);
        assert_eq!(text, "1r2/4/bbbb");
        assert_eq!(decode_rows(&text).unwrap(), rows);
        assert!(decode_rows("0r").is_err());
    }
}
