//! The UGI protocol (the UCI-like text protocol of cutegames, plus our
//! extensions). The loop runs on any `BufRead` and any `Write`: a reader
//! thread forwards input lines, so `isready` and `stop` are answered while
//! a search runs on its own thread.

pub mod command;
pub mod driver;
pub mod format;
pub mod options;

use driver::{Driver, Flow};
use options::Options;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

/// Where protocol lines go; shared by the loop and the search thread, one
/// whole line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    pub fn line(&self, text: &str) {
        log::debug!(">> {text}");
        let mut writer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output means the other side has gone; nothing to do.
        let _ = writeln!(writer, "{text}").and_then(|_| writer.flush());
    }
}

/// Runs the UGI loop until `quit` or the end of input, starting with
/// `options` (the command line's).
pub fn run<R: BufRead + Send + 'static>(mut input: R, output: Output, options: Options) {
    let (lines, received) = mpsc::channel::<String>();
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match input.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    // Bytes that are not UTF-8 still make a line (and an error reply).
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).into_owned();
                        if lines.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("spawn the input thread");
    let mut driver = Driver::new(output, options);
    while let Ok(line) = received.recv() {
        log::debug!("<< {}", line.trim_end());
        if driver.handle(&line) == Flow::Quit {
            break;
        }
    }
    driver.finish();
}
