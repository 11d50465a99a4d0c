use quintet::cli::{parse, run};

fn main() {
    // Logs go to stderr only; stdout carries protocol lines alone.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    end_quietly_when_stdout_closes();
    if let Err(e) = parse(std::env::args_os()).and_then(run) {
        eprintln!("quintet: {e:#}");
        std::process::exit(2);
    }
}

/// `quintet solve ... | head`: once the reader of stdout has gone, the next
/// printed line fails (Rust ignores SIGPIPE). End then as a Unix tool ends
/// on SIGPIPE, with exit code 141 and no panic report. SIGPIPE itself stays
/// ignored: `quintet match` must outlive an engine that dies on its pipe.
fn end_quietly_when_stdout_closes() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("os error 32") {
            std::process::exit(141);
        }
        report(info);
    }));
}
