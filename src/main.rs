use quintet::cli::{parse, run};

fn main() {
    // Logs go to stderr only; stdout carries protocol lines alone.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    if let Err(e) = parse(std::env::args_os()).and_then(run) {
        eprintln!("quintet: {e:#}");
        std::process::exit(2);
    }
}
