use clap::Parser;
use quintet::cli::{Cli, run};

fn main() {
    // Logs go to stderr only; stdout carries protocol lines alone.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    if let Err(e) = run(Cli::parse()) {
        eprintln!("quintet: {e:#}");
        std::process::exit(2);
    }
}
