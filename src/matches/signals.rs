//! Ctrl-C, SIGTERM and SIGHUP, and process-group signals, through libc,
//! declared here (no new dependency). The handler only records the signal
//! in an atomic that the match loop polls, so all three stop a match the
//! same way (finished games counted, summary printed, engines ended); a
//! second signal exits at once, for a wind-down that hangs.

use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, Ordering};

const SIGHUP: c_int = 1;
const SIGINT: c_int = 2;
const SIGKILL: c_int = 9;
const SIGTERM: c_int = 15;

unsafe extern "C" {
    fn signal(signum: c_int, handler: extern "C" fn(c_int)) -> usize;
    fn kill(pid: c_int, sig: c_int) -> c_int;
    fn _exit(status: c_int) -> !;
}

/// The first stopping signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(signum: c_int) {
    // Only async-signal-safe work here: an atomic swap and _exit.
    if RECEIVED.swap(signum, Ordering::SeqCst) != 0 {
        unsafe { _exit(128 + signum) };
    }
}

/// Routes SIGINT, SIGTERM and SIGHUP to the flag read by [`interrupted`].
pub fn install_interrupt_handler() {
    // SAFETY: the handler is a plain function that only touches an atomic
    // and calls _exit, both allowed in a signal handler.
    unsafe {
        for signum in [SIGINT, SIGTERM, SIGHUP] {
            signal(signum, on_signal);
        }
    }
}

/// A signal that stops a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stop(c_int);

impl Stop {
    /// How a person calls it.
    pub fn name(self) -> &'static str {
        match self.0 {
            SIGINT => "Ctrl-C",
            SIGTERM => "SIGTERM",
            SIGHUP => "SIGHUP",
            _ => "a signal",
        }
    }

    /// The conventional exit status after it: 128 + the signal number.
    pub fn exit_status(self) -> i32 {
        128 + self.0
    }
}

/// The stopping signal received since the handler was installed, if any.
pub fn interrupted() -> Option<Stop> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signum => Some(Stop(signum)),
    }
}

/// Kills every process of the process group `group` (an engine started as
/// the leader of its own group, with whatever it started itself).
pub fn kill_group(group: u32) {
    let Ok(group) = c_int::try_from(group) else {
        return;
    };
    if group > 1 {
        // SAFETY: kill takes plain integers; a group that is gone gives ESRCH.
        unsafe {
            kill(-group, SIGKILL);
        }
    }
}
