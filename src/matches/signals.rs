//! Ctrl-C and process-group signals through libc, declared here (no new
//! dependency). The handler only sets a flag that the match loop polls; a
//! second Ctrl-C exits at once, for a wind-down that hangs.

use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

const SIGINT: c_int = 2;
const SIGKILL: c_int = 9;

unsafe extern "C" {
    fn signal(signum: c_int, handler: extern "C" fn(c_int)) -> usize;
    fn kill(pid: c_int, sig: c_int) -> c_int;
    fn _exit(status: c_int) -> !;
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_signum: c_int) {
    // Only async-signal-safe work here: an atomic swap and _exit.
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        unsafe { _exit(130) };
    }
}

/// Routes SIGINT to the flag read by [`interrupted`].
pub fn install_interrupt_handler() {
    // SAFETY: the handler is a plain function that only touches an atomic
    // and calls _exit, both allowed in a signal handler.
    unsafe {
        signal(SIGINT, on_interrupt);
    }
}

/// Whether Ctrl-C was pressed since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
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
