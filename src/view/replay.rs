//! One self-contained HTML page that replays a game: the board (inline
//! SVG) at every ply, first/previous/next/last buttons and arrow keys, a
//! clickable move list, and a graph of the engine's scores when the game
//! carries them. No network, no external scripts or fonts.

use super::game_record::{Mark, ReplayGame, describe_score};
use crate::draw::svg::{self, Frame, escape};
use crate::games::Seat;
use crate::games::picture::Picture;
use crate::search::Score;
use std::fmt::Write;

/// The positions of a game, one per ply (the start first), and who made
/// each move.
pub struct Positions {
    pub pictures: Vec<Picture>,
    pub movers: Vec<Seat>,
}

/// Replays the game with the rules; an illegal move is an error that says
/// which.
pub fn positions(game: &ReplayGame) -> Result<Positions, String> {
    let mut session = game.start_session()?;
    let mut pictures = vec![session.picture()];
    let mut movers = Vec::new();
    for (ply, mv) in game.all_moves().enumerate() {
        movers.push(session.side_to_move());
        session
            .play(mv)
            .map_err(|e| format!("ply {}: {e}", ply + 1))?;
        pictures.push(session.picture());
    }
    if let Some(claimed) = &game.final_text
        && !claimed.is_empty()
        && *claimed != session.position_text()
    {
        log::warn!(
            "the replayed final position differs from the record's: {} vs {claimed}",
            session.position_text()
        );
    }
    Ok(Positions { pictures, movers })
}

/// p1's expected score (0..1) from a score seen by `mover`: the logistic
/// curve the searchers map win rates through (400 points = 10:1 odds).
fn p1_share(score: Score, mover: Seat) -> f64 {
    let own = match score {
        Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0)),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    };
    if mover == Seat::P1 { own } else { 1.0 - own }
}

/// The whole page.
pub fn page(game: &ReplayGame, positions: &Positions) -> String {
    let first = &positions.pictures[0];
    let lines = positions
        .pictures
        .iter()
        .map(svg::state_lines)
        .max()
        .unwrap_or(0);
    let frame = Frame::new(first, lines);
    let describe = &first.title;
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} - {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&game.title),
        escape(describe)
    );
    let _ = writeln!(
        html,
        "<header><h1>{}</h1><p class=\"sub\">{}{}</p></header>",
        escape(&game.title),
        escape(describe),
        game.result
            .as_ref()
            .map(|r| format!(" &middot; result: {}", escape(r)))
            .unwrap_or_default()
    );
    html.push_str("<main>\n<section class=\"board\">\n");
    // One SVG: the board once, then one state layer per ply.
    // Small boards are drawn larger, up to 1.6 times, big ones as they are.
    let width = frame.size().0;
    let shown = (width * (560.0 / width).clamp(1.0, 1.6)).round();
    html.push_str(&frame.open().replacen(
        "<svg ",
        &format!("<svg id=\"board\" style=\"width:{shown}px\" "),
        1,
    ));
    html.push_str(&frame.board(first));
    for (ply, picture) in positions.pictures.iter().enumerate() {
        let hidden = if ply == 0 {
            ""
        } else {
            " style=\"display:none\""
        };
        let _ = writeln!(html, "<g class=\"ply\" data-ply=\"{ply}\"{hidden}>");
        html.push_str(&frame.state(picture));
        html.push_str("</g>\n");
    }
    html.push_str("</svg>\n");
    html.push_str("</section>\n<aside>\n");
    let last = positions.pictures.len() - 1;
    let _ = writeln!(
        html,
        "<nav><button id=\"first\" title=\"first (Home)\">|&#x25C0;</button>\
         <button id=\"prev\" title=\"previous (&larr;)\">&#x25C0;</button>\
         <button id=\"next\" title=\"next (&rarr;)\">&#x25B6;</button>\
         <button id=\"last\" title=\"last (End)\">&#x25B6;|</button>\
         <span id=\"counter\">ply 0 / {last}</span></nav>"
    );
    if game.has_scores() {
        html.push_str(&score_graph(game, positions));
    }
    html.push_str(&move_list(game, positions));
    let _ = writeln!(
        html,
        "<p class=\"help\">Keys: &larr; &rarr; step, Home / End jump. Players: p1 {}, p2 {}.</p>",
        escape(&game.players[0]),
        escape(&game.players[1])
    );
    html.push_str("</aside>\n</main>\n");
    let _ = write!(html, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    html
}

fn move_list(game: &ReplayGame, positions: &Positions) -> String {
    let mut html = String::from("<ol id=\"moves\">\n");
    html.push_str(
        "<li class=\"start\"><button class=\"mv current\" data-ply=\"0\">start</button></li>\n",
    );
    let opening = game.opening.len();
    for (i, mv) in game.all_moves().enumerate() {
        let ply = i + 1;
        let mover = positions.movers[i];
        let mut class = String::from("mv");
        if i < opening {
            class.push_str(" opening");
        }
        let mut extra = String::new();
        let mut mark = String::new();
        let mut item = String::new();
        if let Some(note) = i.checked_sub(opening).map(|k| &game.moves[k]) {
            if let Some(m) = &note.mark {
                let kind = mark_class(m);
                item = format!(" class=\"{kind}\"");
                let _ = write!(
                    mark,
                    "<span class=\"mark {kind}\" title=\"{}\">{}</span>",
                    escape(&m.comment),
                    escape(m.symbol)
                );
            }
            if let Some(score) = note.score {
                let _ = write!(
                    extra,
                    " <span class=\"score\" title=\"the mover's score before the move\">{}</span>",
                    describe_score(score)
                );
            }
            if let Some(best) = note.best.as_ref().filter(|b| **b != note.text) {
                let _ = write!(extra, " <span class=\"best\">best: {}</span>", escape(best));
            }
            if let Some(m) = &note.mark {
                let _ = write!(extra, " <span class=\"why\">{}</span>", escape(&m.comment));
            }
        }
        if i == opening && opening > 0 {
            html.push_str("<li class=\"divider\">game</li>\n");
        }
        let _ = writeln!(
            html,
            "<li{item}><button class=\"{class}\" data-ply=\"{ply}\"><span class=\"n\">{ply}.</span> \
             <span class=\"seat\">{}</span> {}{mark}</button>{extra}</li>",
            mover.name(),
            escape(mv)
        );
    }
    html.push_str("</ol>\n");
    html
}

/// The CSS class of a mark: `blunder` for `??`, else `mistake`.
fn mark_class(mark: &Mark) -> &'static str {
    if mark.symbol == "??" {
        "blunder"
    } else {
        "mistake"
    }
}

/// p1's expected score after each scored move, as a line over the plies,
/// with a marker at the current ply; points are clickable.
fn score_graph(game: &ReplayGame, positions: &Positions) -> String {
    let (width, height, pad) = (360.0, 120.0, 10.0);
    let plies = positions.pictures.len().saturating_sub(1).max(1) as f64;
    let x = |ply: usize| pad + (width - 2.0 * pad) * ply as f64 / plies;
    let y = |share: f64| pad + (height - 2.0 * pad) * (1.0 - share);
    let opening = game.opening.len();
    let points: Vec<(usize, f64, Option<&Mark>)> = game
        .moves
        .iter()
        .enumerate()
        .filter_map(|(k, note)| {
            let ply = opening + k + 1;
            note.score.map(|s| {
                let share = p1_share(s, positions.movers[ply - 1]);
                (ply, share, note.mark.as_ref())
            })
        })
        .collect();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<figure class=\"graph\"><svg id=\"scores\" xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"none\" role=\"img\" \
         aria-label=\"p1's expected score per ply\">"
    );
    let _ = writeln!(
        svg,
        "<rect x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{}\" fill=\"#f3efe6\" stroke=\"#c9bfa9\"/>\
         <line x1=\"{pad}\" x2=\"{}\" y1=\"{mid:.1}\" y2=\"{mid:.1}\" stroke=\"#b0a58e\" stroke-dasharray=\"4 4\"/>",
        width - 2.0 * pad,
        height - 2.0 * pad,
        width - pad,
        mid = y(0.5)
    );
    if let (Some(&(first, ..)), Some(&(last, ..))) = (points.first(), points.last()) {
        let line: Vec<String> = points
            .iter()
            .map(|&(ply, share, _)| format!("{:.1},{:.1}", x(ply), y(share)))
            .collect();
        let _ = writeln!(
            svg,
            "<polygon points=\"{:.1},{mid:.1} {} {:.1},{mid:.1}\" fill=\"#2d62c8\" fill-opacity=\"0.15\"/>\
             <polyline class=\"score-line\" points=\"{}\" fill=\"none\" stroke=\"#2d62c8\" stroke-width=\"2\" \
             vector-effect=\"non-scaling-stroke\"/>",
            x(first),
            line.join(" "),
            x(last),
            line.join(" "),
            mid = y(0.5)
        );
    }
    for &(ply, share, mark) in &points {
        // A marked move's point is red and larger, named in its tooltip.
        let (class, fill, r, why) = match mark {
            Some(m) => (
                format!("pt {}", mark_class(m)),
                "#d0342c",
                5.0,
                format!(" {} {}", m.symbol, m.comment),
            ),
            None => ("pt".to_string(), "#2d62c8", 3.5, String::new()),
        };
        let _ = writeln!(
            svg,
            "<circle class=\"{class}\" data-ply=\"{ply}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\" fill=\"{fill}\"><title>ply {ply}: p1 {:.0}%{}</title></circle>",
            x(ply),
            y(share),
            share * 100.0,
            escape(&why)
        );
    }
    let _ = writeln!(
        svg,
        "<line id=\"cursor\" x1=\"{pad}\" x2=\"{pad}\" y1=\"{pad}\" y2=\"{}\" stroke=\"#d0342c\" stroke-width=\"2\" \
         vector-effect=\"non-scaling-stroke\"/></svg>\
         <figcaption>the engines' view: above the line p1 ({}) stands better, below p2 ({})</figcaption></figure>",
        height - pad,
        escape(&game.players[0]),
        escape(&game.players[1])
    );
    let _ = writeln!(
        svg,
        "<script>const GRAPH = {{pad: {pad}, width: {width}, plies: {plies}}};</script>"
    );
    svg
}

const STYLE: &str = r#"
body { margin: 0; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; background: #faf7f0; color: #222; }
header { padding: 10px 18px 4px; }
h1 { font-size: 20px; margin: 0; }
.sub { margin: 4px 0 0; color: #555; }
main { display: flex; gap: 18px; padding: 8px 18px 18px; align-items: flex-start; }
@media (max-width: 800px) { main { flex-wrap: wrap; } }
.board { flex: 0 1 auto; min-width: 0; }
.board svg#board { max-width: 100%; max-height: calc(100vh - 90px); height: auto; display: block; }
aside { flex: 0 1 380px; min-width: 260px; }
nav { display: flex; gap: 6px; align-items: center; margin-bottom: 8px; }
nav button { font-size: 18px; padding: 4px 10px; cursor: pointer; border: 1px solid #9c8156; background: #ecd6a4; border-radius: 4px; }
nav button:hover { background: #f4e4bd; }
#counter { margin-left: 8px; font-variant-numeric: tabular-nums; }
#moves { position: relative; list-style: none; padding: 0; margin: 0; max-height: 60vh; overflow-y: auto; border: 1px solid #ddd2bb; background: #fff; }
#moves li { padding: 1px 4px; }
#moves li.divider { color: #888; font-size: 12px; border-top: 1px solid #ddd2bb; margin-top: 2px; }
.mv { border: none; background: none; font: inherit; cursor: pointer; padding: 2px 6px; border-radius: 3px; }
.mv:hover { background: #f4e4bd; }
.mv.current { background: #ffd400; font-weight: bold; }
.mv.opening { color: #777; font-style: italic; }
.n { color: #888; display: inline-block; min-width: 2.5em; text-align: right; }
.seat { color: #666; font-size: 12px; }
.score { color: #2d62c8; font-size: 12px; }
.best { color: #a0522d; font-size: 12px; }
#moves li.mistake { background: #fdf0d8; }
#moves li.blunder { background: #fbdcd8; }
.mark { color: #d0342c; font-weight: bold; margin-left: 2px; }
.why { color: #b03a2e; font-size: 12px; }
.graph { margin: 0 0 8px; }
.graph svg { width: 100%; height: 120px; display: block; }
.graph .pt { cursor: pointer; }
figcaption { font-size: 12px; color: #555; }
.help { font-size: 12px; color: #666; }
"#;

const SCRIPT: &str = r#"
(function () {
  const plies = Array.from(document.querySelectorAll('#board g.ply'));
  const buttons = Array.from(document.querySelectorAll('#moves .mv'));
  const counter = document.getElementById('counter');
  const cursor = document.getElementById('cursor');
  const last = plies.length - 1;
  const list = document.getElementById('moves');
  let current = 0;
  // Scrolls the move list (only it, not the page) to show an entry.
  function reveal(item) {
    const top = item.offsetTop;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + item.offsetHeight - list.clientHeight;
    }
  }
  function show(ply) {
    ply = Math.max(0, Math.min(last, ply));
    plies[current].style.display = 'none';
    plies[ply].style.display = '';
    buttons.forEach(b => b.classList.toggle('current', Number(b.dataset.ply) === ply));
    const active = buttons.find(b => Number(b.dataset.ply) === ply);
    if (active) reveal(active.parentElement);
    counter.textContent = 'ply ' + ply + ' / ' + last;
    if (cursor && typeof GRAPH !== 'undefined') {
      const x = GRAPH.pad + (GRAPH.width - 2 * GRAPH.pad) * ply / GRAPH.plies;
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
    current = ply;
    try { history.replaceState(null, '', '#ply=' + ply); } catch (e) { /* file: pages may refuse */ }
  }
  document.getElementById('first').onclick = () => show(0);
  document.getElementById('prev').onclick = () => show(current - 1);
  document.getElementById('next').onclick = () => show(current + 1);
  document.getElementById('last').onclick = () => show(last);
  buttons.forEach(b => b.onclick = () => show(Number(b.dataset.ply)));
  document.querySelectorAll('#scores .pt').forEach(p => p.onclick = () => show(Number(p.dataset.ply)));
  document.addEventListener('keydown', e => {
    const keys = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last};
    if (e.key in keys) { show(keys[e.key]); e.preventDefault(); }
  });
  const start = /#ply=(\d+)/.exec(location.hash);
  show(start ? Number(start[1]) : 0);
})();
"#;
