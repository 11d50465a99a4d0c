//! An in-process driver's output, line by line: a `Write` that hands every
//! complete line to a channel (shared by the in-process protocol tests).

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};

pub struct LineSink {
    buffer: Vec<u8>,
    lines: Sender<String>,
}

impl LineSink {
    /// A sink and the receiving end of its lines.
    pub fn new() -> (LineSink, Receiver<String>) {
        let (lines, receiver) = channel();
        let sink = LineSink {
            buffer: Vec::new(),
            lines,
        };
        (sink, receiver)
    }
}

impl Write for LineSink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(data);
        while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            let text = String::from_utf8(line[..end].to_vec()).expect("output is UTF-8");
            let _ = self.lines.send(text);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
